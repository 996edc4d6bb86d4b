import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser (installed with PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1).
export default defineConfig({
  testDir: 'tests/playwright',
  workers: 1,
  timeout: 60_000,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking'],
    },
  },
});
