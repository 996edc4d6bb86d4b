/**
 * `paylink open <id>`: opens the page of an id in the default browser, or prints its URL where no browser
 * can be opened (no display, CI, `--print`, or a launcher that fails): a link's or checkout's hosted page;
 * a payment's page the customer is waiting on (its card form, bank, wallet or 3-D Secure page), else its
 * dashboard page; a token's dashboard page. `paylink open dashboard` does the same for the dashboard.
 */
import type { ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import type { open as spec } from './open.spec.js';
import { resolveKind } from '../client.js';
import { findResource, type ResourceKind } from '../customer.js';
import { ApiResponseError, type ErrorEnvelope } from '../errors.js';
import { pathOfId } from '../../sandbox/domain/routes.js';

export interface OpenResult {
  kind: ResourceKind | 'payment' | 'credit' | 'token' | 'dashboard';
  /** The id; absent for the dashboard. */
  id?: string | undefined;
  /**
   * Which page: `hosted` (a link's or checkout's), `customer` (the page a pending payment waits on: card
   * form, bank, wallet or 3-D Secure), `dashboard` (the id's page in the dashboard); absent for the dashboard itself.
   */
  page?: 'hosted' | 'customer' | 'dashboard' | undefined;
  url: string;
  opened: boolean;
  /** Why no browser was opened, when one was tried and failed (`xdg-open exited with code 3`). */
  reason?: string | undefined;
}

/** Opens `url` in a browser; rejects with the reason when that could not be done. */
export type Opener = (url: string) => Promise<unknown>;

/** True when a browser can plausibly be opened: a desktop session, not CI. */
export function canOpenBrowser(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return false;
  if (platform === 'linux') return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY || env.WSL_DISTRO_NAME);
  return true;
}

/** How long a launcher (xdg-open, open, start) has to fail before the browser counts as opened. */
const LAUNCH_WINDOW_MS = 2000;

/**
 * The default opener: the `open` package, then a short wait on its launcher. A launcher answers in tens of
 * milliseconds; xdg-open exits 3 or 4 when it finds no browser, which `open` alone does not report (it
 * resolves once the launcher has started), so "Opened" was printed where nothing opened.
 */
export async function launchBrowser(url: string): Promise<void> {
  // On Linux, the system's xdg-open: the copy bundled with `open` exits 0 whatever the browser did (a
  // Chromium that refuses to run as root included), so "opened": true was reported where nothing opened.
  const xdgOpen = process.platform === 'linux' ? onPath('xdg-open') : undefined;
  if (xdgOpen !== undefined) return launchWith(xdgOpen, url);
  const { default: open } = await import('open');
  const child: ChildProcess = await open(url, { wait: false });
  const code = await launchOutcome(child);
  if (code !== 'running' && code !== 0) throw new Error(`${child.spawnfile.split('/').pop()} exited with code ${code ?? 'unknown'}`);
}

/** How a launcher ended within {@link LAUNCH_WINDOW_MS}: its exit code, null when it could not start, or still running. */
function launchOutcome(child: ChildProcess): Promise<number | null | 'running'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('running'), LAUNCH_WINDOW_MS);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
    child.once('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
  });
}

/** The absolute path of an executable `name` on PATH, if any. */
function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Runs `launcher url` detached, and fails with its exit code and the last line it (or the browser it ran)
 * wrote on stderr when it ends non-zero within {@link LAUNCH_WINDOW_MS}. Its stderr goes to a file, not a
 * pipe, so a browser that keeps running after the CLI has gone never writes to a closed pipe.
 */
