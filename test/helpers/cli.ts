/**
 * For tests that call the CLI's command functions in this process: a Ui writing to buffers, and a wait
 * for a condition that polls; and the real CLI as a child process.
 */
import { spawn } from 'node:child_process';
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
