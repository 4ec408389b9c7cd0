/** A person's display preferences (crm-core.md §3): the option lists and their defaults. */
export const FONT_SIZES = ['small', 'default', 'large'] as const;
export const PRIMARY_COLORS = ['orange', 'green', 'pink', 'yellow', 'purple'] as const;
/**
 * `default` follows the operating system's light or dark preference; `light` and `dark` are a person's choice
 * (docs/decisions/theme-preference.md: the spec names default and dark; light is added so a choice can be made either way).
 */
export const BACKGROUNDS = ['default', 'light', 'dark'] as const;
export const BACKGROUND_LABELS: Record<(typeof BACKGROUNDS)[number], string> = {
  default: 'Match my device',
  light: 'Light',
  dark: 'Dark',
};
export type FontSize = (typeof FONT_SIZES)[number];
export type PrimaryColor = (typeof PRIMARY_COLORS)[number];
export type Background = (typeof BACKGROUNDS)[number];
/** Defaults are not shown in the spec; see docs/decisions/display-preference-defaults.md. */
export const DEFAULT_THEME = { font_size: 'default', primary_color: 'orange', background: 'default' } as const;
