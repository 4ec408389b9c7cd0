import { describe, expect, it } from 'vitest';
import { hasOwnKey, ownValue } from './own.js';

describe('own-key lookups', () => {
  const allowed: Record<string, string> = { name: 'n' };
  it('find what the object itself holds', () => {
    expect(hasOwnKey(allowed, 'name')).toBe(true);
    expect(ownValue(allowed, 'name')).toBe('n');
  });
  it('never answer what every object inherits', () => {
    for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(key in allowed).toBe(true); // the trap this helper exists for
      expect(hasOwnKey(allowed, key)).toBe(false);
      expect(ownValue(allowed, key)).toBeUndefined();
    }
  });
});
