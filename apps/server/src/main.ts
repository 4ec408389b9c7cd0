/** Starts Harbor: open and migrate the database, seed the demo on first start, serve web + API on one port. */
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { devInboxEnabled } from './modules/dev/routes.js';
import { openDatabase } from './platform/db/client.js';
import { enqueueSweep } from './platform/files/sweeper.js';
import { closeDeps, wireDeps } from './platform/wiring.js';
import { DEMO_PASSWORD, seedDemoIfEmpty } from './seed/demo.js';

const started = performance.now();
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await database.migrate();
const seeded = config.demo ? await seedDemoIfEmpty(database.db) : false;
const deps = await wireDeps(config, database);
const app = await buildApp(deps);
await app.listen({ port: config.port, host: config.host });
// Jobs start after the routes exist: areas registered their handlers while the app was built.
deps.jobs.start();
// Whatever a crash left in file storage is cleaned up once per start (platform/files/sweeper.ts).
await enqueueSweep(deps).catch((err: Error) => console.error('could not queue the file sweep', err.message));

const where = config.databaseUrl ? 'PostgreSQL server' : `embedded PostgreSQL (PGlite) in ${config.dataDir}`;
console.log(
  `\nHarbor is running on ${config.appUrl} (${where}), ready in ${Math.round(performance.now() - started)} ms`,
);
if (config.demo) {
  console.log(`${seeded ? 'Demo data seeded. ' : ''}Demo sign-ins (password ${DEMO_PASSWORD}):`);
  console.log('  admin@, sub_admin@, bu_admin@, manager@, regional_manager@, district_manager@, field_manager@,');
  console.log(
    '  telemarketer@, agent@, basic@, newhire@ ...demo.harbor.test; admin@, manager@, agent@, pool_holder@recruit.harbor.test',
  );
  if (devInboxEnabled(config))
    console.log(`  Mail sent by Harbor lands in the development inbox: ${config.appUrl}/dev/inbox`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await closeDeps(deps);
    process.exit(0);
  });
}
