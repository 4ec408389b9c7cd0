import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./apps/server/src/**/schema.ts'],
  out: process.env.DRIZZLE_OUT ?? './apps/server/drizzle',
  // Timestamped names keep migrations from parallel branches in order and free of number clashes.
  migrations: { prefix: 'timestamp' },
});
