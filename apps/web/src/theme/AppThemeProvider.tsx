import { MantineProvider } from '@mantine/core';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useCachedUser } from '../auth/session';
import { appearanceOfUser, buildTheme } from './theme';

/** Applies the signed-in user's display preferences; follows the cached user, so a change shows at once. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const user = useCachedUser();
  const { primaryColor, rootFontSizePx, colorScheme } = appearanceOfUser(user);
  const theme = useMemo(() => buildTheme({ primaryColor }), [primaryColor]);

  useEffect(() => {
    // Mantine sizes are in rem, so the root font size scales the whole interface.
    document.documentElement.style.fontSize = `${rootFontSizePx}px`;
  }, [rootFontSizePx]);

  return (
    <MantineProvider theme={theme} forceColorScheme={colorScheme}>
      {children}
    </MantineProvider>
  );
}
