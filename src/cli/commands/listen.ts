/**
 * `paylink listen --forward-to <url>`: follows the sandbox's events over the admin API (long polling on
 * `/__sandbox/events/stream`) and forwards each, with its exact body and the sandbox's signature, to a
 * local URL, printing one line per delivery. Works against a sandbox on another host (`--base-url` and the
 * admin token), which is how a shared sandbox reaches an app on a laptop. Faults on request, applied here.
 */
import type { Run } from '../command-spec.js';
import type { listen as spec } from './listen.spec.js';
import { parseDelay, parseEventTypes, parseFaults } from './webhooks.js';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminOk, type AdminConnection } from '../client.js';
import { ApiResponseError, UnreachableError, UsageError } from '../errors.js';
import { httpRequest, type Transport } from '../http.js';
import type { Ui } from '../ui.js';
import { logTime } from '../log-lines.js';
import { DEFAULT_EVENT_TYPES, tamperBody } from '../../sandbox/domain/events.js';
import { parseClockStep } from '../../sandbox/domain/clock.js';
import { maskUrlPasswords } from '../../sandbox/domain/mask.js';
import { DELIVERY_MARK_HEADER } from '../../sandbox/domain/own-address.js';

/** One event of the stream, as the sandbox sends it. */
export interface StreamEvent {
  seq: number;
  id: string;
  type: string;
  businessId: string;
  paymentId: string;
  createdAt: number;
  /** The exact body, to forward byte for byte. */
  body: string;
  /** The event signature (HS256 JWT) made with the sandbox's webhook secret. */
  signature: string;
  hookId: string;
}

interface StreamPage {
  events: StreamEvent[];
  lastSeq: number;
  header: string;
}

/** What `listen` printed for one forwarded delivery (one JSON line with `--json`). */
export interface ForwardResult {
  event: string;
  type: string;
  /** When the sandbox made the event, on its clock (ISO 8601): what `--since <time>` compares. */
  createdAt: string;
  paymentId: string;
  status: number | null;
  latencyMs: number;
  error?: string;
  fault?: string;
  /** Set when the app accepted a delivery it had to refuse (bad signature, changed body). */
  finding?: string;
  /** 1 for the first attempt of this forward. */
  attempt?: number;
  /** This attempt failed; the next comes after this many ms. */
  retryInMs?: number;
  /** This attempt failed and was the last: listen moved on (`--since <event>` replays it). */
  gaveUp?: boolean;
}

export interface ListenOptions {
  /** Where to forward each event: the merchant app's webhook route. */
  forwardTo: string;
  /** Only these event types. */
  events?: string[] | undefined;
  /** Only events of this business. */
  businessId?: string | undefined;
  /** `duplicate`, `out-of-order`, `bad-signature`, `tampered-body`. */
  faults?: string[] | undefined;
  /** Hold each event this long before forwarding it. */
  delayMs?: number | undefined;
  /** The signature header name; default the sandbox's. */
  header?: string | undefined;
  /** Ends listening (Ctrl-C in the CLI). */
  signal?: AbortSignal | undefined;
  /** Seconds each poll waits on the sandbox. @default 25 */
  waitSeconds?: number | undefined;
  /** Sends the forwarded requests (tests). @default the CLI's transport */
  fetch?: Transport | undefined;
  /** Replay from here: an event id (that event and every later one) or a time (`10m`, an ISO date-time). */
  since?: string | undefined;
  /** Keep the cursor in `.paylink/listen/` under this folder (the CLI: the working directory); none without. */
  cursorDir?: string | undefined;
  /** Waits between attempts of a failed forward. @default FORWARD_RETRY_MS */
  retryMs?: readonly number[] | undefined;
  /** Called once the first poll is in place (tests). */
  onReady?: (() => void) | undefined;
}

const FORWARD_TIMEOUT_MS = 10_000;

function checkForwardUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--forward-to: expected an absolute http(s) URL such as http://localhost:3000/webhooks, got "${url}".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--forward-to: only http and https URLs, got "${url}".`);
  return parsed.href;
}

