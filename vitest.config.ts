import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{packages,services,proxy,deploy,apps}/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['packages/testing/src/global-setup.ts'],
    pool: 'forks',
    // Files run in parallel, each on its own databases; two workers for two cores keeps
    // Chromium-driven tests from being starved.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Fleets under a fully loaded two-core machine can wait longer than the production 5 s for a
    // Postgres connection (seen in CI: a seed step's pool timed out).
    env: { PUPPETEER_SKIP_DOWNLOAD: '1', PG_CONNECT_TIMEOUT_MS: '15000' },
  },
});
