/**
 * The webhook worker: sends committed deliveries in the sandbox process, one payment's events in order per
 * destination, retrying on a non-2xx answer, a refused connection or a timeout along the retry schedule,
 * and records every attempt. At least once: a delivery is marked done only after its answer is committed,
 * so one sent just before a crash is sent again after the restart, which resumes every pending delivery.
 */
import { setMaxListeners } from 'node:events';
import { request as httpRequest } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isProbe, retryDelay, tamperBody, type RetrySchedule } from '../domain/events.js';
import { maskUrlPasswords } from '../domain/mask.js';
import { DELIVERY_MARK_HEADER, ownTargetReason, type OwnAddress } from '../domain/own-address.js';
import { realTimers, type TimerHandle, type Timers } from '../domain/timers.js';
import { forgeSignature, signEvent } from '../domain/webhook-signature.js';
import type { Store } from '../store/group-commit.js';
import type { AttemptRecord, DeliveryRow, DueRef, EventRepository, EventRow } from '../store/events.js';
import type { EventService } from './events.js';

export interface DeliveryOptions {
  /** Waits between attempts (domain/events.ts STANDARD_RETRY_SCHEDULE or FAST_RETRY_SCHEDULE). */
  schedule: RetrySchedule;
  /** Milliseconds an attempt may take before it counts as a timeout. */
  timeoutMs: number;
  /** The request header carrying the signature. */
  header: string;
  /**
   * Deliveries in flight at once, in all.
   * @default 64
   */
  concurrency?: number;
  /**
   * Deliveries in flight at once to one destination (scheme, host and port): a destination that hangs
   * holds at most this many slots.
   * @default 8
   */
  perDestination?: number;
  /** Where the sandbox itself is reached: deliveries there are not sent (docs/webhooks.md, "Security"). */
  own?: OwnAddressSource;
  /**
   * The waits and wall-clock now of retries, attempt timeouts and wake-ups (tests pass ManualTimers).
   * @default realTimers
   */
  timers?: Timers;
  /** Told of every attempt once it is recorded (the request log shows deliveries beside requests). */
  onAttempt?: (attempt: AttemptRecord, delivery: { url: string; eventId: string; type: string; businessId: string; paymentId: string }) => void;
}

const DEFAULT_CONCURRENCY = 64;
const DEFAULT_PER_DESTINATION = 8;
/** Due deliveries read at a time; pages read per wake, and per deep read (at most every DEEP_SCAN_MS). */
const DUE_PAGE = 256;
const SHALLOW_DUE_PAGES = 2;
const MAX_DUE_PAGES = 64;
const DEEP_SCAN_MS = 200;

/** How much of an answer is kept with its attempt, and read. */
const ANSWER_BYTES = 1024;
/** How long the body of an answer is read after its headers (within the attempt's timeout). */
const ANSWER_READ_MS = 1000;

interface Answer {
  status: number | null;
  error?: string;
  latencyMs: number;
  response?: string;
  /** Set when the delivery was not sent because its URL points at the sandbox itself. */
  own?: string;
}

/** Where the sandbox is reached, looked up at each attempt (a tunnel's URL may come later). */
export type OwnAddressSource = () => OwnAddress;

/** This machine's interface addresses, for {@link OwnAddress.interfaces}. */
export function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

/**
 * The address to connect to for `target`: its IP, or what its name resolves to (every address is checked;
 * the connection goes to the first, so the name cannot resolve elsewhere between check and connection).
 */
async function resolveTarget(
  target: URL,
  own: OwnAddressSource | undefined,
): Promise<{ address: string; family: 4 | 6 } | { own: string } | { error: string }> {
  // The public URL (a tunnel's name resolves elsewhere) is known before any lookup.
  const byOrigin = own === undefined ? undefined : ownTargetReason(target, [], own());
  if (byOrigin !== undefined) return { own: byOrigin };
  const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      // `localhost.` is `localhost`: a fully qualified name's final dot names the same host.
      // Loaded on first use, like node:https below: a sandbox that delivers nothing (most starts) never needs them.
      addresses = await process.getBuiltinModule('node:dns/promises').lookup(host.replace(/\.$/, ''), { all: true });
    } catch (error) {
      return { error: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
    }
    if (addresses.length === 0) return { error: 'ENOTFOUND' };
  }
  if (own !== undefined) {
    const reason = ownTargetReason(
      target,
      addresses.map((a) => a.address),
      own(),
    );
    if (reason !== undefined) return { own: reason };
  }
  return { address: addresses[0]!.address, family: addresses[0]!.family === 6 ? 6 : 4 };
}

