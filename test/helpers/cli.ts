/**
 * For tests that call the CLI's command functions in this process: a Ui writing to buffers, and a wait
 * for a condition that polls; and the real CLI as a child process.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { PassThrough } from 'node:stream';
import { Ui } from '../../src/cli/ui.js';

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;

/** A Ui whose stdout and stderr are captured; `out()` and `err()` read what was written so far. */
export function captureUi(options: { json?: boolean } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const ui = new Ui({ stdout, stderr }, { json: options.json, env: {} });
  return { ui, out: () => out, err: () => err };
}

/** Resolves once `check()` is true, polling every 20 ms; throws after `ms`. */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `node bin/paylink.js <args>` as a child process whose stdout and stderr are collected as they come. */
export function spawnCli(args: string[], options: { cwd?: string } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(options.cwd ? { cwd: options.cwd } : {}) });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return { child, out: () => out, err: () => err };
}

/** What one run of the CLI gave: its exit code, its output, and stdout parsed when it is one JSON document. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read any field of the document
  json: any;
}

/**
 * `node bin/paylink.js <args>` run to its end without a TTY (`CI=1`, `NO_COLOR=1`, PATH kept, nothing else of
 * this process's environment); `env` adds to that. Never rejects: a failed run is its exit code.
 */
export function runCli(args: string[], options: { cwd?: string | undefined; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        ...(options.cwd ? { cwd: options.cwd } : {}),
        env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1', ...options.env },
        timeout: options.timeoutMs ?? 30_000,
      },
      (error, stdout, stderr) => {
        let json: unknown;
        try {
          json = stdout.trim() ? JSON.parse(stdout) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr, json });
      },
    );
  });
}

/**
 * A port nothing listens on now (the system's pick for port 0, let go again), for a process that must be
 * told its port in advance (`PAYLINK_PORT`); a process that may choose takes `--port 0` instead.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
