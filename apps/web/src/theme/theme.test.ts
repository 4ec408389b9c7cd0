import { describe, expect, it } from 'vitest';
import { appearanceFor, buildTheme } from './theme';

describe('appearanceFor', () => {
  it('uses the defaults when the profile has no preferences', () => {
    expect(appearanceFor(undefined)).toEqual({ rootFontSizePx: 16, primaryColor: 'orange', colorScheme: 'light' });
  });

  it('maps font sizes to the root scale', () => {
    expect(appearanceFor({ font_size: 'small' }).rootFontSizePx).toBe(14);
    expect(appearanceFor({ font_size: 'default' }).rootFontSizePx).toBe(16);
    expect(appearanceFor({ font_size: 'large' }).rootFontSizePx).toBe(18);
  });

  it('maps primary colours to Mantine palettes, purple to grape', () => {
    expect(appearanceFor({ primary_color: 'orange' }).primaryColor).toBe('orange');
    expect(appearanceFor({ primary_color: 'green' }).primaryColor).toBe('green');
    expect(appearanceFor({ primary_color: 'pink' }).primaryColor).toBe('pink');
    expect(appearanceFor({ primary_color: 'yellow' }).primaryColor).toBe('yellow');
    expect(appearanceFor({ primary_color: 'purple' }).primaryColor).toBe('grape');
  });

  it('maps the dark background to the dark colour scheme', () => {
    expect(appearanceFor({ background: 'dark' }).colorScheme).toBe('dark');
    expect(appearanceFor({ background: 'default' }).colorScheme).toBe('light');
  });

  it('builds a Mantine theme with the primary colour', () => {
    expect(buildTheme(appearanceFor({ primary_color: 'purple' })).primaryColor).toBe('grape');
  });
});
