// The browser flows' databases (playwright.config.ts): the demo is migrated and seeded once, into the first worker's
// data directory, and copied for the others. Seeding is most of a fresh server's start (up to a minute on a busy
// two-core machine); each worker then owns its copy, so flows on different workers never share a demo user.
// Run with the server's loader: node --import tsx e2e/seed-data.ts <dir> [<copy> ...]
import fs from 'node:fs';
import { openDatabase } from '../apps/server/src/platform/db/client.js';
import { seedDemoIfEmpty } from '../apps/server/src/seed/demo.js';

const [dir, ...copies] = process.argv.slice(2);
if (!dir) throw new Error('usage: seed-data.ts <dir> [<copy> ...]');
const database = await openDatabase({ dataDir: dir });
await database.migrate();
await seedDemoIfEmpty(database.db);
// Closed before copying: PGlite writes its pages out on close, and a copy of an open directory may miss them.
await database.close();
for (const copy of copies) fs.cpSync(dir, copy, { recursive: true });
