import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The consumer project's own tests run inside it, from the packed package (test/e2e/consumer-project.test.ts).
    exclude: [...configDefaults.exclude, 'test/consumer/**'],
    pool: 'forks',
    // Two cores: two test files at a time keeps browser tests from starving each other.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
