import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` (pure functions, no I/O), `integration` (the server through HTTP against a real database:
 * embedded by default, the PostgreSQL server when TEST_DATABASE_URL is set) and `web` (browser code in happy-dom).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Some unit tests stream real files; a loaded 2-core runner needs more than the default 5 s.
          testTimeout: 30_000,
          include: ['packages/shared/src/**/*.test.ts', 'apps/server/src/**/*.unit.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: ['apps/server/src/**/*.unit.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Generous: imports and transfers run real jobs, and CI shares two cores with the database server.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          // Fails a test on console.error / console.warn and on a request its fake server does not know.
          setupFiles: ['apps/web/src/test/setup.ts'],
          // Lazy routes load their chunk on first render; on a busy 2-core runner that alone can take seconds.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
