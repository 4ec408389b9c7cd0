/**
 * The user's display preferences (profile font_size, primary_color, background) as Mantine settings, and a theme
 * whose colors meet WCAG 2.2 AA in both schemes (docs/decisions/theme-preference.md).
 */
import { type Background, type CurrentUser, DEFAULT_THEME, type FontSize, type PrimaryColor } from '@harbor/shared';
import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME as MANTINE_DEFAULTS,
  type MantineThemeOverride,
} from '@mantine/core';
import { mix, readable } from './contrast';

export const FONT_SIZE_PX: Record<FontSize, number> = { small: 14, default: 16, large: 18 };

/** Mantine has no "purple"; its grape palette is the purple one. */
export const PRIMARY_COLOR_MANTINE: Record<PrimaryColor, string> = {
  orange: 'orange',
  green: 'green',
  pink: 'pink',
  yellow: 'yellow',
  purple: 'grape',
};

/** 'auto' follows the operating system (the `default` background) until the person picks light or dark. */
export type ColorSchemeChoice = 'light' | 'dark' | 'auto';

export interface AppearanceSettings {
  rootFontSizePx: number;
  primaryColor: string;
  colorScheme: ColorSchemeChoice;
}

type ThemePrefs = { font_size: FontSize; primary_color: PrimaryColor; background: Background };

export function appearanceFor(profile: Partial<ThemePrefs> | null | undefined): AppearanceSettings {
  const prefs = { ...DEFAULT_THEME, ...profile } as ThemePrefs;
  return {
    rootFontSizePx: FONT_SIZE_PX[prefs.font_size] ?? FONT_SIZE_PX.default,
    primaryColor: PRIMARY_COLOR_MANTINE[prefs.primary_color] ?? PRIMARY_COLOR_MANTINE.orange,
    colorScheme: prefs.background === 'dark' ? 'dark' : prefs.background === 'light' ? 'light' : 'auto',
  };
}

export function appearanceOfUser(user: CurrentUser | null | undefined): AppearanceSettings {
  return appearanceFor(user?.profile);
}

/** AA asks 4.5:1 for text; a little more leaves room for the tinted rows and hovers text sits on. */
const TEXT_RATIO = 4.7;
const colors = MANTINE_DEFAULTS.colors;
const WHITE = MANTINE_DEFAULTS.white;
const LIGHT_SURFACES = [WHITE, colors.gray[0], colors.gray[1]];
const DARK_SURFACES = [colors.dark[7], colors.dark[6], colors.dark[5]];

/**
 * Text-like colors of every palette, pushed just far enough to read on the surfaces they sit on: `-text` (Text c=,
 * links), `-light-color` (light and subtle variants: the active nav item, light badges), `-outline`, the anchor,
 * dimmed text and errors. Filled variants are handled by `autoContrast` (black or white text by luminance).
 */
export function accessibleColorVariables(primaryColor: string): ReturnType<CSSVariablesResolver> {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  for (const [name, shades] of Object.entries(colors)) {
    if (name === 'dark') continue;
    light[`--mantine-color-${name}-text`] = readable(shades[7], LIGHT_SURFACES, TEXT_RATIO);
    light[`--mantine-color-${name}-outline`] = readable(shades[7], LIGHT_SURFACES, TEXT_RATIO);
    light[`--mantine-color-${name}-light-color`] = readable(shades[9], [WHITE, shades[1], shades[2]], TEXT_RATIO);
    // Dark scheme light variants sit on the shade 9 darkened by half (Mantine's own formula): mix(.., black, .5).
    const darkLightBg = [mix(shades[9], '#000000', 0.5), mix(shades[9], '#000000', 0.3)];
    dark[`--mantine-color-${name}-text`] = readable(shades[4], DARK_SURFACES, TEXT_RATIO);
    dark[`--mantine-color-${name}-outline`] = readable(shades[4], DARK_SURFACES, TEXT_RATIO);
    dark[`--mantine-color-${name}-light-color`] = readable(shades[0], [...darkLightBg, ...DARK_SURFACES], TEXT_RATIO);
  }
  return {
    variables: {},
    light: {
      ...light,
      '--mantine-color-anchor': light[`--mantine-color-${primaryColor}-text`] as string,
      '--mantine-color-dimmed': readable(colors.gray[6], LIGHT_SURFACES, TEXT_RATIO),
      // Input placeholders that are real elements (Input.Placeholder) are text like any other.
      '--mantine-color-placeholder': readable(colors.gray[5], LIGHT_SURFACES, TEXT_RATIO),
      '--mantine-color-error': light['--mantine-color-red-text'] as string,
    },
    dark: {
      ...dark,
      '--mantine-color-anchor': dark[`--mantine-color-${primaryColor}-text`] as string,
      '--mantine-color-dimmed': readable(colors.dark[2], DARK_SURFACES, TEXT_RATIO),
      '--mantine-color-placeholder': readable(colors.dark[3], DARK_SURFACES, TEXT_RATIO),
      '--mantine-color-error': dark['--mantine-color-red-text'] as string,
    },
  };
}

export function buildTheme(settings: Pick<AppearanceSettings, 'primaryColor'>): MantineThemeOverride {
  return createTheme({
    primaryColor: settings.primaryColor,
    // One shade in both schemes: autoContrast decides the text color of a filled button from the light shade.
    primaryShade: 8,
    autoContrast: true,
    // Where black and white text read equally well on a fill (4.58:1 each): every fill gets the one that passes AA.
    luminanceThreshold: 0.179,
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    defaultRadius: 'md',
    components: {
      // Every close button gets a name (a screen reader otherwise hears only "button").
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
      Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
      // A table that scrolls sideways (most of them, at phone width) must scroll from the keyboard too (WCAG 2.1.1):
      // its viewport takes focus, then the arrow keys move it. Only tables without a link or button inside need it,
      // but whether one scrolls depends on the width, so every table's box is a tab stop.
      TableScrollContainer: { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } },
      // A file field's clear button is a real, focusable button (a select's is hidden from the keyboard and readers).
      FileInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Remove the file' } } },
      // The placeholder element Menu puts first in role=menu is not a menu item (axe: aria-required-children);
      // without it, opening a menu focuses its first item, which is what a keyboard user expects anyway.
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
      // A loader is a bare span: the name each page gives it ("Loading contacts") is prohibited there (axe:
      // aria-prohibited-attr) and never read. As a status it is allowed and announced. Axe caught one only when a
      // screen was checked before its request ended (a busy machine), so every screen was exposed to it.
      Loader: { defaultProps: { role: 'status' } },
    },
  });
}
