/**
 * Which sandbox a command takes (issue 31, item 1; issue 32, item 4), with real processes:
 * - a CI job `sandbox --port 0 & wait && fixtures load` in a new folder seeds the sandbox it started, not
 *   another project's sandbox on the default port, and a command run where nothing was started says whose
 *   sandbox it took (the default port is `PAYLINK_PORT`, a free port the test picks, so 8417 is never needed);
 * - a discovery entry planted in a parent folder never receives the user's credentials or admin token: an
 *   entry that is not the user's own (another owner, writable by others) is ignored and said so, and an
 *   entry whose address does not answer as the sandbox it records is not used;
 * - an answer that is not a sandbox's is a clear error (exit 4), never a TypeError (exit 70).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, runCli } from '../helpers/cli.js';
import { BIN } from '../helpers/tty.js';

const started: ChildProcess[] = [];
const dirs: string[] = [];
const closers: (() => void)[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGTERM');
  for (const close of closers.splice(0)) close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-trust-'));
  dirs.push(dir);
  return dir;
}

/** `paylink <args>` as a background process in `dir` (a CI step's `&`); `out()` is its stdout so far. */
function background(args: string[], dir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', CI: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => out, err: () => err };
}

/** A server that records every request and answers `answer` (a JSON text) with 200. */
async function fakeServer(answer: string): Promise<{ url: string; seen: { url: string; headers: IncomingHttpHeaders }[] }> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createHttpServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen };
}

/** Plants `.paylink/sandboxes/x.json` in `dir` naming `url` and a living process (this test's). */
function plant(dir: string, url: string, mode = 0o644): string {
  mkdirSync(join(dir, '.paylink', 'sandboxes'), { recursive: true });
  const path = join(dir, '.paylink', 'sandboxes', 'x.json');
  writeFileSync(path, JSON.stringify({ url, listen: url, pid: process.pid, db: join(dir, 'x.db'), startedAt: new Date().toISOString() }));
  chmodSync(path, mode);
  return path;
}

const secrets = { PAYLINK_USERNAME: 'merchant', PAYLINK_PASSWORD: 'hunter2-secret', PAYLINK_ADMIN_TOKEN: 'admin-token-secret' };

function leaked(seen: { headers: IncomingHttpHeaders }[]): boolean {
  return seen.some((r) => r.headers.authorization !== undefined || r.headers['x-paylink-admin-token'] !== undefined);
}

describe('a CI job seeds the sandbox it started (issue 31, item 1)', () => {
  it("waits for the sandbox started from a new folder while another folder's sandbox answers on the default port, and seeds that one", async () => {
    // The default port is PAYLINK_PORT, a port free now: the scenario never needs 8417, which a sandbox of
    // the developer's may hold. Every process of the scenario has it, as every step of a CI job would.
    const port = await freePort();
    const env = { PAYLINK_PORT: String(port) };
    const defaultUrl = `http://127.0.0.1:${port}`;
    const other = tempDir();
    // Theirs: started without --port, so on the default port.
    const theirs = background(['--json', 'sandbox', '--db', ':memory:'], other, env);
    await expect.poll(() => theirs.out().includes('"url"'), { timeout: 20_000 }).toBe(true);
    expect(JSON.parse(theirs.out().slice(theirs.out().indexOf('{'))).url).toBe(defaultUrl);

    const dir = tempDir();
    const ours = background(['--json', 'sandbox', '--port', '0', '--db', ':memory:'], dir, env);
    const waited = await runCli(['wait', '--timeout', '30s', '--json'], { cwd: dir, env });
    expect(waited.code, waited.stderr).toBe(0);
    await expect.poll(() => ours.out().includes('"url"'), { timeout: 20_000 }).toBe(true);
    const summary = JSON.parse(ours.out().slice(ours.out().indexOf('{')));
    expect(waited.json.url).toBe(summary.url);
    expect(summary.url).not.toBe(defaultUrl);

    const created = await runCli(['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--json'], {
      cwd: dir,
      env,
    });
    expect(created.code, created.stderr).toBe(0);
    const linkId = created.json.body.link.linkId as string;
    expect((await fetch(`${summary.url}/gateway/v3/paymentlinks/${linkId}?businessId=sandbox-business`)).status).toBe(200);
    expect((await fetch(`${defaultUrl}/gateway/v3/paymentlinks/${linkId}?businessId=sandbox-business`)).status).toBe(404);

    // Where nothing was started, a command takes the default port's sandbox, and says whose it is.
    const elsewhere = await runCli(['clock'], { cwd: tempDir(), env });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stderr).toContain(`No sandbox was started from this folder: using the one at ${defaultUrl}, started from ${other}`);
    // And `wait` there does not take it for the one being started: it says so and gives up in time.
    const waitElsewhere = await runCli(['wait', '--timeout', '500ms'], { cwd: tempDir(), env });
    expect(waitElsewhere.code).toBe(4);
    expect(waitElsewhere.stderr).toContain(`The one at ${defaultUrl} was started from ${other}: pass --base-url ${defaultUrl} to use it`);
  });

  it("does not fall back to the default port after the folder's sandbox was killed with -9", async () => {
    const dir = tempDir();
    const run = background(['--json', 'sandbox', '--port', '0', '--db', ':memory:'], dir);
    await expect.poll(() => run.out().includes('"url"'), { timeout: 20_000 }).toBe(true);
    run.child.kill('SIGKILL');
    await run.exited;
    const waited = await runCli(['wait', '--timeout', '500ms'], { cwd: dir });
    expect(waited.code).toBe(4);
    expect(waited.stdout).not.toContain('8417');
    expect(waited.stderr).not.toContain('8417');
  });
});

