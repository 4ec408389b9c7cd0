/** Tags and statuses store their color by name (TAG_COLORS); Mantine calls purple "grape". */
const MANTINE: Record<string, string> = { purple: 'grape' };
const KNOWN = new Set(['blue', 'green', 'red', 'orange', 'yellow', 'grape', 'pink', 'teal', 'gray', 'cyan', 'violet']);

/** A palette the theme knows (and keeps readable in both schemes); anything else reads as gray. */
export function paletteOf(color: string | null | undefined): string {
  const name = color ? (MANTINE[color] ?? color) : 'gray';
  return KNOWN.has(name) ? name : 'gray';
}
