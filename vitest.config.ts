import { defineConfig } from 'vitest/config';

/**
 * Projects: `unit` (pure functions, no I/O), `integration` and `integration-mocked` (the server through HTTP against a
 * real database: embedded by default, the PostgreSQL server when TEST_DATABASE_URL is set) and `web` (browser code in
 * happy-dom).
 */
const integration = {
  include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
  exclude: ['apps/server/src/**/*.unit.test.ts'],
  globalSetup: ['apps/server/test/global-setup.ts'],
  // Generous: imports and transfers run real jobs, and CI shares two cores with the database server.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Some unit tests stream real files; a loaded 2-core runner needs more than the default 5 s.
          testTimeout: 30_000,
          // scripts/: the local voice lab's relay (its call state, its pcap-to-WAV conversion).
          include: [
            'packages/shared/src/**/*.test.ts',
            'apps/server/src/**/*.unit.test.ts',
            'scripts/**/*.unit.test.ts',
          ],
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          exclude: [...integration.exclude, 'apps/server/src/**/*.mocked.test.ts'],
          // One module graph per worker, not per file: loading the server's modules took ~2.3 s a file (213 s of a
          // 574 s run). Each file still builds its own app on its own database copy; module-level state is kept to
          // registries that every app instance fills the same way.
          isolate: false,
        },
      },
      {
        // Files that replace a module (vi.mock) need modules of their own: with a shared module graph the mock would
        // leak into the files after them, or come too late.
        test: { ...integration, name: 'integration-mocked', include: ['apps/server/src/**/*.mocked.test.ts'] },
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
          // One module graph and one DOM per worker (102 s -> 38 s under load: React and Mantine were loaded, and a
          // DOM built, per file); setup.ts unmounts and clears what a test leaves behind.
          isolate: false,
        },
      },
    ],
  },
});
