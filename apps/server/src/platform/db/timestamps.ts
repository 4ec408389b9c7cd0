/**
 * Timestamps of raw rows as ISO 8601 strings. Drizzle hands `timestamptz` columns of `db.execute` rows over as
 * PostgreSQL's text ('2026-11-28 15:45:06.123456+00' when the session's time zone is UTC, as ours are), and lists
 * present several per row: `new Date(text).toISOString()` goes through V8's slow legacy date parser (~1 µs each,
 * ~1.3 ms of a 212-event month view). The UTC text is rewritten directly; anything else (another offset, a Date
 * from a driver that parsed it, infinity) takes the general path, so the answer is always what `Date` would give.
 */
const UTC_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/** The instant as `YYYY-MM-DDTHH:MM:SS.sssZ` (milliseconds truncated, as `Date` does); null stays null. */
export function isoOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    const m = UTC_TEXT.exec(v);
    if (m) return `${m[1]}T${m[2]}.${m[3] ? `${m[3]}00`.slice(0, 3) : '000'}Z`;
  }
  return new Date(v as string | Date).toISOString();
}

/** `isoOf` for a NOT NULL column. */
export const isoOfSet = (v: unknown): string => isoOf(v) as string;
