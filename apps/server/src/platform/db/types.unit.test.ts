import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Db, Tx } from './client.js';

const SRC = path.resolve(import.meta.dirname, '../..');

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (e.name.endsWith('.ts')) yield p;
  }
}

describe('the typed database handle', () => {
  it('takes a transaction wherever a Db goes, and execute answers typed rows', () => {
    expectTypeOf<Tx>().toExtend<Db>();
    type Executed = Awaited<ReturnType<Db['execute']>>;
    expectTypeOf<Executed['rows']>().toEqualTypeOf<Record<string, unknown>[]>();
  });

  it('is never cast: the driver adapters in client.ts are the only place a handle is narrowed', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      if (file.endsWith(path.join('db', 'client.ts')) || file === import.meta.filename) continue;
      const text = fs.readFileSync(file, 'utf8');
      if (/as unknown as (Db|Tx)\b/.test(text)) offenders.push(path.relative(SRC, file));
    }
    expect(offenders).toEqual([]);
  });
});