/** A signature no one holding the secret accepts: its last characters changed. */
function spoil(signature: string): string {
  const dot = signature.lastIndexOf('.');
  const tail = signature.slice(dot + 1);
  return `${signature.slice(0, dot + 1)}${tail.slice(0, -4)}${tail.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
}

async function forward(
  transport: Transport,
  url: string,
  header: string,
  event: StreamEvent,
  body: string,
  signature: string,
  signal?: AbortSignal,
): Promise<{ status: number | null; latencyMs: number; error?: string }> {
  const started = performance.now();
  try {
    const timeout = AbortSignal.timeout(FORWARD_TIMEOUT_MS);
    const answer = await transport(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'paylink-listen/1',
        [DELIVERY_MARK_HEADER]: 'listen',
        [header]: signature,
        'x-paylink-event-id': event.id,
        'x-paylink-event-type': event.type,
      },
      body,
      redirect: 'manual',
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    await answer.text().catch(() => '');
    return { status: answer.status, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    return {
      status: null,
      latencyMs: Math.round(performance.now() - started),
      error: e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.code ?? e.message ?? String(error)),
    };
  }
}

function print(ui: Ui, r: ForwardResult): void {
  if (ui.options.json) {
    ui.streams.stdout.write(`${JSON.stringify(r)}\n`);
    return;
  }
  const status =
    r.status === null ? ui.color.red(r.error ?? 'no answer') : r.status < 300 ? ui.color.green(String(r.status)) : ui.color.yellow(String(r.status));
  const attempt = r.attempt !== undefined && (r.attempt > 1 || r.retryInMs !== undefined || r.gaveUp) ? `  attempt ${r.attempt}` : '';
  const next =
    r.retryInMs !== undefined
      ? ui.color.yellow(`, retrying in ${r.retryInMs} ms`)
      : r.gaveUp
        ? ui.color.red(`, gave up: moving on (replay it with --since ${r.event})`)
        : '';
  ui.line(
    `${ui.color.dim(logTime(r.createdAt))} ${r.type.padEnd(18)} ${r.event}  payment ${r.paymentId}  -> ${status} ${ui.color.dim(`${r.latencyMs} ms`)}${r.fault ? `  [${r.fault}]` : ''}${attempt}${next}`,
  );
  if (r.finding) ui.line(ui.color.red(`  ${r.finding}`));
}

/** Waits before the 2nd, 3rd... attempt of a forward that failed; after the last, listen moves on. */
export const FORWARD_RETRY_MS: readonly number[] = [250, 500, 1000, 2000, 4000, 8000];
/** Waits between attempts to reach a sandbox that went away; the last repeats. */
const RECONNECT_MS: readonly number[] = [250, 500, 1000, 2000, 5000];

const ok = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * Forwards one event as the faults say, retrying a failed forward (refused, timeout, non-2xx) on
 * {@link ListenOptions.retryMs}; answers one result per attempt, each printed.
 */
async function deliver(ui: Ui, transport: Transport, options: ListenOptions, url: string, header: string, event: StreamEvent): Promise<ForwardResult[]> {
  const faults = new Set(options.faults ?? []);
  let body = event.body;
  let signature = event.signature;
  let fault: string | undefined;
  if (faults.has('tampered-body')) {
    body = tamperBody(event.body);
    fault = 'tampered-body';
  } else if (faults.has('bad-signature')) {
    signature = spoil(event.signature);
    fault = 'bad-signature';
  }
  const schedule = options.retryMs ?? FORWARD_RETRY_MS;
  const results: ForwardResult[] = [];
  const copies = faults.has('duplicate') && fault === undefined ? 2 : 1;
  for (let i = 0; i < copies; i++) {
    for (let attempt = 1; ; attempt++) {
      const answer = await forward(transport, url, header, event, body, signature, options.signal);
      const r: ForwardResult = {
        event: event.id,
        type: event.type,
        createdAt: new Date(event.createdAt).toISOString(),
        paymentId: event.paymentId,
        status: answer.status,
        latencyMs: answer.latencyMs,
        attempt,
      };
      if (answer.error !== undefined) r.error = answer.error;
      if (fault !== undefined || i > 0) r.fault = fault ?? 'duplicate';
      if (fault !== undefined && ok(answer.status)) {
        r.finding = `FINDING: ${maskUrlPasswords(url)} answered ${answer.status} to an event with ${fault === 'tampered-body' ? 'a changed body' : 'a bad signature'}; it must verify the signature and the body's crc32 and refuse it`;
      }
      // A probe's refusal is the right answer; otherwise a failure is retried on the schedule.
      const retry = !ok(answer.status) && !(fault !== undefined && answer.status !== null) && !options.signal?.aborted;
      if (retry) {
        if (attempt <= schedule.length) r.retryInMs = schedule[attempt - 1]!;
        else r.gaveUp = true;
      }
      print(ui, r);
      results.push(r);
      if (!retry || r.gaveUp) break;
      try {
        await sleep(r.retryInMs!, undefined, { signal: options.signal });
      } catch {
        return results;
      }
    }
  }
  return results;
}

