/** The user's display preferences (profile font_size, primary_color, background) as Mantine settings. */
import { type Background, type CurrentUser, DEFAULT_THEME, type FontSize, type PrimaryColor } from '@harbor/shared';
import { createTheme, type MantineThemeOverride } from '@mantine/core';

export const FONT_SIZE_PX: Record<FontSize, number> = { small: 14, default: 16, large: 18 };

/** Mantine has no "purple"; its grape palette is the purple one. */
export const PRIMARY_COLOR_MANTINE: Record<PrimaryColor, string> = {
  orange: 'orange',
  green: 'green',
  pink: 'pink',
  yellow: 'yellow',
  purple: 'grape',
};

export interface AppearanceSettings {
  rootFontSizePx: number;
  primaryColor: string;
  colorScheme: 'light' | 'dark';
}

type ThemePrefs = { font_size: FontSize; primary_color: PrimaryColor; background: Background };

export function appearanceFor(profile: Partial<ThemePrefs> | null | undefined): AppearanceSettings {
  const prefs = { ...DEFAULT_THEME, ...profile } as ThemePrefs;
  return {
    rootFontSizePx: FONT_SIZE_PX[prefs.font_size] ?? FONT_SIZE_PX.default,
    primaryColor: PRIMARY_COLOR_MANTINE[prefs.primary_color] ?? PRIMARY_COLOR_MANTINE.orange,
    colorScheme: prefs.background === 'dark' ? 'dark' : 'light',
  };
}

export function appearanceOfUser(user: CurrentUser | null | undefined): AppearanceSettings {
  return appearanceFor(user?.profile);
}

export function buildTheme(settings: Pick<AppearanceSettings, 'primaryColor'>): MantineThemeOverride {
  return createTheme({
    primaryColor: settings.primaryColor,
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    defaultRadius: 'md',
  });
}
