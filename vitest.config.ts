// One vitest run for every workspace's unit and integration tests. The server's integration
// tests (*.int.test.ts) run a second time on PostgreSQL when LOUPE_TEST_POSTGRES=1
// (scripts/test.mjs sets it when a server answers). e2e journeys have their own config.
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Resolve our workspaces to their TypeScript sources, so tests never need a build first.
const resolveSources = {
  resolve: { conditions: ['loupe-src', ...defaultClientConditions] },
  // No 'module' condition on the server side: some packages (e.g. @aws-sdk) point it at ESM
  // builds with extensionless imports that only bundlers can load.
  ssr: {
    resolve: {
      conditions: ['loupe-src', ...defaultServerConditions.filter((c) => c !== 'module')],
    },
  },
};

const postgres = process.env.LOUPE_TEST_POSTGRES === '1';

export default defineConfig({
  ...resolveSources,
  test: {
    projects: [
      {
        ...resolveSources,
        test: {
          name: 'node',
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgres
        ? [
            {
              ...resolveSources,
              test: {
                name: 'server-postgres',
                environment: 'node',
                include: ['apps/server/src/**/*.int.test.ts'],
                env: { LOUPE_TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        ...resolveSources,
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