/** Where listen is in the sandbox's events: the last event forwarded (or given up) and the stream position. */
export interface ListenCursor {
  /** The last event forwarded or given up; absent when none was yet. */
  eventId?: string | undefined;
  /** The stream position (`lastSeq`) after it. */
  seq: number;
  /** The sandbox it was read from. */
  baseUrl: string;
  /** The forward target (its password masked). */
  forwardTo: string;
  /** When it was written (ISO). */
  at: string;
}

/** The file keeping the cursor of `forwardTo`: `.paylink/listen/<hash>.json` under `dir`. */
export function cursorPath(dir: string, forwardTo: string): string {
  return join(dir, '.paylink', 'listen', `${createHash('sha256').update(forwardTo).digest('hex').slice(0, 16)}.json`);
}

function readCursor(path: string): ListenCursor | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ListenCursor>;
    if (typeof value.seq !== 'number' || typeof value.baseUrl !== 'string') return undefined;
    return value as ListenCursor;
  } catch {
    return undefined;
  }
}

function writeCursor(path: string, cursor: ListenCursor): void {
  mkdirSync(dirname(path), { recursive: true });
  // Written whole, then renamed over the old one: a crash leaves the old cursor or the new one.
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(cursor)}\n`);
  renameSync(temp, path);
}

function isUnreachable(error: unknown): boolean {
  return error instanceof UnreachableError;
}

/**
 * Forwards every event after the starting point until `signal` aborts; resolves with one result per
 * attempt. At least once and in order: an event is done when forwarded (2xx) or given up after
 * {@link FORWARD_RETRY_MS}; the cursor moves only then. When the sandbox goes away listen says so on one
 * line, tries again with backoff, and resumes from its cursor (docs/webhooks.md, "`paylink listen`").
 */
export async function listen(conn: AdminConnection, ui: Ui, options: ListenOptions): Promise<ForwardResult[]> {
  // listen's own requests to the sandbox carry its request mark (docs/advisor.md).
  conn = { ...conn, client: 'listen' };
  const url = checkForwardUrl(options.forwardTo);
  const transport = options.fetch ?? conn.fetch ?? httpRequest;
  const wait = options.waitSeconds ?? 25;
  const base = new URLSearchParams();
  if (options.businessId) base.set('businessId', options.businessId);
  // Tokenization events only when asked for by name, as for a webhook endpoint: a handler built on the
  // provider's SDKs cannot read their payload (docs/webhooks.md).
  const types = options.events ?? [...DEFAULT_EVENT_TYPES];
  // The stream filters by one type; more than one is filtered here.
  if (types.length === 1) base.set('type', types[0]!);
  const file = options.cursorDir !== undefined ? cursorPath(options.cursorDir, url) : undefined;
  const baseUrl = conn.baseUrl.replace(/\/+$/, '');
  const shown = maskUrlPasswords(url);
  const note = (text: string) => (ui.options.json ? ui.streams.stderr.write(`${text}\n`) : ui.info(text));

  let cursor: ListenCursor | undefined;
  if (options.since === undefined && file !== undefined) {
    const saved = readCursor(file);
    if (saved !== undefined && saved.baseUrl === baseUrl) cursor = saved;
    else if (saved !== undefined) note(`The saved cursor for ${shown} was of ${saved.baseUrl}; starting from now at ${baseUrl}.`);
  }
  const save = (seq: number, eventId: string | undefined) => {
    cursor = { eventId: eventId ?? cursor?.eventId, seq, baseUrl, forwardTo: shown, at: new Date().toISOString() };
    if (file !== undefined) writeCursor(file, cursor);
  };

  /** The stream position to read after, decided at each (re)connection; answers the signature header too. */
  const connect = async (firstTime: boolean): Promise<{ since: number; header: string }> => {
    const now = (await adminOk<{ body: StreamPage }>(conn, 'GET', `/__sandbox/events/stream?${base}`)).body;
    const header = options.header ?? now.header;
    if (firstTime && options.since !== undefined) {
      const since = options.since.trim();
      const byTime = /^\d{4}-\d{2}-\d{2}/.test(since) || parseClockStep(since) !== undefined;
      if (byTime) {
        const params = new URLSearchParams(base);
        params.set('from', since);
        const page = (await adminOk<{ body: StreamPage & { fromSeq: number } }>(conn, 'GET', `/__sandbox/events/stream?${params}`)).body;
        return { since: page.fromSeq, header };
      }
      const found = await adminOk<{ body: { event: { seq: number } } }>(conn, 'GET', `/__sandbox/events/${encodeURIComponent(since)}`).catch(
        (error: unknown) => {
          if (error instanceof ApiResponseError && error.status === 404)
            throw new UsageError(
              `--since: the sandbox has no event ${since}; give an event id it lists (paylink events list) or a time such as 10m or 2030-01-01T12:00:00Z.`,
            );
          throw error;
        },
      );
      return { since: found.body.event.seq - 1, header };
    }
    if (cursor === undefined) return { since: now.lastSeq, header };
    if (cursor.eventId !== undefined) {
      const known = await adminOk<{ body: { event: { seq: number } } }>(conn, 'GET', `/__sandbox/events/${encodeURIComponent(cursor.eventId)}`).catch(
        (error: unknown) => {
          if (error instanceof ApiResponseError && error.status === 404) return undefined;
          throw error;
        },
      );
      if (known !== undefined) return { since: Math.max(known.body.event.seq, cursor.seq), header };
    }
    // The sandbox does not know the cursor's event: a snapshot restore or a reset removed it (sequence
    // numbers go on: what comes after the cursor's position is new), or this is another database (its
    // events stop below the position: all it has is new to this target).
    const since = now.lastSeq >= cursor.seq ? cursor.seq : 0;
    if (cursor.eventId !== undefined) {
      note(
        since === cursor.seq
          ? `The sandbox no longer knows event ${cursor.eventId} (a snapshot restore or reset?); forwarding what came after position ${cursor.seq}.`
          : `The sandbox no longer knows event ${cursor.eventId} and has fewer events than the cursor's position ${cursor.seq} (another database?); forwarding every event it has.`,
      );
    }
    return { since, header };
  };

  const results: ForwardResult[] = [];
  let ready = false;
  let firstTime = true;
  let down: string | undefined;
  let failures = 0;
  while (!options.signal?.aborted) {
    let position: { since: number; header: string };
    try {
      position = await connect(firstTime);
    } catch (error) {
      if (options.signal?.aborted) break;
      if (!isUnreachable(error) || firstTime) throw error;
      await sleep(RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]!, undefined, { signal: options.signal }).catch(() => undefined);
      continue;
    }
    if (down !== undefined) {
      note(`Sandbox at ${baseUrl} is back; resuming after ${cursor?.eventId !== undefined ? `event ${cursor.eventId}` : `position ${position.since}`}.`);
      down = undefined;
    }
    failures = 0;
    const header = position.header;
    let since = position.since;
    if (firstTime) {
      firstTime = false;
      if (!ui.options.json) {
        ui.info(
          `Forwarding ${types.length > 0 ? types.join(', ') : 'every'} event${options.businessId ? ` of ${options.businessId}` : ''} to ${shown} (signature in ${header})${(options.faults ?? []).length > 0 || options.delayMs ? `, faults: ${[...(options.faults ?? []), ...(options.delayMs ? [`delay ${options.delayMs}ms`] : [])].join(', ')}` : ''}. Ctrl-C to stop.`,
        );
      }
      // The secret the forwarded deliveries are signed with, for the app's verifier (an older sandbox has no route).
      const signing = await adminOk<{ body: { secret: string } }>(conn, 'GET', '/__sandbox/webhooks/secret').catch(() => undefined);
      if (signing !== undefined) note(`Signing secret: ${signing.body.secret} (the sandbox's webhook secret: verify the forwarded deliveries with it).`);
      if (cursor === undefined || options.since !== undefined) save(since, cursor?.eventId);
    }
    try {
      while (!options.signal?.aborted) {
        const params = new URLSearchParams(base);
        params.set('since', String(since));
        params.set('wait', String(wait));
        if (!ready) {
          ready = true;
          queueMicrotask(() => options.onReady?.());
        }
        const page = (
          await adminOk<{ body: StreamPage }>(conn, 'GET', `/__sandbox/events/stream?${params}`, undefined, {
            timeoutMs: (wait + 10) * 1000,
            signal: options.signal,
          })
        ).body;
        let events = page.events;
        let upTo = page.lastSeq;
        if (options.faults?.includes('out-of-order') && events.length > 0) {
          // Hold what arrives within the next second too, then forward the lot newest first.
          for (;;) {
            const more = new URLSearchParams(base);
            more.set('since', String(upTo));
            more.set('wait', '1');
            const next = (
              await adminOk<{ body: StreamPage }>(conn, 'GET', `/__sandbox/events/stream?${more}`, undefined, { signal: options.signal }).catch(() => undefined)
            )?.body;
            if (next === undefined || next.events.length === 0) break;
            events = [...events, ...next.events];
            upTo = next.lastSeq;
          }
          events = [...events].reverse();
        }
        const inOrder = !options.faults?.includes('out-of-order');
        for (const event of events) {
          if (options.signal?.aborted) break;
          if (types.length > 1 && !types.includes(event.type)) continue;
          if (options.delayMs) {
            try {
              await sleep(options.delayMs, undefined, { signal: options.signal });
            } catch {
              break;
            }
          }
          results.push(...(await deliver(ui, transport, options, url, header, event)));
          if (options.signal?.aborted) break;
          if (inOrder) save(event.seq, event.id);
        }
        if (options.signal?.aborted) break;
        since = upTo;
        const last = events.length > 0 ? (inOrder ? events.at(-1)! : events[0]!) : undefined;
        save(upTo, last?.id);
      }
    } catch (error) {
      if (options.signal?.aborted) break;
      if (!isUnreachable(error)) throw error;
      const message = (error as Error).message;
      down = /\(([^)]{1,80})\)/.exec(message)?.[1] ?? message.slice(0, 80);
      note(
        `Sandbox at ${baseUrl} went away (${down}); reconnecting with backoff, resuming after ${cursor?.eventId !== undefined ? `event ${cursor.eventId}` : `position ${cursor?.seq ?? since}`}.`,
      );
    }
  }
  return results;
}