/**
 * POSTs `body` to `url` with `headers`; never follows a redirect; resolves with the answer or the network
 * error. With `own`, a URL that reaches the sandbox itself (any spelling of its address) is not sent.
 * The timeout runs on `timers`; the latency recorded is measured (performance.now).
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
  own?: OwnAddressSource,
  timers: Timers = realTimers,
): Promise<Answer> {
  const started = performance.now();
  const waitStarted = timers.now();
  const latency = () => Math.round((performance.now() - started) * 10) / 10;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { status: null, error: 'invalid URL', latencyMs: latency() };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return { status: null, error: 'only http and https URLs are delivered to', latencyMs: latency() };
  const resolved = await resolveTarget(target, own);
  if ('own' in resolved)
    return { status: null, error: `not sent: ${resolved.own}; deliveries never go to the sandbox itself`, own: resolved.own, latencyMs: latency() };
  if ('error' in resolved) return { status: null, error: resolved.error, latencyMs: latency() };
  const pinned = resolved;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<Answer, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      timers.clearTimeout(timer);
      resolve({ ...answer, latencyMs: latency() });
    };
    const send = target.protocol === 'https:' ? process.getBuiltinModule('node:https').request : httpRequest;
    const req = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      signal,
      // The address checked above, whatever the name resolves to now.
      lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
        else callback(null, pinned.address, pinned.family);
      }) as unknown as LookupFunction,
    });
    const timer = timers.setTimeout(
      () => {
        req.destroy();
        finish({ status: null, error: `timed out after ${timeoutMs} ms` });
      },
      Math.max(0, timeoutMs - (timers.now() - waitStarted)),
    );
    req.on('response', (res) => {
      // The status decides; of the body, only the first KB is kept, so no more is read: at most
      // ANSWER_BYTES or ANSWER_READ_MS, then the connection is closed (an endless answer costs nothing).
      const status = res.statusCode ?? null;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        timers.clearTimeout(reading);
        finish({ status, response: Buffer.concat(chunks).subarray(0, ANSWER_BYTES).toString('utf8') });
        if (!res.complete) req.destroy();
      };
      const reading = timers.setTimeout(done, Math.max(0, Math.min(ANSWER_READ_MS, timeoutMs - (timers.now() - waitStarted))));
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= ANSWER_BYTES) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ status: null, error: error.code ?? error.message }));
    req.end(body);
  });
}

/** The headers of one delivery of `event`. */
export function deliveryHeaders(
  header: string,
  signature: string,
  event: Pick<EventRow, 'id' | 'type'>,
  attempt: number,
  deliveryId: number,
): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'paylink-webhooks/1',
    // The mark the sandbox refuses: a delivery that reaches a sandbox anyway (through a tunnel, another
    // sandbox) changes nothing there.
    [DELIVERY_MARK_HEADER]: String(deliveryId),
    [header]: signature,
    'x-paylink-event-id': event.id,
    'x-paylink-event-type': event.type,
    'x-paylink-attempt': String(attempt),
  };
}

