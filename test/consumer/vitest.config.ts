import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['tests/vitest/**/*.test.ts'], globalSetup: ['tests/vitest/global-setup.ts'], testTimeout: 30_000 },
});
