/**
 * `paylink env` as a shell uses it: `eval "$(paylink env)"` in bash, then curl with the provider's staging
 * URL reaches this folder's sandbox; without a sandbox here it says what to start (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, until } from '../helpers/cli.js';
import { startProxySandbox, type ProxySandbox } from '../helpers/drop-in.js';

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;
const hasTools = spawnSync('bash', ['-c', 'command -v curl']).status === 0;

describe('paylink env', () => {
  let sandbox: ProxySandbox;
  let empty: string;
  beforeAll(async () => {
    sandbox = await startProxySandbox();
    empty = mkdtempSync(join(tmpdir(), 'paylink-env-empty-'));
  });
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(empty, { recursive: true, force: true });
  });

  it('says to start a sandbox with --proxy where none was started (exit 2)', async () => {
    const run = await runCli(['env'], { cwd: empty });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('paylink sandbox --proxy 8418');
  });

  it.runIf(hasTools)('prints lines that bash evals, after which curl reaches the sandbox at the staging host', () => {
    const script = `eval "$("${process.execPath}" "${BIN}" env)" && curl -sS --max-time 10 "https://stagconnect.acehubpaymentservices.com/gateway/v3/paymentlinks/none?businessId=env-biz"`;
    const run = spawnSync('bash', ['-c', script], { cwd: sandbox.dir, env: { PATH: process.env.PATH, NO_COLOR: '1' }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(typeof answer.result).toBe('number');
    expect(answer.result).not.toBe(0);
  });

  it.runIf(hasTools)('leaves the sandbox saying which target its proxy refused', async () => {
    const env = await sandbox.env();
    const run = spawnSync('curl', ['-sS', '--max-time', '10', 'https://example.com/'], { env: { PATH: process.env.PATH, ...env.variables }, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    await until(() => sandbox.output().includes('proxy refused example.com:443'), 10_000);
  });

  it('prints export lines, the Chromium switches and how to undo them', async () => {
    const run = await runCli(['env'], { cwd: sandbox.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^export https_proxy=http:\/\/127\.0\.0\.1:\d+ HTTPS_PROXY=/m);
    expect(run.stdout).toMatch(/^# Chromium \/ Playwright: --proxy-server=http:\/\/127\.0\.0\.1:\d+ --ignore-certificate-errors-spki-list=\S+$/m);
    expect(run.stdout).toMatch(/^# undo: unset https_proxy HTTPS_PROXY /m);
  });
});
