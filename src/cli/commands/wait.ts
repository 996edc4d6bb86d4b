/**
 * `paylink wait [--timeout 30s]`: returns as soon as a sandbox answers, for CI scripts that start one in the
 * background (`paylink sandbox &`) instead of a curl loop. Which sandbox: `--base-url` / `PAYLINK_BASE_URL`
 * / the config file when given; else the one started from this folder, found through its discovery entry
 * (discovery.ts) as soon as it has written it, or the default URL while nothing was started here yet.
 * Exit 0 once `GET /__sandbox/health` answers with the sandbox's envelope; exit 4 when nothing did in time.
 */
import { adminRequest, type AdminConnection, type AdminFlags } from '../client.js';
import { DEFAULT_BASE_URL, resolveConnection, type GlobalFlags } from '../config.js';
import { discoverSandbox, sandboxOf } from '../discovery.js';
import { UnreachableError, UsageError } from '../errors.js';
import type { Ui } from '../ui.js';

/** How long `paylink wait` waits when `--timeout` is not given. */
export const DEFAULT_WAIT_MS = 30_000;
/** Pause between two probes. */
const POLL_MS = 100;

/** `30s`, `500ms`, `2m` or plain seconds (`30`), as `--timeout` for `paylink wait`. */
export function parseWaitTimeout(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1000) : NaN;
  if (!(ms >= 100 && ms <= 3_600_000)) throw new UsageError(`wait --timeout: expected a duration from 100ms to 60m such as 30s, 500ms, 2m or 30 (seconds), got "${value}".`);
  return Math.round(ms);
}

export interface WaitResult {
  url: string;
  waitedMs: number;
}

/** Waits for a sandbox to answer; resolves with where and after how long, or throws {@link UnreachableError}. */
export async function runWait(ui: Ui, flags: GlobalFlags & AdminFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<WaitResult> {
  const limitMs = flags.timeout === undefined ? DEFAULT_WAIT_MS : parseWaitTimeout(flags.timeout);
  const started = performance.now();
  // Flags > environment > config file; without any, discovery below decides (never the timeout flag,
  // which here is the whole wait, not one request's).
  const configured = resolveConnection({ ...flags, timeout: undefined }, env, cwd, { kind: 'none' });
  const explicit = flags.baseUrl !== undefined || Boolean(env.PAYLINK_BASE_URL) || configured.baseUrl !== DEFAULT_BASE_URL;
  const adminToken = flags.adminToken ?? (env.PAYLINK_ADMIN_TOKEN || undefined);
  let lastTried = configured.baseUrl;
  for (;;) {
    const left = limitMs - (performance.now() - started);
    if (left <= 0) break;
    const conn = explicit ? { baseUrl: configured.baseUrl, ca: configured.ca } : await thisFoldersSandbox(cwd);
    if (conn !== undefined) {
      lastTried = conn.baseUrl;
      if (await answers({ ...conn, adminToken }, Math.min(2000, Math.max(left, 50)))) {
        const result = { url: conn.baseUrl, waitedMs: Math.round(performance.now() - started) };
        if (ui.options.json) ui.json(result);
        else ui.line(`Sandbox at ${result.url} answers (waited ${result.waitedMs} ms).`);
        return result;
      }
    }
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, limitMs - (performance.now() - started)))));
  }
  const seconds = limitMs % 1000 === 0 ? `${limitMs / 1000} s` : `${limitMs} ms`;
  throw new UnreachableError(
    explicit
      ? `No sandbox answered at ${configured.baseUrl} within ${seconds}. Is it starting (paylink sandbox), and on that address?`
      : `No sandbox answered within ${seconds} (last tried ${lastTried}). Start one from this folder with \`paylink sandbox\`, or pass --base-url <url>.`,
  );
}

/**
 * Where the sandbox of this folder listens now: its discovery entry once written, the default URL while
 * nothing was started here, nothing while only entries of stopped sandboxes exist (a new one will write
 * its own). Several running: a usage error at once (exit 2), as for every command.
 */
async function thisFoldersSandbox(cwd: string): Promise<Pick<AdminConnection, 'baseUrl' | 'ca'> | undefined> {
  const discovery = await discoverSandbox(cwd, { probe: false });
  if (discovery.kind === 'none') return { baseUrl: DEFAULT_BASE_URL };
  if (discovery.kind === 'gone') return undefined;
  const entry = sandboxOf(discovery, cwd)!;
  return { baseUrl: entry.url, ca: entry.ca === undefined ? undefined : await readCa(entry.ca) };
}

async function readCa(path: string): Promise<string | undefined> {
  const { readFile } = await import('node:fs/promises');
  return readFile(path, 'utf8').catch(() => undefined);
}

/** True when the health endpoint answers with an envelope (a 401 for a missing admin token counts: a sandbox answered). */
async function answers(conn: AdminConnection, timeoutMs: number): Promise<boolean> {
  try {
    await adminRequest(conn, 'GET', '/__sandbox/health', undefined, { timeoutMs });
    return true;
  } catch {
    return false;
  }
}
