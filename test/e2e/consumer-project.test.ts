/**
 * The consumer project (test/consumer/): a merchant's test suite using paylink/testing, installed from
 * `npm pack` of this checkout, never from src/. In a temporary copy: `npm install` of the tarball and the
 * project's devDependencies (from npm's cache where it has them, no browser download), then its type check
 * with skipLibCheck false, its vitest file, its node:test file and its Playwright Test spec on Debian's
 * Chromium. better-sqlite3's native module is taken from this checkout's install (the same version,
 * pinned), so nothing is compiled.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, hasChromium } from '../helpers/browser.js';

const root = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'paylink-consumer-'));
const project = join(dir, 'consumer');

function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<{ code: number; output: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        timeout: timeoutMs,
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}\n${stderr}`, stdout }),
    );
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let installed: { code: number; output: string; stdout: string } | undefined;

beforeAll(async () => {
  // The package as published: `npm pack` of this checkout (dist/ is built by `npm test` before vitest runs).
  expect(existsSync(join(root, 'dist/testing/index.js')), 'dist/ is built (npm run build)').toBe(true);
  const packed = await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], root, 120_000);
  expect(packed.code, packed.output).toBe(0);
  const tarball = join(dir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);

  cpSync(join(root, 'test/consumer'), project, { recursive: true, filter: (src) => !/node_modules|build$/.test(src) });
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  const sqlite = JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8')).version as string;
  pkg.dependencies = { paylink: `file:${tarball}` };
  pkg.overrides = { 'better-sqlite3': sqlite };
  writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
  installed = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel', 'error'], project, 600_000);
  if (installed.code !== 0) return;
  // The native module this checkout built, for the same version: nothing to compile or download.
  const release = join(project, 'node_modules/better-sqlite3/build/Release');
  mkdirSync(release, { recursive: true });
  cpSync(join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), join(release, 'better_sqlite3.node'));
}, 660_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the consumer project, on the packed package', () => {
  it('installs paylink from the tarball, not from src/', () => {
    expect(installed?.code, installed?.output).toBe(0);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/paylink/package.json'), 'utf8'));
    expect(manifest.exports['./testing']).toEqual({ types: './dist/testing/index.d.ts', default: './dist/testing/index.js' });
    expect(existsSync(join(project, 'node_modules/paylink/src'))).toBe(false);
  });

  it('type-checks its tests against the package with skipLibCheck false', async () => {
    const result = await run(npm, ['run', 'typecheck'], project, 120_000);
    expect(result.code, result.output).toBe(0);
  }, 150_000);

  it('passes its vitest files (createTestSandbox + webhookReceiver per file; one sandbox shared through globalSetup)', async () => {
    const result = await run(npm, ['run', 'test:vitest'], project, 180_000);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/4 passed/);
  }, 200_000);

  it('passes its node:test file', async () => {
    const result = await run(npm, ['run', 'test:node'], project, 180_000);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/# pass 2/);
  }, 200_000);

  it.skipIf(!hasChromium)(
    'passes its Playwright Test spec on Debian Chromium (approved, declined, 3-D Secure and save card, page and iframe)',
    async () => {
      const result = await run(npm, ['run', 'test:playwright'], project, 300_000, { CHROMIUM_PATH: chromiumPath });
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/4 passed/);
    },
    320_000,
  );
});
