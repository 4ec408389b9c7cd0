/**
 * WCAG contrast arithmetic for the theme: Mantine's stock shades put orange links at 2.57:1 and the active nav item
 * at 3.61:1 on white. Instead of hand-picking a shade per palette, each text-like color is pushed toward black (light
 * scheme) or white (dark scheme) just far enough to reach the ratio.
 */

type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full =
    h.length === 3
      ? h
          .split('')
          .map((c) => c + c)
          .join('')
      : h;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Mixes `hex` with `toward` by `amount` (0..1), like CSS color-mix in sRGB. */
export function mix(hex: string, toward: string, amount: number): string {
  const a = parseHex(hex);
  const b = parseHex(toward);
  return toHex(a.map((c, i) => c + ((b[i] as number) - c) * amount) as Rgb);
}

/**
 * The color closest to `hex` that reads at `ratio` on every one of `backgrounds`: mixed toward black when the
 * backgrounds are light, toward white when they are dark.
 */
export function readable(hex: string, backgrounds: string[], ratio: number): string {
  const dark = backgrounds.every((bg) => luminance(bg) < 0.2);
  const toward = dark ? '#ffffff' : '#000000';
  for (let step = 0; step <= 100; step += 2) {
    const candidate = mix(hex, toward, step / 100);
    if (backgrounds.every((bg) => contrast(candidate, bg) >= ratio)) return candidate;
  }
  return toward;
}
