/**
 * `PAYLINK_PORT` moves the default port (issue 28): `paylink sandbox` listens on it without `--port`, and a
 * command with no base URL, run where no sandbox was started, reaches the sandbox on it. `--port` and
 * `--base-url` still win. A value that is not a port from 1 to 65535 stops every command with a usage error
 * (exit 2) naming the variable, never a crash nor a quiet fall-back to 8417. Real processes, real sandboxes;
 * the table of refused values is checked in-process on `defaultPort`, where the rule lives, and one value
 * end to end shows the CLI applies it to every command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultBaseUrl, defaultPort } from '../../src/cli/defaults.js';
import { UsageError } from '../../src/cli/errors.js';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { freePort, runCli } from '../helpers/cli.js';
import { BIN } from '../helpers/tty.js';

const dirs: string[] = [];
const started: ChildProcess[] = [];
/** A sandbox of this process (not in the user's index of running sandboxes), on a port the system chose. */
let sandbox: RunningSandbox;
let port: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, db: ':memory:' });
  port = new URL(sandbox.url).port;
});
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGTERM');
});
afterAll(async () => {
  await sandbox.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A new folder where no sandbox was ever started. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-port-'));
  dirs.push(dir);
  return dir;
}

/** `paylink sandbox <args>` in the background in a new folder; `out()` is its stdout so far. */
function sandboxProcess(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, '--json', 'sandbox', '--db', ':memory:', ...args], {
    cwd: tempDir(),
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  return { out: () => out };
}

/** The `--json` summary a sandbox process printed once listening. */
async function summaryOf(run: { out: () => string }): Promise<{ url: string }> {
  await expect.poll(() => run.out().includes('"url"'), { timeout: 20_000 }).toBe(true);
  return JSON.parse(run.out().slice(run.out().indexOf('{')));
}

async function linkExists(baseUrl: string, linkId: string): Promise<boolean> {
  return (await fetch(`${baseUrl}/gateway/v3/paymentlinks/${linkId}?businessId=sandbox-business`)).status === 200;
}

const createLink = ['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--json'];

describe('PAYLINK_PORT, the default port', () => {
  it('is the port `paylink sandbox` listens on without --port', async () => {
    const free = String(await freePort());
    const summary = await summaryOf(sandboxProcess([], { PAYLINK_PORT: free }));
    expect(summary.url).toBe(`http://127.0.0.1:${free}`);
    const health = await fetch(`http://127.0.0.1:${free}/__sandbox/health`);
    expect(health.status).toBe(200);
  });

  it('gives way to --port', async () => {
    // PAYLINK_PORT names a port in use (this file's sandbox): --port 0 takes a free one all the same.
    const summary = await summaryOf(sandboxProcess(['--port', '0'], { PAYLINK_PORT: port }));
    expect(new URL(summary.url).port).not.toBe(port);
  });

  it('is the port a command with no base URL reaches, from a folder where nothing was started', async () => {
    const created = await runCli(createLink, { cwd: tempDir(), env: { PAYLINK_PORT: port } });
    expect(created.code, created.stderr).toBe(0);
    expect(await linkExists(sandbox.url, created.json.body.link.linkId)).toBe(true);
    // `paylink wait` there takes it too, and `paylink config` says where the base URL came from.
    const waited = await runCli(['wait', '--timeout', '5s', '--json'], { cwd: tempDir(), env: { PAYLINK_PORT: port } });
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.json.url).toBe(sandbox.url);
    const config = await runCli(['config', '--json'], { cwd: tempDir(), env: { PAYLINK_PORT: port } });
    expect(config.json.settings.baseUrl).toEqual({ value: sandbox.url, source: 'PAYLINK_PORT' });
  });

  it('gives way to --base-url and PAYLINK_BASE_URL', async () => {
    // PAYLINK_PORT names a port where nothing listens; the base URL given reaches this file's sandbox.
    const nowhere = String(await freePort());
    for (const [args, env] of [
      [['--base-url', sandbox.url], { PAYLINK_PORT: nowhere }],
      [[], { PAYLINK_PORT: nowhere, PAYLINK_BASE_URL: sandbox.url }],
    ] as const) {
      const created = await runCli([...createLink, ...args], { cwd: tempDir(), env });
      expect(created.code, created.stderr).toBe(0);
      expect(await linkExists(sandbox.url, created.json.body.link.linkId)).toBe(true);
    }
  });

  /** Every value that is not a port from 1 to 65535, as written: checked in-process, where the rule lives. */
  const REFUSED = ['abc', '0', '65536', '-1', '8417.5', '0x2000', ' 9000'];
  const refusal = (value: string) => `PAYLINK_PORT: expected a port number from 1 to 65535, got "${value}"`;

  it.each(REFUSED)('refuses PAYLINK_PORT=%j with a usage error (exit 2) naming the variable and the value', (value) => {
    let thrown: unknown;
    try {
      defaultPort({ PAYLINK_PORT: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).exitCode).toBe(EXIT_CODES.usage);
    expect((thrown as UsageError).message).toContain(refusal(value));
  });

  it('takes every whole number from 1 to 65535', () => {
    expect([1, 8417, 65535].map((n) => defaultPort({ PAYLINK_PORT: String(n) }))).toEqual([1, 8417, 65535]);
  });

  // The CLI checks it once, before any command runs (index.ts): a bad value stops `paylink sandbox` even
  // with --port (the program built with that command alone), and a client even with --base-url.
  it('stops the sandbox and the clients alike with exit 2, even given --port or --base-url (real processes)', async () => {
    const value = '65536';
    for (const args of [
      ['sandbox', '--db', ':memory:', '--port', '0'],
      ['link', 'get', 'x', '--base-url', sandbox.url],
    ]) {
      const run = await runCli(args, { cwd: tempDir(), env: { PAYLINK_PORT: value } });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(refusal(value));
      expect(run.stderr).not.toContain('unexpected failure');
    }
    const json = await runCli(['clock', '--json'], { cwd: tempDir(), env: { PAYLINK_PORT: value } });
    expect(json.code).toBe(2);
    expect(json.json.error.message).toContain(refusal(value));
  });

  it('says why 0 is refused, and takes an empty value as unset', () => {
    expect(() => defaultPort({ PAYLINK_PORT: '0' })).toThrow('`paylink sandbox --port 0`');
    expect(defaultPort({ PAYLINK_PORT: '' })).toBe(8417);
    expect(defaultPort({})).toBe(8417);
    expect(defaultBaseUrl({ PAYLINK_PORT: '19000' })).toBe('http://127.0.0.1:19000');
  });
});