export class DeliveryWorker {
  private readonly inFlight = new Set<number>();
  private readonly aborts = new AbortController();
  private timer: TimerHandle | undefined;
  private scheduled = false;
  private stopped = false;
  private running: Promise<void>[] = [];
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly repo: EventRepository,
    private readonly events: EventService,
    private readonly options: DeliveryOptions,
  ) {
    this.timers = options.timers ?? realTimers;
    // Every attempt in flight (up to `concurrency`) listens on the one signal that stops them all.
    setMaxListeners(0, this.aborts.signal);
  }

  private readonly timers: Timers;

  start(): void {
    this.unsubscribe = this.events.onCommitted(() => this.wake());
    this.wake();
  }

  /**
   * Stops sending: attempts in flight are abandoned unrecorded (their deliveries stay pending and go out
   * after the next start: at least once).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.timers.clearTimeout(this.timer);
    this.timers.clearTimeout(this.deepTimer);
    this.aborts.abort();
    await Promise.allSettled(this.running);
  }

  /** Looks for due deliveries soon (after a commit, an attempt, or when the next retry is due). */
  wake(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /**
   * Starts due deliveries while slots are free: at most `concurrency` in all and `perDestination` per
   * destination (scheme, host and port). Picks per destination: a destination at its share is passed over
   * without reading any of its deliveries, so however large its backlog (a hanging endpoint's), another
   * destination's delivery goes out at the next wake. Destinations take turns at going first; within one,
   * deliveries go in due order, one payment's events one at a time per target.
   */
  private pump(): void {
    if (this.stopped) return;
    let free = (this.options.concurrency ?? DEFAULT_CONCURRENCY) - this.inFlight.size;
    if (free > 0) {
      const share = this.options.perDestination ?? DEFAULT_PER_DESTINATION;
      const busy = new Set(this.flightScope.values());
      const perDestination = new Map<string, number>();
      for (const destination of this.flightDestination.values()) perDestination.set(destination, (perDestination.get(destination) ?? 0) + 1);
      const now = this.timers.now();
      const upTo = this.events.committedSeq;
      // Within a destination, paging past payments waiting on an earlier event: a wake reads a page or two
      // per destination; a deep read (up to MAX_DUE_PAGES) at most every DEEP_SCAN_MS.
      const deep = now - this.lastDeepScan >= DEEP_SCAN_MS;
      if (deep) this.lastDeepScan = now;
      const maxPages = deep ? MAX_DUE_PAGES : SHALLOW_DUE_PAGES;
      let unread = false;
      const destinations = this.repo.pendingDestinations();
      const first = destinations.length === 0 ? 0 : this.turn++ % destinations.length;
      for (let k = 0; k < destinations.length && free > 0; k++) {
        const { destination, firstDueAt } = destinations[(first + k) % destinations.length]!;
        if (firstDueAt > now) continue;
        let room = share - (perDestination.get(destination) ?? 0);
        let after: DueRef | undefined;
        let pages = 0;
        let more = false;
        for (; pages < maxPages && room > 0 && free > 0; pages++) {
          const refs = this.repo.dueRefs(destination, now, upTo, after, DUE_PAGE);
          more = refs.length === DUE_PAGE;
          for (const ref of refs) {
            if (room <= 0 || free <= 0) break;
            if (this.inFlight.has(ref.id)) continue;
            const scope = `${ref.target} ${ref.orderKey}`;
            if (busy.has(scope)) continue;
            let d = this.repo.delivery(ref.id);
            if (d === undefined || d.status !== 'pending') continue;
            if (d.data.faults?.outOfOrder) {
              // Once the first of a payment's events is due (after the hold), the newest pending one goes first.
              d = this.repo.newestPending(d, upTo) ?? d;
            } else if (this.repo.hasEarlierPending(d)) {
              continue;
            }
            busy.add(scope);
            room -= 1;
            free -= 1;
            this.launch(d, scope, destination);
          }
          if (!more) break;
          after = refs.at(-1);
        }
        if (more && room > 0 && free > 0 && pages >= maxPages) unread = true;
      }
      // Rows were left unread with slots free: read deeper soon, even if nothing else wakes the worker.
      if (unread && this.deepTimer === undefined) {
        this.deepTimer = this.timers
          .setTimeout(() => {
            this.deepTimer = undefined;
            this.wake();
          }, DEEP_SCAN_MS)
          .unref();
      }
    }
    this.armTimer();
  }

  private lastDeepScan = 0;
  private deepTimer: TimerHandle | undefined;
  /** Which destination goes first at the next pick. */
  private turn = 0;

  private readonly flightScope = new Map<number, string>();
  private readonly flightDestination = new Map<number, string>();

  private launch(d: DeliveryRow, scope: string, destination: string): void {
    this.inFlight.add(d.id);
    this.flightScope.set(d.id, scope);
    this.flightDestination.set(d.id, destination);
    const run = this.attempt(d)
      .catch((error: unknown) => {
        if (!this.stopped) console.error('paylink: a webhook delivery failed unexpectedly:', error);
      })
      .finally(() => {
        this.inFlight.delete(d.id);
        this.flightScope.delete(d.id);
        this.flightDestination.delete(d.id);
        this.running = this.running.filter((p) => p !== run);
        this.wake();
      });
    this.running.push(run);
  }

  private armTimer(): void {
    // An attempt in flight wakes the worker when it ends; the timer is for retries due later.
    if (this.inFlight.size > 0 && this.timer !== undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped) return;
    const now = this.timers.now();
    const next = this.repo.nextDueAfter(now);
    if (next === undefined) return;
    this.timer = this.timers.setTimeout(() => this.wake(), Math.max(0, Math.min(next - now, 60_000)) + 1).unref();
  }

  private async attempt(d: DeliveryRow): Promise<void> {
    const event = this.repo.eventBySeq(d.eventSeq);
    if (event === undefined) return;
    const faults = d.data.faults;
    const secret = d.data.secret ?? this.events.secret;
    const claims = () => ({ transmissionId: event.id, timestamp: new Date().toISOString(), hookId: d.hookId });
    const n = d.attempts + 1;
    const records: AttemptRecord[] = [];
    let body = event.body;
    let signature: string;
    let fault: string | undefined;
    if (faults?.tamperedBody) {
      signature = signEvent(event.body, secret, claims());
      body = tamperBody(event.body);
      fault = 'tampered-body';
    } else if (faults?.badSignature) {
      signature = forgeSignature(event.body, secret, claims());
      fault = 'bad-signature';
    } else {
      signature = signEvent(event.body, secret, claims());
    }
    const answer = await postWebhook(
      d.url,
      deliveryHeaders(this.options.header, signature, event, n, d.id),
      body,
      this.options.timeoutMs,
      this.aborts.signal,
      this.options.own,
      this.timers,
    );
    if (this.stopped) return;
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    const record: AttemptRecord = { deliveryId: d.id, n, at: this.timers.now(), status: answer.status, latencyMs: answer.latencyMs };
    if (answer.error !== undefined) record.error = answer.error;
    if (answer.response !== undefined) record.response = answer.response;
    if (fault !== undefined) record.fault = fault;
    records.push(record);

    const next: DeliveryRow = { ...d, attempts: n, data: { ...d.data } };
    if (answer.own !== undefined) {
      // Never retried: the URL will point at the sandbox on every attempt.
      next.status = 'failed';
      next.data.note = answer.error;
    } else if (isProbe(faults) && answer.status !== null) {
      // A probe answered: refusing it is right, accepting it is the merchant's bug.
      if (ok) {
        const what = fault === 'tampered-body' ? 'a changed body' : 'a bad signature';
        record.finding = `FINDING: the endpoint answered ${answer.status} to an event with ${what}; it must verify the signature and the body's crc32 and refuse it`;
        next.status = 'finding';
        next.data.note = record.finding;
        console.error(`paylink: ${record.finding} (event ${event.id}, ${maskUrlPasswords(d.url)})`);
      } else {
        next.status = 'rejected';
        next.data.note = `refused as it should (${answer.status})`;
      }
    } else if (ok) {
      next.status = 'delivered';
      next.data.note = undefined;
      if (faults?.duplicate) {
        const again = await postWebhook(
          d.url,
          deliveryHeaders(this.options.header, signEvent(event.body, secret, claims()), event, n, d.id),
          event.body,
          this.options.timeoutMs,
          this.aborts.signal,
          this.options.own,
          this.timers,
        );
        if (this.stopped) return;
        const dup: AttemptRecord = { deliveryId: d.id, n, at: this.timers.now(), status: again.status, latencyMs: again.latencyMs, fault: 'duplicate' };
        if (again.error !== undefined) dup.error = again.error;
        if (again.response !== undefined) dup.response = again.response;
        records.push(dup);
      }
    } else {
      const wait = retryDelay(this.options.schedule, n);
      next.data.note = answer.error ?? `HTTP ${answer.status}`;
      if (wait === undefined) {
        next.status = 'failed';
      } else {
        next.nextAt = this.timers.now() + wait;
      }
    }
    // Deferred: written at once on this connection (so the payment's next event sees this one done) and
    // committed with the next commit. A crash before that commit sends the delivery again: at least once.
    this.store.writeDeferred(() => {
      // The endpoint may have been removed while the attempt was in flight: keep its cancellation.
      // A reset may have deleted it.
      const current = this.repo.delivery(d.id);
      if (current === undefined) return;
      for (const r of records) this.repo.insertAttempt(r);
      if (current.status === 'pending') this.repo.updateDelivery(next);
    });
    const target = { url: d.url, eventId: event.id, type: event.type, businessId: event.businessId, paymentId: event.paymentId };
    for (const r of records) this.options.onAttempt?.(r, target);
  }
}
