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
    env: { PUPPETEER_SKIP_DOWNLOAD: '1' },
  },
});