describe('a discovery entry planted in a parent folder (issue 32, item 4)', () => {
  it('never sends the password or the admin token to an address that does not answer as the sandbox the entry records, and exits 4 with a clear message', async () => {
    const fake = await fakeServer('{"hello":"world"}');
    const parent = tempDir();
    plant(parent, fake.url);
    const below = join(parent, 'project');
    mkdirSync(below);
    for (const args of [['webhooks', 'list'], ['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r'], ['clock']]) {
      const run = await runCli(args, { cwd: below, env: secrets });
      expect(run.code, run.stderr).toBe(4);
      expect(run.stderr).toContain('what answers at its address is not the sandbox the entry records');
      expect(run.stderr).not.toContain('TypeError');
    }
    // Only the identity probe reached it, and it carried nothing of the user's.
    expect(fake.seen.length).toBeGreaterThan(0);
    expect(fake.seen.every((r) => r.url === '/__sandbox/health')).toBe(true);
    expect(leaked(fake.seen)).toBe(false);
  });

  it('ignores an entry another user owns or anyone may write to, and says so', async () => {
    const fake = await fakeServer('{"body":{"status":"up"}}');
    for (const spoil of ['world-writable', 'other-owner'] as const) {
      const parent = tempDir();
      const path = plant(parent, fake.url, spoil === 'world-writable' ? 0o666 : 0o644);
      if (spoil === 'other-owner') {
        if (process.getuid?.() !== 0) continue;
        chownSync(path, 65534, 65534);
      }
      const run = await runCli(['webhooks', 'list', '--base-url', 'http://127.0.0.1:9'], { cwd: parent, env: secrets });
      // --base-url wins: the entry is not even read. Without it, the entry is ignored with a warning.
      expect(run.code).toBe(4);
      const plain = await runCli(['clock'], { cwd: parent, env: { ...secrets, CI: '1' } });
      expect(plain.stderr).toContain('Ignored a sandbox entry that is not yours to trust');
      expect(plain.stderr).toContain(spoil === 'world-writable' ? 'writable by other users' : 'belongs to another user');
    }
    expect(fake.seen).toEqual([]);
  });

  it('answers a malformed list with a clear error (exit 4), never a TypeError (exit 70)', async () => {
    const fake = await fakeServer('{"body":{"endpoints":[{"hookId":"x"}]}}');
    const run = await runCli(['webhooks', 'list', '--base-url', fake.url], { cwd: tempDir() });
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toContain("without the sandbox's list of endpoints");
  });
});
