/**
 * Sandbox discovery (issue 23, item 2): one entry per running sandbox in `.paylink/sandboxes/`, keyed by its
 * database; a sandbox that is gone is reported (exit 4), never replaced by the default URL; several live
 * sandboxes in one folder are named and not guessed between (exit 2). Real `paylink sandbox` processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, runCli, type CliRun } from '../helpers/cli.js';
import { resolveConnection } from '../../src/cli/config.js';
import { discoverSandbox, entryName, sandboxOf } from '../../src/cli/discovery.js';
import { UnreachableError } from '../../src/cli/errors.js';
import { BIN } from '../helpers/tty.js';

const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-discovery-'));
  dirs.push(dir);
  return dir;
}

/** The CLI in `dir`, no base URL configured, no TTY. */
function paylink(args: string[], dir: string): Promise<CliRun> {
  return runCli(args, { cwd: dir });
}

/** `paylink sandbox --port 0 <args>` in `dir`; resolves with the child and its base URL once listening. */
async function startSandbox(dir: string, args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await expect.poll(() => /PAYLINK_BASE_URL=(\S+)/.exec(out)?.[1], { timeout: 20_000 }).toBeDefined();
  return { child, url: /PAYLINK_BASE_URL=(\S+)/.exec(out)![1]! };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
  const closed = new Promise((resolve) => child.on('close', resolve));
  child.kill(signal);
  await closed;
}

const createLink = ['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--json'];

describe('one entry per running sandbox (issue 23, item 2)', () => {
  it('keeps the first sandbox when a second (:memory:) one starts and stops in the same folder, and names both while both run', async () => {
    const dir = tempDir();
    const first = await startSandbox(dir, ['--db', join(dir, 'first.db')]);
    const second = await startSandbox(dir, ['--db', ':memory:']);
    expect(readdirSync(join(dir, '.paylink', 'sandboxes')).sort()).toEqual(
      [`${entryName(dir, join(dir, 'first.db'))}.json`, `memory-${second.child.pid}.json`].sort(),
    );

    const both = await paylink(createLink, dir);
    expect(both.code, both.stderr).toBe(2);
    expect(both.stderr).toContain('2 sandboxes run from this folder');
    expect(both.stderr).toContain(first.url);
    expect(both.stderr).toContain(second.url);
    expect(both.stderr).toContain('--base-url');

    await stop(second.child);
    const run = await paylink(createLink, dir);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).body.link.redirect.url.startsWith(first.url)).toBe(true);
  });

  it("says the folder's sandbox is gone after kill -9 (exit 4) instead of using the default URL, and forgets the dead entry", async () => {
    const dir = tempDir();
    const sub = join(dir, 'app');
    mkdirSync(sub);
    const { child, url } = await startSandbox(dir, ['--db', join(dir, 'killed.db')]);
    await stop(child, 'SIGKILL');
    const entries = join(dir, '.paylink', 'sandboxes');
    expect(readdirSync(entries)).toHaveLength(1);

    const run = await paylink(createLink, sub);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`The sandbox started in ${dir} is not running any more: ${url}`);
    expect(run.stderr).toContain('the process is gone');
    expect(run.stderr).toContain('paylink sandbox');
    expect(run.stderr).not.toContain('8417');
    expect(JSON.parse(run.stdout).error.exitCode).toBe(4);
    expect(readdirSync(entries)).toEqual([]);

    // Still no silent fallback on the next command: the folder had a sandbox, none runs now.
    const again = await paylink(['clock', '--json'], dir);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('No sandbox is running for this folder');
  });

  it('takes a live process whose port does not answer for a sandbox that is gone', async () => {
    const dir = tempDir();
    // A port nobody listens on: bound, then freed.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    mkdirSync(join(dir, '.paylink', 'sandboxes'), { recursive: true });
    // This test's own process stands for a process that took over the sandbox's pid.
    writeFileSync(
      join(dir, '.paylink', 'sandboxes', 'abc.json'),
      JSON.stringify({ url, listen: url, pid: process.pid, db: join(dir, 'x.db'), startedAt: new Date().toISOString() }),
    );
    const found = await discoverSandbox(dir);
    expect(found.kind).toBe('gone');
    const run = await paylink(createLink, dir);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('its port does not answer');
    // The entry of a live process is not deleted: it may still be starting.
    expect(JSON.parse(readFileSync(join(dir, '.paylink', 'sandboxes', 'abc.json'), 'utf8')).pid).toBe(process.pid);
  });

  it('names the three newest of many stopped sandboxes, and how many more', () => {
    const dir = tempDir();
    const stale = [1, 2, 3, 4, 5].map((n) => ({
      url: `http://127.0.0.1:${40000 + n}`,
      listen: `http://127.0.0.1:${40000 + n}`,
      pid: 100 + n,
      db: join(dir, `${n}.db`),
      startedAt: `2026-01-0${n}T00:00:00.000Z`,
      path: join(dir, '.paylink', 'sandboxes', `${n}.json`),
      state: 'not-answering' as const,
    }));
    const error = (() => {
      try {
        sandboxOf({ kind: 'gone', dir, stale }, dir);
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UnreachableError);
    expect(error!.message).toContain('The 5 sandboxes started in this folder are not running any more: http://127.0.0.1:40005 ');
    expect(error!.message).toContain('http://127.0.0.1:40004');
    expect(error!.message).toContain('http://127.0.0.1:40003');
    expect(error!.message).not.toContain('http://127.0.0.1:40002');
    expect(error!.message).toContain('; and 2 more. Start one again with `paylink sandbox`');
  });

  it('uses the default URL in a folder where no sandbox was ever started, and --base-url always wins', async () => {
    const dir = tempDir();
    expect((await discoverSandbox(dir)).kind).toBe('none');
    expect(resolveConnection({}, {}, dir).baseUrl).toBe('http://127.0.0.1:8417');
    const { child, url } = await startSandbox(dir, ['--db', ':memory:']);
    await stop(child, 'SIGKILL');
    const other = await startSandbox(tempDir(), ['--db', ':memory:']);
    const flagged = await paylink([...createLink, '--base-url', other.url], dir);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(JSON.parse(flagged.stdout).body.link.redirect.url.startsWith(other.url)).toBe(true);
    expect(url).not.toBe(other.url);
  });
});
