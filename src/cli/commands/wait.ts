/**
 * `paylink wait [--timeout 30s]`: returns as soon as a sandbox answers, for CI scripts that start one in the
 * background (`paylink sandbox &`) instead of a curl loop. Which sandbox: `--base-url` / `PAYLINK_BASE_URL`
 * / the config file when given; else the one started from this folder, found through its discovery entry
 * (discovery.ts) once it has written it and answers as the sandbox it records; while nothing was started
 * here, the default URL, unless the user's index of running sandboxes says the one there was started from
 * another folder (then it keeps waiting, and says so: a CI job `sandbox & wait && fixtures load` must not
 * seed another project's sandbox).
 * Exit 0 once `GET /__sandbox/health` answers with the sandbox's envelope; exit 4 when nothing did in time.
 */
import type { Run } from '../command-spec.js';
import type { wait as spec } from './wait.spec.js';
import { adminRequest, type AdminConnection, type AdminFlags } from '../client.js';
import { defaultBaseUrl, resolveConnection, type GlobalFlags } from '../config.js';
import { discoverSandbox, isFolderOrAbove, sandboxOf, startedFrom } from '../discovery.js';
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
  if (!(ms >= 100 && ms <= 3_600_000))
    throw new UsageError(`wait --timeout: expected a duration from 100ms to 60m such as 30s, 500ms, 2m or 30 (seconds), got "${value}".`);
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
  // The default URL, on PAYLINK_PORT's port when set: a config file naming it is no more explicit than none.
  const defaultUrl = defaultBaseUrl(env);
  const explicit = flags.baseUrl !== undefined || Boolean(env.PAYLINK_BASE_URL) || configured.baseUrl !== defaultUrl;
  const adminToken = flags.adminToken ?? (env.PAYLINK_ADMIN_TOKEN || undefined);
  let lastTried = configured.baseUrl;
  /** The folder the sandbox on the default port was started from, when not this one: never taken for ours. */
  let foreign: string | undefined;
  const said = new Set<string>();
  const sayOnce = (text: string) => {
    if (said.has(text)) return;
    said.add(text);
    ui.info(text);
  };
  const done = (url: string, why?: string): WaitResult => {
    const result = { url, waitedMs: Math.round(performance.now() - started) };
    if (ui.options.json) ui.json(result);
    else ui.line(`Sandbox at ${result.url} answers (waited ${result.waitedMs} ms)${why === undefined ? '' : `: ${why}`}.`);
    return result;
  };
  for (let round = 0; ; round++) {
    const left = limitMs - (performance.now() - started);
    if (left <= 0) break;
    if (explicit) {
      if (await answers({ baseUrl: configured.baseUrl, ca: configured.ca, adminToken }, Math.min(2000, Math.max(left, 50)))) return done(configured.baseUrl);
    } else {
      // The sandbox started from this folder (or above), once it has written its entry and answers as the
      // sandbox that entry records; until then nothing, never another project's sandbox.
      const discovery = await discoverSandbox(cwd);
      for (const why of discovery.ignored ?? []) sayOnce(`Ignored a sandbox entry that is not yours to trust: ${why}.`);
      if (discovery.kind === 'found') return done(discovery.entry.listen);
      if (discovery.kind === 'ambiguous') sandboxOf(discovery, cwd);
      if (discovery.kind === 'gone') lastTried = discovery.stale.map((e) => e.listen).join(', ') || 'nothing yet';
      if (discovery.kind === 'none') {
        lastTried = defaultUrl;
        const origin = startedFrom(defaultUrl);
        if (origin !== undefined && !isFolderOrAbove(origin, cwd)) {
          foreign = origin;
          sayOnce(
            `The sandbox at ${defaultUrl} was started from ${origin}, not from this folder: waiting for the one started here (pass --base-url ${defaultUrl} to use that one).`,
          );
        } else if (await answers({ baseUrl: defaultUrl, adminToken }, Math.min(2000, Math.max(left, 50)))) {
          return done(defaultUrl, 'nothing was started from this folder, so the default address');
        }
      }
    }
    if (round === 0)
      sayOnce(`Waiting for ${explicit ? `the sandbox at ${configured.baseUrl}` : 'the sandbox started from this folder'} (up to ${formatMs(limitMs)})...`);
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, limitMs - (performance.now() - started)))));
  }
  const seconds = formatMs(limitMs);
  throw new UnreachableError(
    explicit
      ? `No sandbox answered at ${configured.baseUrl} within ${seconds}. Is it starting (paylink sandbox), and on that address?`
      : foreign !== undefined
        ? `No sandbox started from this folder answered within ${seconds}. The one at ${defaultUrl} was started from ${foreign}: pass --base-url ${defaultUrl} to use it, or start one here with \`paylink sandbox\`.`
        : `No sandbox answered within ${seconds} (last tried ${lastTried}). Start one from this folder with \`paylink sandbox\`, or pass --base-url <url>.`,
  );
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
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

/** `paylink wait`: reads the program's flags (`--base-url`, `--timeout`) and `--admin-token`. */
export const waitCommand: Run<typeof spec> = (_args, _flags, ctx) => runWait(ctx.ui, ctx.flags, ctx.env);
