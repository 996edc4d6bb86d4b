/**
 * `paylink wait`: real processes. It returns as soon as the sandbox started from its folder answers (found
 * through the folder's discovery entry, on whatever port it got), exits 4 when none answers in time, and
 * refuses a timeout it cannot read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSandboxEntry } from '../../src/cli/discovery.js';
import { useSandbox } from '../helpers/sandbox.js';
import { until } from '../helpers/cli.js';

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function start(args: string[], cwd: string) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: performance.now() })));
  return { child, exited, out: () => out, err: () => err };
}

const sb = useSandbox();

describe('paylink wait', () => {
  it('returns 0 as soon as the sandbox started from this folder answers, on the port it got', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-wait-'));
    dirs.push(dir);
    // An entry of a sandbox that stopped: wait must not give up on it, nor try the default port.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeSandboxEntry(dir, {
      url: 'http://127.0.0.1:9',
      listen: 'http://127.0.0.1:9',
      pid: dead,
      db: join(dir, 'old.db'),
      startedAt: new Date().toISOString(),
    });
    // Without --json it says it is waiting once its first look found nothing it may use: the event to wait on.
    const waiting = start(['wait', '--timeout', '60s'], dir);
    await until(() => waiting.err().includes('Waiting for the sandbox started from this folder') || waiting.child.exitCode !== null, 20_000);
    expect(waiting.child.exitCode, waiting.err()).toBeNull();
    const sandbox = start(['sandbox', '--port', '0', '--db', 'sandbox.db', '--json'], dir);
    try {
      const waited = await waiting.exited;
      expect(waited.code, waiting.err()).toBe(0);
      const result = /^Sandbox at (\S+) answers \(waited (\d+) ms\)\.\n$/.exec(waiting.out());
      expect(result, waiting.out()).not.toBeNull();
      await until(() => sandbox.out().includes('\n}\n'), 20_000);
      const summary = JSON.parse(sandbox.out().slice(sandbox.out().indexOf('{')));
      expect(result![1]).toBe(summary.url);
      // It counts the wait, which spanned the sandbox's whole start (spawned only after it said it was waiting).
      expect(Number(result![2])).toBeGreaterThan(0);
      const health = await fetch(`${result![1]}/__sandbox/health`);
      expect(health.status).toBe(200);
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.exited;
    }
  });

  it('returns at once for a sandbox that already answers at --base-url', async () => {
    const run = start(['wait', '--base-url', sb.url], process.cwd());
    const { code } = await run.exited;
    expect(code, run.err()).toBe(0);
    expect(run.out()).toMatch(new RegExp(`^Sandbox at ${sb.url.replace(/[.]/g, '\\.')} answers \\(waited \\d+ ms\\)\\.\\n$`));
    const json = start(['wait', '--base-url', sb.url, '--json'], process.cwd());
    expect((await json.exited).code, json.err()).toBe(0);
    expect(JSON.parse(json.out())).toEqual({ url: sb.url, waitedMs: expect.any(Number) });
  });

  it('exits 4 after --timeout when nothing answers, and 2 for a timeout it cannot read', async () => {
    const begun = performance.now();
    const run = start(['wait', '--timeout', '800ms', '--base-url', 'http://127.0.0.1:9'], process.cwd());
    const { code, at } = await run.exited;
    expect(code).toBe(4);
    expect(run.err()).toContain('No sandbox answered at http://127.0.0.1:9 within 800 ms');
    expect(at - begun).toBeGreaterThanOrEqual(800);
    const bad = start(['wait', '--timeout', 'soon'], process.cwd());
    expect((await bad.exited).code).toBe(2);
    expect(bad.err()).toContain('wait --timeout');
  });
});
