/**
 * Allow-lists built on plain objects must not accept the names every object inherits (issue 15): one case per place
 * where input names a key. The HTTP-level places (transfer order_field, multipart field names) are in
 * apps/server/test/own-keys.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkUpload } from '../modules/contact-records/file-type.js';
import { checkEmail } from '../modules/contacts/email-check.js';
import { inferMapping } from '../modules/imports/parse/fields.js';
import { normalizeState, stageRow } from '../modules/imports/parse/normalize.js';

const INHERITED = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'];

describe('input that names an inherited key', () => {
  it('email check: a top-level domain named like an Object method is not a typo of anything', () => {
    for (const tld of ['constructor', 'tostring', 'valueof']) {
      const r = checkEmail(`ann@example.${tld}`);
      expect(r.suggestion ?? '').not.toMatch(/function|native code/);
      expect(r.reasons.join(' ')).not.toMatch(/function|native code/);
    }
  });

  it('import: a state cell "constructor" is not a US state', () => {
    for (const v of INHERITED) expect(normalizeState(v)).toBeNull();
    const row = stageRow(['Ann', 'constructor'], ['First', 'State'], ['first_name', 'state']);
    expect(row.values.state).toBeUndefined();
    expect(row.reasons).toEqual(["State 'constructor' is not a US state"]);
  });

  it('import: a gender cell "constructor" is not a gender', () => {
    const row = stageRow(['Ann', 'constructor'], ['First', 'Gender'], ['first_name', 'gender']);
    expect(row.values.gender).toBeUndefined();
  });

  it('import: a column headed "__proto__" keeps its values as an extra field', () => {
    const row = stageRow(['Ann', 'kept'], ['First', '__proto__'], ['first_name', 'extra']);
    expect(row.extra && Object.hasOwn(row.extra, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(row.extra))).toEqual(JSON.parse('{"__proto__":"kept"}'));
  });

  it('import mapping: a header named "constructor" is not mapped by the form', () => {
    const cols = inferMapping(['constructor', 'toString'], [['a', 'b']], {});
    for (const c of cols) {
      expect(typeof c.field).toBe('string');
      expect(c.matched_by).not.toBe('form');
    }
  });

  it('contact files: an extension named like an Object method is refused as a type', async () => {
    const r = await checkUpload('x.valueOf', 'text/plain', Buffer.from('hello'));
    expect(r.ok).toBe(false);
  });
});
