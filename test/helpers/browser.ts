/**
 * Real Chromium for browser tests: `CHROMIUM_PATH`, else `/usr/bin/chromium`. Where there is none the tests
 * are skipped with a loud notice, except under `CI=true`, where a missing browser fails the run.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

if (!hasChromium) {
  const notice = `\n${'!'.repeat(78)}\n  Chromium not found at ${chromiumPath}: browser tests are SKIPPED.\n  Install it with: sudo apt-get install -y chromium   (or set CHROMIUM_PATH)\n${'!'.repeat(78)}\n`;
  if (process.env.CI === 'true') throw new Error(`Chromium is required under CI=true but was not found at ${chromiumPath}.${notice}`);
  console.warn(notice);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--no-first-run'],
  });
}

/** Folder for screenshots a person can look at (git-ignored). */
export function artifactsDir(): string {
  const dir = new URL('../../test-artifacts/', import.meta.url).pathname;
  mkdirSync(dir, { recursive: true });
  return dir;
}