async function launchWith(launcher: string, url: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const log = join(tmpdir(), `paylink-open-${process.pid}-${Date.now()}.log`);
  const fd = openSync(log, 'w');
  let child: ChildProcess;
  try {
    child = spawn(launcher, [url], { detached: true, stdio: ['ignore', 'ignore', fd] });
  } finally {
    closeSync(fd);
  }
  const code = await launchOutcome(child);
  child.unref();
  let said = '';
  try {
    said = readFileSync(log, 'utf8');
  } finally {
    rmSync(log, { force: true });
  }
  if (code === 'running' || code === 0) return;
  // Chromium's log lines start with "[pid:tid:date:ERROR:file:line] ": keep the sentence.
  const why = said
    .split('\n')
    .map((line) =>
      line
        .replace(/^\[[^\]]*\]\s*/, '')
        .trim()
        .replace(/\.$/, ''),
    )
    .filter(Boolean)
    .pop();
  throw new Error(`${launcher.split('/').pop()} exited with code ${code ?? 'unknown'}${why ? `: ${why.slice(0, 200)}` : ''}`);
}

/** `paylink open <id>` and `paylink open dashboard`. */
export async function openPage({ id }: Args<typeof spec>, flags: Options<typeof spec>, ctx: CommandContext, opener?: Opener): Promise<OpenResult> {
  let kind: OpenResult['kind'];
  let url: string;
  let page: OpenResult['page'];
  const token = ctx.admin.adminToken;
  const withToken = (path: string) => `${ctx.connection.baseUrl}${path}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  if (id === 'dashboard') {
    kind = 'dashboard';
    page = 'dashboard';
    url = withToken('/');
  } else {
    const resolved = await ctx.ui.spin(`Looking up ${id}`, () => resolveKind(ctx.admin, id, ctx.client.businessId));
    if (resolved === 'payment' || resolved === 'credit') {
      kind = resolved;
      // A pending payment's answer names the page the customer is waiting on (`body.redirect`).
      const answer = await ctx.client.get(pathOfId(resolved === 'payment' ? 'payments.get' : 'credits.get', id));
      if (answer.status !== 200) throw ApiResponseError.fromEnvelope(answer.status, answer.body as ErrorEnvelope, `${resolved} ${id}`);
      const waiting: unknown = (answer.body as { body?: { redirect?: { url?: unknown } } } | undefined)?.body?.redirect?.url;
      if (typeof waiting === 'string' && /^https?:\/\//i.test(waiting)) {
        page = 'customer';
        url = waiting;
      } else {
        page = 'dashboard';
        url = withToken(pathOfId('dashboard.payment', id));
      }
    } else if (resolved === 'token') {
      kind = 'token';
      page = 'dashboard';
      url = withToken(pathOfId('dashboard.token', id));
    } else {
      const found = await ctx.ui.spin(`Looking up ${id}`, () => findResource(ctx.client, id, resolved ?? undefined, ctx.admin));
      kind = found.kind;
      page = 'hosted';
      const resource = kind === 'link' ? found.response.body?.body?.link : found.response.body?.body?.checkout;
      const pageUrl: string | undefined = resource?.redirect?.url;
      if (!pageUrl) throw new ApiResponseError(`The ${kind} ${id} has no redirect.url.`, found.response.status, found.response.body);
      url = pageUrl;
    }
  }
  let opened = false;
  let reason: string | undefined;
  if (!flags.print) {
    if (opener || canOpenBrowser(ctx.env)) {
      try {
        await (opener ?? launchBrowser)(url);
        opened = true;
      } catch (error) {
        reason = (error as Error).message;
      }
    } else reason = 'no display (DISPLAY unset) or CI';
  }
  // The dashboard itself needs no page name: `open dashboard --json` answers as it always did.
  const result: OpenResult = { kind, ...(kind === 'dashboard' ? {} : { id, page }), url, opened, ...(reason ? { reason } : {}) };
  const what =
    kind === 'dashboard'
      ? 'the dashboard'
      : page === 'hosted'
        ? `the hosted page of ${kind} ${id}`
        : page === 'customer'
          ? `the page ${kind} ${id} is waiting on`
          : `the dashboard page of ${kind} ${id}`;
  if (ctx.ui.options.json) ctx.ui.json(result);
  else {
    if (opened) ctx.ui.info(`Opened ${what} in your browser:`);
    else if (!flags.print) ctx.ui.warn(`No browser could be opened (${reason}). Open ${what} yourself:`);
    ctx.ui.line(url);
  }
  return result;
}
