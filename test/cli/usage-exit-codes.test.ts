/**
 * What the CLI can check itself is a usage error (exit 2), said in the words of the flag given, and with
 * `--json` printed as the error document on stdout; texts that misled say what happened (issue 31, items
 * 5 and 13). Real processes against real sandboxes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { writeSandboxEntry } from '../../src/cli/discovery.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';

const sb = useSandbox();
const dirs: string[] = [];
let tls: RunningSandbox;
beforeAll(async () => {
  tls = await startSandbox({ port: 0, db: ':memory:', https: true });
});
afterAll(async () => {
  await tls.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-usage-'));
  dirs.push(dir);
  return dir;
}

function paylink(args: string[]) {
  return runCli([...args, '--base-url', sb.url]);
}

describe('values the CLI can check exit 2, not 3 (issue 31, item 13)', () => {
  it.each([
    [['faults', 'add', '--kind', 'bogus'], '--kind: expected one of status, latency, timeout, reset, ghost, got "bogus"'],
    [['faults', 'add', '--kind', 'status', '--status', '418'], '--status: expected one of 401, 403, 429, 500, 502, 503, 504, got "418"'],
    [['faults', 'add', '--kind', 'status', '--probability', '2'], '--probability: expected a number above 0 and at most 1'],
    [
      ['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--duration', 'P0D'],
      '--duration: expected P<n>D (1 to 365 days)',
    ],
    [['events', 'list', '--type', 'bogus'], '--type: unknown event type "bogus"'],
  ])('%j', async (args, message) => {
    const run = await paylink(args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('events send --type bogus names --type, before asking for a payload', async () => {
    const payload = join(tempDir(), 'payload.json');
    writeFileSync(payload, '{"result":0,"body":{}}');
    for (const args of [
      ['events', 'send', '--type', 'bogus', '--payload', payload],
      ['events', 'send', '--type', 'bogus'],
    ]) {
      const run = await paylink(args);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('--type: unknown event type "bogus"');
    }
  });
});

describe('texts that said something else (issue 31, item 13)', () => {
  it('an unknown id is "no payment link, checkout or payment", not "Checkout not found"', async () => {
    const run = await paylink(['status', 'nope123']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('No payment link, checkout or payment nope123 for business sandbox-business');
    expect(run.stderr).not.toContain('Checkout not found');
  });

  it('version says a certificate is not trusted instead of "does not answer"', async () => {
    const run = await runCli(['version', '--base-url', tls.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('its TLS certificate is not trusted');
    expect(run.stdout).not.toContain('does not answer');
    const json = await runCli(['version', '--base-url', tls.url, '--json']);
    expect(json.json.sandbox).toMatchObject({ baseUrl: tls.url, reachable: false });
    expect(json.json.sandbox.problem).toContain('not trusted');
  });

  it("config shows the settings when the folder's sandbox stopped (exit 0), the base URL saying why it has none", async () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeSandboxEntry(dir, { url: 'http://127.0.0.1:9', listen: 'http://127.0.0.1:9', pid: dead, db: join(dir, 'x.db'), startedAt: new Date().toISOString() });
    const run = await runCli(['config', '--json', '--business-id', 'shop-7'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.settings.baseUrl.value).toBeNull();
    expect(run.json.settings.baseUrl.source).toContain('is not running any more');
    expect(run.json.settings.businessId).toEqual({ value: 'shop-7', source: '--business-id' });
  });

  it('config masks a short password whole, and shows the last four of a long one', async () => {
    const short = await runCli(['config', '--json', '--base-url', sb.url, '--username', 'u', '--password', 'secret']);
    expect(short.json.settings.password.value).toBe('****');
    const long = await runCli(['config', '--json', '--base-url', sb.url, '--username', 'u', '--password', 'a-much-longer-secret']);
    expect(long.json.settings.password.value).toBe('…cret');
  });
});

describe('--json usage errors print the error document on stdout (issue 31, item 5)', () => {
  it.each([
    ['link', 'list', '--status', 'nope'],
    ['payment', 'list', '--status', 'nope'],
    ['link', 'list', '--limit', '500'],
    ['link', 'list', '--since', 'banana'],
    ['logs', '--status', '99x'],
  ])('paylink --json %j', async (...args) => {
    const run = await runCli(['--json', ...args, '--base-url', sb.url]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.json).toMatchObject({ error: { exitCode: 2 } });
    expect(run.json.error.message).toContain(args[args.length - 2]!);
  });
});

describe('small things a new user tripped on (issue 31, item 17)', () => {
  it("webhooks add of the sandbox's own address is refused with a message (exit 2), however it is spelled", async () => {
    const port = new URL(sb.url).port;
    for (const url of [`${sb.url}/hook`, `http://localhost:${port}/hook`, `http://127.1:${port}/`, `http://[::1]:${port}/`]) {
      const run = await paylink(['webhooks', 'add', url]);
      expect(run.code, `${url}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain('never delivers webhooks to itself');
    }
  });

  it('the root help lists exit code 130', async () => {
    const run = await runCli(['--help']);
    expect(run.stdout).toContain('130 cancelled');
  });
});

describe('flags that do not apply are refused, not ignored (issue 31, item 15)', () => {
  it.each([
    [['token', 'create', '--return-url', 'http://127.0.0.1:9/r'], "unknown option '--return-url'"],
    [['token', 'create', '--issuer', 'ABNANL2A'], "unknown option '--issuer'"],
    [['token', 'create', '--brand', 'ideal'], 'a token saves a card'],
    [['trigger', 'bank.approved', '--brand', 'visa'], 'trigger bank.approved pays by bank or wallet'],
    [['trigger', 'payment.approved', '--brand', 'ideal'], 'trigger payment.approved pays by card'],
  ])('%j', async (args, message) => {
    const run = await paylink(args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('still takes a brand of the kind the scenario pays with', async () => {
    const run = await paylink(['trigger', 'bank.approved', '--brand', 'sofort', '--json']);
    expect(run.code, run.stderr).toBe(0);
  });
});
