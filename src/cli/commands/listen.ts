/**
 * `paylink listen --forward-to <url>`: follows the sandbox's events over the admin API (long polling on
 * `/__sandbox/events/stream`) and forwards each, with its exact body and the sandbox's signature, to a
 * local URL, printing one line per delivery. Works against a sandbox on another host (`--base-url` and the
 * admin token), which is how a shared sandbox reaches an app on a laptop. Faults on request, applied here.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { adminOk, type AdminConnection } from '../client.js';
import { UsageError } from '../errors.js';
import { httpRequest, type Transport } from '../http.js';
import type { Ui } from '../ui.js';
import { tamperBody } from '../../sandbox/domain/events.js';
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
  paymentId: string;
  status: number | null;
  latencyMs: number;
  error?: string;
  fault?: string;
  /** Set when the app accepted a delivery it had to refuse (bad signature, changed body). */
  finding?: string;
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

async function forward(transport: Transport, url: string, header: string, event: StreamEvent, body: string, signature: string, signal?: AbortSignal): Promise<{ status: number | null; latencyMs: number; error?: string }> {
  const started = performance.now();
  try {
    const timeout = AbortSignal.timeout(FORWARD_TIMEOUT_MS);
    const answer = await transport(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'paylink-listen/1', [DELIVERY_MARK_HEADER]: 'listen', [header]: signature, 'x-paylink-event-id': event.id, 'x-paylink-event-type': event.type },
      body,
      redirect: 'manual',
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    await answer.text().catch(() => '');
    return { status: answer.status, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    return { status: null, latencyMs: Math.round(performance.now() - started), error: e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.code ?? e.message ?? String(error)) };
  }
}

function print(ui: Ui, r: ForwardResult): void {
  if (ui.options.json) {
    ui.streams.stdout.write(`${JSON.stringify(r)}\n`);
    return;
  }
  const status = r.status === null ? ui.color.red(r.error ?? 'no answer') : r.status < 300 ? ui.color.green(String(r.status)) : ui.color.yellow(String(r.status));
  ui.line(`${ui.color.dim(new Date().toISOString().slice(11, 23))} ${r.type.padEnd(18)} ${r.event}  payment ${r.paymentId}  -> ${status} ${ui.color.dim(`${r.latencyMs} ms`)}${r.fault ? `  [${r.fault}]` : ''}`);
  if (r.finding) ui.line(ui.color.red(`  ${r.finding}`));
}

/** Forwards one event as the faults say; answers what was printed for it. */
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
  const results: ForwardResult[] = [];
  const copies = faults.has('duplicate') && fault === undefined ? 2 : 1;
  for (let i = 0; i < copies; i++) {
    const answer = await forward(transport, url, header, event, body, signature, options.signal);
    const r: ForwardResult = { event: event.id, type: event.type, paymentId: event.paymentId, status: answer.status, latencyMs: answer.latencyMs };
    if (answer.error !== undefined) r.error = answer.error;
    if (fault !== undefined || i > 0) r.fault = fault ?? 'duplicate';
    if (fault !== undefined && answer.status !== null && answer.status >= 200 && answer.status < 300) {
      r.finding = `FINDING: ${maskUrlPasswords(url)} answered ${answer.status} to an event with ${fault === 'tampered-body' ? 'a changed body' : 'a bad signature'}; it must verify the signature and the body's crc32 and refuse it`;
    }
    print(ui, r);
    results.push(r);
  }
  return results;
}

/**
 * Forwards every new event until `signal` aborts; resolves with what was forwarded. Events of one poll
 * are forwarded in order (newest first with `out-of-order`).
 */
export async function listen(conn: AdminConnection, ui: Ui, options: ListenOptions): Promise<ForwardResult[]> {
  // listen's own requests to the sandbox carry its request mark (docs/advisor.md).
  conn = { ...conn, client: 'listen' };
  const url = checkForwardUrl(options.forwardTo);
  const transport = options.fetch ?? conn.fetch ?? httpRequest;
  const wait = options.waitSeconds ?? 25;
  const base = new URLSearchParams();
  if (options.businessId) base.set('businessId', options.businessId);
  const types = options.events ?? [];
  // The stream filters by one type; more than one is filtered here.
  if (types.length === 1) base.set('type', types[0]!);
  const first = await adminOk<{ body: StreamPage }>(conn, 'GET', `/__sandbox/events/stream?${base}`);
  let since = first.body.lastSeq;
  const header = options.header ?? first.body.header;
  if (!ui.options.json) {
    ui.info(`Forwarding ${types.length > 0 ? types.join(', ') : 'every'} event${options.businessId ? ` of ${options.businessId}` : ''} to ${maskUrlPasswords(url)} (signature in ${header})${(options.faults ?? []).length > 0 || options.delayMs ? `, faults: ${[...(options.faults ?? []), ...(options.delayMs ? [`delay ${options.delayMs}ms`] : [])].join(', ')}` : ''}. Ctrl-C to stop.`);
  }
  const results: ForwardResult[] = [];
  let ready = false;
  while (!options.signal?.aborted) {
    let page: StreamPage;
    try {
      const params = new URLSearchParams(base);
      params.set('since', String(since));
      params.set('wait', String(wait));
      if (!ready) {
        ready = true;
        queueMicrotask(() => options.onReady?.());
      }
      page = (await adminOk<{ body: StreamPage }>(conn, 'GET', `/__sandbox/events/stream?${params}`, undefined, { timeoutMs: (wait + 10) * 1000, signal: options.signal })).body;
    } catch (error) {
      if (options.signal?.aborted) break;
      throw error;
    }
    since = page.lastSeq;
    let events = page.events;
    if (options.faults?.includes('out-of-order') && events.length > 0) {
      // Hold what arrives within the next second too, then forward the lot newest first.
      for (;;) {
        const params = new URLSearchParams(base);
        params.set('since', String(since));
        params.set('wait', '1');
        const more = (await adminOk<{ body: StreamPage }>(conn, 'GET', `/__sandbox/events/stream?${params}`, undefined, { signal: options.signal }).catch(() => undefined))?.body;
        if (more === undefined || more.events.length === 0) break;
        events = [...events, ...more.events];
        since = more.lastSeq;
      }
      events = [...events].reverse();
    }
    if (types.length > 1) events = events.filter((e) => types.includes(e.type));
    for (const event of events) {
      if (options.signal?.aborted) break;
      if (options.delayMs) {
        try {
          await sleep(options.delayMs, undefined, { signal: options.signal });
        } catch {
          break;
        }
      }
      results.push(...(await deliver(ui, transport, options, url, header, event)));
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
    const findings = results.filter((r) => r.finding).length;
    if (!ui.options.json) ui.info(`Stopped after ${results.length} deliver${results.length === 1 ? 'y' : 'ies'}${findings > 0 ? `, ${findings} FINDING(S)` : ''}.`);
    return results;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