/** `paylink listen` as the CLI runs it: Ctrl-C stops it cleanly (exit 0). */
export async function listenUntilInterrupted(conn: AdminConnection, ui: Ui, options: Omit<ListenOptions, 'signal'>): Promise<ForwardResult[]> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const results = await listen(conn, ui, { ...options, signal: controller.signal });
    const forwarded = results.filter((r) => ok(r.status)).length;
    const gaveUp = results.filter((r) => r.gaveUp).length;
    const findings = results.filter((r) => r.finding).length;
    if (!ui.options.json) {
      ui.info(
        `Stopped after ${forwarded} deliver${forwarded === 1 ? 'y' : 'ies'}${gaveUp > 0 ? `, ${gaveUp} given up` : ''}${findings > 0 ? `, ${findings} FINDING(S)` : ''}.`,
      );
    }
    return results;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** `paylink listen`, until Ctrl-C; the cursor is kept under the current folder. */
export const listenCommand: Run<typeof spec> = (_args, flags, ctx) =>
  listenUntilInterrupted(ctx.admin, ctx.ui, {
    forwardTo: flags.forwardTo,
    events: parseEventTypes(flags.events),
    // `--business`, else a business id given at all (--business-id, PAYLINK_BUSINESS_ID, the config
    // file) scopes it as the other commands are scoped; with none, every business's events.
    businessId: flags.business ?? (ctx.connection.sources?.businessId === 'default' ? undefined : ctx.connection.businessId),
    faults: parseFaults(flags.fault),
    delayMs: parseDelay(flags.delay),
    header: flags.header,
    since: flags.since,
    cursorDir: process.cwd(),
  });
