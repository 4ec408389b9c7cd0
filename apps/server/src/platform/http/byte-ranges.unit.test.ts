import { describe, expect, it } from 'vitest';
import { rangeOf } from './byte-ranges.js';

describe('rangeOf', () => {
  it('reads one byte range, clamped to the file, and says when none can be served', () => {
    expect(rangeOf(undefined, 100)).toBeNull();
    expect(rangeOf('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(rangeOf('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(rangeOf('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(rangeOf('bytes=100-', 100)).toBe('unsatisfiable');
    expect(rangeOf('bytes=9-3', 100)).toBe('unsatisfiable');
    expect(rangeOf('bytes=-0', 100)).toBe('unsatisfiable');
    // Several ranges, another unit, or nonsense: the whole file, as a server may answer.
    expect(rangeOf('bytes=0-1,5-6', 100)).toBeNull();
    expect(rangeOf('items=0-1', 100)).toBeNull();
    expect(rangeOf('bytes=-', 100)).toBeNull();
  });
});
