/**
 * Real sandbox processes for the reliability tests: `node bin/paylink.js sandbox --port 0 --db <file> --json`,
 * read until its JSON summary, with its output kept for assertions, stopped by SIGTERM or killed with -9.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;

export interface SandboxProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  stop(): Promise<number | string>;
  kill9(): Promise<number | string>;
}

/**
 * The folder a test's sandbox is started in: its database's. A sandbox leaves its discovery entry in the
 * folder it was started from (`.paylink/sandboxes/`), and one killed with SIGKILL cannot remove it; started
 * from the repository, every such test left the developer's own commands there a dead sandbox to report.
 */
function startedIn(db: string): string {
  if (db === ':memory:') throw new Error('startProcess: give a database file in a temporary folder');
  return dirname(db);
}

/** Starts a sandbox process; rejects with its output if it exits before printing its summary. */
export function startProcess(db: string, args: string[] = [], timeoutMs = 15_000): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--db', db, '--json', ...args], {
    cwd: startedIn(db),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sandbox did not start in ${timeoutMs} ms:\n${out}\n${err}`));
    }, timeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = summaryUrl(out);
      if (match) {
        clearTimeout(timer);
        const handle: SandboxProcess = {
          url: match,
          child,
          stderr: () => err,
          exited,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
          kill9: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            return exited;
          },
        };
        resolve(handle);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`sandbox exited with ${code} before listening:\n${out}\n${err}`), { exitCode: code, output: out + err }));
    });
  });
}

/** The `url` of the JSON summary `--json` prints once listening (pretty-printed over many lines). */
function summaryUrl(out: string): string | undefined {
  const start = out.search(/^\{/m);
  if (start < 0) return undefined;
  const end = out.indexOf('\n}', start);
  if (end < 0) return undefined;
  try {
    return (JSON.parse(out.slice(start, end + 2)) as { url: string }).url;
  } catch {
    return undefined;
  }
}

/** Runs `paylink sandbox` expecting it to exit at once; answers its exit code and output. */
export function runToExit(db: string, args: string[] = [], timeoutMs = 15_000): Promise<{ code: number | string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--db', db, ...args], {
      cwd: startedIn(db),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`paylink sandbox did not exit in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, output });
    });
  });
}

/** A temporary folder removed by the returned function. */
export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-rel-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function json(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return json(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

let n = 0;
/** A link creation body. */
export function linkBody(businessId = 'biz-rel', amount = 10) {
  n += 1;
  return {
    header: { businessId },
    body: {
      transaction: { amount, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: `rel-${process.pid}-${Date.now()}-${n}` },
      link: { duration: 'P1D', brandIds: [1010], returnUrl: 'https://merchant.example/return' },
    },
  };
}
