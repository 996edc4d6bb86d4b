/**
 * `paylink doctor` (docs/drop-in.md): from a shell without `paylink env` it fails the trust checks and
 * says to run it; after, curl, PHP and Node pass; with no sandbox it says to start one; a hosts file
 * pointing a provider host at this machine is checked against the sandbox, one pointing elsewhere fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/cli/commands/doctor.js';
import { runCli } from '../helpers/cli.js';
import { startProxySandbox, type ProxySandbox } from '../helpers/drop-in.js';

const hasCurl = spawnSync('curl', ['--version']).status === 0;

describe('paylink doctor', () => {
  let sandbox: ProxySandbox;
  let empty: string;
  beforeAll(async () => {
    sandbox = await startProxySandbox();
    empty = mkdtempSync(join(tmpdir(), 'paylink-doctor-empty-'));
  });
  afterAll(async () => {
    await sandbox?.stop();
    rmSync(empty, { recursive: true, force: true });
  });

  const state = (report: Awaited<ReturnType<typeof runDoctor>>, id: string) => report.checks.find((c) => c.id === id)!;

  it('says to start a sandbox where none was started, and exits 3', async () => {
    const run = await runCli(['doctor'], { cwd: empty });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/FAIL sandbox\s+no sandbox was started from this folder/);
    expect(run.stdout).toContain('fix: start `paylink sandbox --proxy 8418` in this folder');
  });

  it('finds the sandbox and its proxy, and says to eval paylink env when this shell does not trust it', async () => {
    const report = await runDoctor({ cwd: sandbox.dir, env: { PATH: process.env.PATH }, hostsFile: join(empty, 'no-hosts') });
    expect(state(report, 'sandbox').state).toBe('ok');
    expect(state(report, 'proxy').state).toBe('ok');
    expect(state(report, 'curl')).toMatchObject({ state: 'fail', fix: expect.stringContaining('eval "$(paylink env)"') });
    expect(state(report, 'node')).toMatchObject({ state: 'fail', fix: expect.stringContaining('eval "$(paylink env)"') });
    expect(state(report, 'hosts').state).toBe('skip');
    expect(report.ok).toBe(false);
  });

  it.runIf(hasCurl)("passes curl, PHP and Node in a shell with paylink env's variables", async () => {
    const env = await sandbox.env();
    const run = await runCli(['doctor', '--json'], { cwd: sandbox.dir, env: env.variables });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = run.json;
    expect(report.checks.find((c: { id: string }) => c.id === 'curl').state).toBe('ok');
    expect(report.checks.find((c: { id: string }) => c.id === 'node').state).toBe('ok');
    expect(['ok', 'skip']).toContain(report.checks.find((c: { id: string }) => c.id === 'php').state);
    expect(run.stdout).not.toMatch(/PRIVATE KEY/);
  });

  it('checks provider hosts the hosts file maps: this machine reaches the sandbox, elsewhere fails', async () => {
    const hosts = join(empty, 'hosts');
    writeFileSync(hosts, '127.0.0.1 localhost\n127.0.0.1 stagconnect.acehubpaymentservices.com\n');
    const good = await runDoctor({ cwd: sandbox.dir, env: {}, hostsFile: hosts });
    expect(state(good, 'hosts')).toMatchObject({ state: 'ok', detail: expect.stringContaining('stagconnect.acehubpaymentservices.com') });
    writeFileSync(hosts, '203.0.113.7 stagconnect.acehubpaymentservices.com\n');
    const bad = await runDoctor({ cwd: sandbox.dir, env: {}, hostsFile: hosts });
    expect(state(bad, 'hosts')).toMatchObject({ state: 'fail', detail: expect.stringContaining('not this machine') });
  });
});
