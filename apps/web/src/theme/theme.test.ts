import { DEFAULT_THEME, Loader, MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { mount, unmount } from '../test/dom';
import { contrast, readable } from './contrast';
import { accessibleColorVariables, appearanceFor, buildTheme } from './theme';

describe('appearanceFor', () => {
  it('uses the defaults when the profile has no preferences: the scheme follows the device', () => {
    expect(appearanceFor(undefined)).toEqual({ rootFontSizePx: 16, primaryColor: 'orange', colorScheme: 'auto' });
  });

  it('maps font sizes to the root scale', () => {
    expect(appearanceFor({ font_size: 'small' }).rootFontSizePx).toBe(14);
    expect(appearanceFor({ font_size: 'default' }).rootFontSizePx).toBe(16);
    expect(appearanceFor({ font_size: 'large' }).rootFontSizePx).toBe(18);
  });

  it('maps primary colors to Mantine palettes, purple to grape', () => {
    expect(appearanceFor({ primary_color: 'orange' }).primaryColor).toBe('orange');
    expect(appearanceFor({ primary_color: 'green' }).primaryColor).toBe('green');
    expect(appearanceFor({ primary_color: 'pink' }).primaryColor).toBe('pink');
    expect(appearanceFor({ primary_color: 'yellow' }).primaryColor).toBe('yellow');
    expect(appearanceFor({ primary_color: 'purple' }).primaryColor).toBe('grape');
  });

  it('follows the device for the default background and the person once they choose', () => {
    expect(appearanceFor({ background: 'default' }).colorScheme).toBe('auto');
    expect(appearanceFor({ background: 'dark' }).colorScheme).toBe('dark');
    expect(appearanceFor({ background: 'light' }).colorScheme).toBe('light');
  });

  it('builds a Mantine theme with the primary color', () => {
    expect(buildTheme(appearanceFor({ primary_color: 'purple' })).primaryColor).toBe('grape');
  });

  it('makes every named loader a status: a name on a bare span is prohibited and never read', async () => {
    const theme = buildTheme(appearanceFor(undefined));
    const el = await mount(
      createElement(MantineProvider, { theme }, createElement(Loader, { 'aria-label': 'Loading contacts' })),
    );
    expect(el.querySelector('[aria-label="Loading contacts"]')?.getAttribute('role')).toBe('status');
    await unmount();
  });
});

describe('accessible colors', () => {
  const white = DEFAULT_THEME.white;
  const darkBody = DEFAULT_THEME.colors.dark[7];

  it('readable() darkens on light surfaces and lightens on dark ones until the ratio holds', () => {
    // Stock orange 6 is the 2.57:1 link color of issue 8.
    expect(contrast(DEFAULT_THEME.colors.orange[6], white)).toBeLessThan(3);
    const fixed = readable(DEFAULT_THEME.colors.orange[6], [white], 4.5);
    expect(contrast(fixed, white)).toBeGreaterThanOrEqual(4.5);
    const onDark = readable(DEFAULT_THEME.colors.red[8], [darkBody], 4.5);
    expect(contrast(onDark, darkBody)).toBeGreaterThanOrEqual(4.5);
  });

  it('gives every primary color AA links, active nav items and dimmed text in both schemes', () => {
    for (const primary of ['orange', 'green', 'pink', 'yellow', 'grape']) {
      const { light, dark } = accessibleColorVariables(primary);
      const shades = DEFAULT_THEME.colors[primary];
      expect(contrast(light['--mantine-color-anchor'] as string, white)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(light[`--mantine-color-${primary}-light-color`] as string, shades[1])).toBeGreaterThanOrEqual(
        4.5,
      );
      expect(contrast(dark['--mantine-color-anchor'] as string, darkBody)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(light['--mantine-color-dimmed'] as string, white)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark['--mantine-color-dimmed'] as string, darkBody)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
