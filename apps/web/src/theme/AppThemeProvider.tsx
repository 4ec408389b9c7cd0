import { type MantineColorSchemeManager, MantineProvider } from '@mantine/core';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useCachedUser } from '../auth/userCache';
import { accessibleColorVariables, appearanceOfUser, buildTheme } from './theme';

/**
 * The scheme is the person's choice (saved on their profile) or the operating system's: nothing is kept in the
 * browser's storage, so a choice follows the person to every device and "Match my device" really does.
 */
const noStorage: MantineColorSchemeManager = {
  get: (fallback) => fallback,
  set: () => {},
  subscribe: () => {},
  unsubscribe: () => {},
  clear: () => {},
};

/** Applies the signed-in user's display preferences; follows the cached user, so a change shows at once. */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const user = useCachedUser();
  const { primaryColor, rootFontSizePx, colorScheme } = appearanceOfUser(user);
  const theme = useMemo(() => buildTheme({ primaryColor }), [primaryColor]);
  const resolver = useMemo(() => () => accessibleColorVariables(primaryColor), [primaryColor]);

  useEffect(() => {
    // Mantine sizes are in rem, so the root font size scales the whole interface.
    document.documentElement.style.fontSize = `${rootFontSizePx}px`;
  }, [rootFontSizePx]);

  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={resolver}
      colorSchemeManager={noStorage}
      defaultColorScheme="auto"
      forceColorScheme={colorScheme === 'auto' ? undefined : colorScheme}
    >
      {children}
    </MantineProvider>
  );
}
