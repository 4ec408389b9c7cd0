import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // A module may split its tables into schema-*.ts files; scripts/check-migrations.mjs fails on tables anywhere else.
  schema: ['./apps/server/src/**/schema.ts', './apps/server/src/**/schema-*.ts'],
  out: process.env.DRIZZLE_OUT ?? './apps/server/drizzle',
  // Timestamped names keep migrations from parallel branches in order and free of number clashes.
  migrations: { prefix: 'timestamp' },
});
