/**
 * test/consumer-php/: a tiny PHP shop (Guzzle, the provider's staging host hard-coded) and its PHPUnit
 * suite, run unchanged through the proxy with the environment `paylink env` prints; each of its tests
 * restores a snapshot through the admin API. Fails under CI when php or phpunit is missing; says so loudly
 * and skips elsewhere.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phpAvailable, startProxySandbox, type ProxySandbox } from '../helpers/drop-in.js';

const PROJECT = new URL('../consumer-php/', import.meta.url).pathname;
const ci = process.env.CI === 'true' || process.env.CI === '1';
const hasPhpunit = spawnSync('phpunit', ['--version']).status === 0 && spawnSync('php', ['-r', 'require "GuzzleHttp/autoload.php";']).status === 0;
if (!hasPhpunit && ci) throw new Error('phpunit and php-guzzlehttp-guzzle are required under CI (.ci/run installs them)');
if (!hasPhpunit) console.warn('SKIPPED: phpunit or php-guzzlehttp-guzzle is not installed here; test/consumer-php did not run');
const runs = phpAvailable() && hasPhpunit;

describe.runIf(runs)("test/consumer-php: a PHP shop's PHPUnit suite against the hard-coded staging host", () => {
  let sandbox: ProxySandbox;
  beforeAll(async () => {
    sandbox = await startProxySandbox();
  });
  afterAll(async () => sandbox?.stop());

  it('passes through the proxy, each test from a restored snapshot', async () => {
    const env = await sandbox.env();
    const run = spawnSync('phpunit', ['-c', 'phpunit.xml'], {
      cwd: PROJECT,
      env: { PATH: process.env.PATH, ...env.variables, PAYLINK_ADMIN_URL: sandbox.entry.listen },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/OK \(4 tests/);
    // The suite's own test of the restore (a link of an earlier test is gone) passed; its snapshot is there.
    expect(run.stdout).not.toContain('testEachTestStartsFromTheCleanSnapshot');
    const snapshots = await (await fetch(`${sandbox.entry.listen}/__sandbox/snapshots`)).text();
    expect(snapshots).toContain('php-shop-clean');
  });
});
