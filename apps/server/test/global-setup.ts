/**
 * Builds the test database once per run: migrated and seeded with the demo data. Embedded: a PGlite snapshot file
 * that each test file loads (~0.4 s instead of a 3-7 s fresh create). Server (TEST_DATABASE_URL): a template
 * database each test file copies with CREATE DATABASE ... TEMPLATE.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/platform/db/client.js';
import { seedDemoIfEmpty } from '../src/seed/demo.js';
import { PREPARE_REUSE_SQL } from './pglite-reuse.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateFile: string;
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // A template of this run's own: several runs (developers' worktrees, CI) may share one server.
    const template = `harbor_test_template_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const db = await openDatabase({ databaseUrl: withDatabase(url, template) });
    await db.migrate();
    await seedDemoIfEmpty(db.db);
    await db.close();
    project.provide('templateFile', '');
    project.provide('templateDb', template);
    return async () => {
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await a.end();
    };
  }
  const db = await openDatabase({});
  await db.migrate();
  await seedDemoIfEmpty(db.db);
  // The rows a copy handed to the next test file is reset to (pglite-reuse.ts).
  for (const statement of PREPARE_REUSE_SQL) await db.query(statement);
  // A snapshot taken after a checkpoint starts without replaying the migrations' and seed's WAL: each test file's
  // copy opened in ~1.1 s instead of ~1.8 s.
  await db.query('checkpoint');
  // Each file's copy starts right after that checkpoint, so every page a test first changes would be written whole
  // into the WAL: the copies are thrown away, a torn page cannot happen in memory, so they skip it.
  await db.query('alter system set full_page_writes = off');
  const blob = await db.dump!();
  await db.close();
  const file = path.join(os.tmpdir(), `harbor-test-template-${process.pid}.tar`);
  fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  project.provide('templateFile', file);
  project.provide('templateDb', '');
  return () => fs.rmSync(file, { force: true });
}

export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
