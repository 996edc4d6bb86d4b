/**
 * `paylink sandbox` options it cannot use are a message and exit 2, never a stack trace (exit 70), and a
 * start that fails leaves nothing behind (issue 32, item 11; issue 31, items 13 and 14). Real processes.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const server of servers.splice(0)) server.close();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-start-'));
  dirs.push(dir);
  return dir;
}

function sandbox(args: string[], cwd: string) {
  return runCli(['sandbox', '--port', '0', ...args], { cwd });
}

describe('paylink sandbox refuses what it cannot use (exit 2, no stack trace)', () => {
  it.each([
    [['--db', '/proc/version'], '/proc/version is not a usable SQLite database'],
    [['--cert', '/etc/passwd', '--key', '/etc/passwd'], '--cert /etc/passwd: holds no PEM certificate'],
    [['--db', '/etc/hostname/x.db'], '/etc/hostname is a file, not a folder'],
    [['--db', '/dev/null'], 'is not a regular file'],
    [['--host', '10.255.255.1'], '--host 10.255.255.1: no network interface of this machine has that address'],
  ])('sandbox %j', async (args, message) => {
    const dir = tempDir();
    const run = await sandbox(args, dir);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("creates only the database's own folder: a missing parent is refused, not made at the filesystem root", async () => {
    const dir = tempDir();
    const root = `/paylink-test-${process.pid}-${Date.now()}`;
    const run = await sandbox(['--db', `${root}/x/y.db`], dir);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`the folder ${root} does not exist`);
    expect(existsSync(root)).toBe(false);
  });

  it('refuses a database under a regular file, and a file that is not a database, with the path named', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const under = await sandbox(['--db', 'notes.txt/sandbox.db'], dir);
    expect(under.code, under.stderr).toBe(2);
    expect(under.stderr).toContain(`${join(dir, 'notes.txt')} is a file, not a folder`);
    const text = await sandbox(['--db', 'notes.txt'], dir);
    expect(text.code, text.stderr).toBe(2);
    expect(text.stderr).toContain('is not a usable SQLite database');
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('leaves no database, lock file or .paylink folder behind when the start fails (a port in use)', async () => {
    const dir = tempDir();
    const server = createServer();
    servers.push(server);
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    const run = await runCli(['sandbox', '--port', String(port)], { cwd: dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('already in use');
    expect(run.stderr).toContain('pick another with --port.');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names what chose a port in use: PAYLINK_PORT, or --proxy for the proxy', async () => {
    const server = createServer();
    servers.push(server);
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    const fromEnv = await runCli(['sandbox', '--db', ':memory:'], { cwd: tempDir(), env: { PAYLINK_PORT: String(port) } });
    expect(fromEnv.code, fromEnv.stderr).toBe(2);
    expect(fromEnv.stderr).toContain(`pick another with --port (it came from PAYLINK_PORT=${port})`);
    const proxy = await runCli(['sandbox', '--port', '0', '--db', ':memory:', '--proxy', String(port)], { cwd: tempDir() });
    expect(proxy.code, proxy.stderr).toBe(2);
    expect(proxy.stderr).toContain(`Proxy port ${port} on 127.0.0.1 is already in use`);
    expect(proxy.stderr).toContain('pick another with --proxy.');
  });
});
