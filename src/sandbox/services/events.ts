/**
 * Webhook events: the one place they are made. The payments repository calls {@link EventService.paymentWritten}
 * for every insert and update inside the write that makes it (store/document-table.ts `onWrite`), so an
 * event and its deliveries commit or roll back with the change they report, whichever handler, page or
 * clock-driven read made it. The domain decides whether a write is an event and builds its body
 * (domain/events.ts); the store keeps event and deliveries (store/events.ts).
 */
import { randomUUID } from 'node:crypto';
import { paymentEnvelope } from '../domain/answers.js';
import type { Clock } from '../domain/clock.js';
import {
  DEFAULT_EVENT_TYPES,
  eventBody,
  orderKeyOf,
  paymentEventType,
  serializeEvent,
  tokenEventType,
  type EventType,
  type WebhookFaults,
} from '../domain/events.js';
import { isoUtc } from '../domain/clock.js';
import { tokenView } from '../domain/answers.js';
import { uuidFromText } from '../domain/ids.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord, TokenRecord } from '../domain/records.js';
import { realTimers, type Timers } from '../domain/timers.js';
import { signEvent } from '../domain/webhook-signature.js';
import type { DocumentTable } from '../store/document-table.js';
import type { DeliveryRow, EndpointRecord, EventFilter, EventRepository, EventRow } from '../store/events.js';
import { invalidValue } from '../errors.js';

/** What the event service reads and writes. */
export interface EventServiceDeps {
  events: EventRepository;
  payments: DocumentTable<PaymentRecord>;
  links: DocumentTable<LinkRecord>;
  checkouts: DocumentTable<CheckoutRecord>;
  clock: Clock;
  /** The sandbox's webhook secret (notifyUrl deliveries, endpoints without their own, `listen`). */
  secret: string;
  /** The hookId of notifyUrl deliveries and of `listen`. */
  hookId: string;
  /** Reproducible event ids (`--deterministic`). */
  seed?: string | undefined;
  /**
   * Wall-clock now of deliveries (when each is due) and the waits of long polls.
   * @default realTimers
   */
  timers?: Timers | undefined;
  /** Events kept at least (with their deliveries); older settled ones are pruned. Default {@link DEFAULT_EVENTS_KEPT}. */
  eventsKept?: number | undefined;
}

/** The default of {@link EventServiceDeps.eventsKept} (docs/reliability.md, "Retention"). */
export const DEFAULT_EVENTS_KEPT = 100_000;
/** Events recorded between two prunings (each deletes at most a thousand, in the write that records one). */
const PRUNE_EVERY = 256;

/**
 * Events of one payment that arrive within this hold are sent newest first to an endpoint with the
 * out-of-order fault (or within its delay, when longer).
 */
export const OUT_OF_ORDER_HOLD_MS = 500;

/** An event for `paylink listen`: the exact body and its signature with the sandbox's secret. */
export interface SignedEvent extends EventRow {
  signature: string;
  hookId: string;
}

export class EventService {
  private endpointCache: Map<string, EndpointRecord[]> | undefined;
  /** The last event sequence number written, committed or not. */
  private latestSeq: number;
  /** The last event sequence number known committed: deliveries and listeners never see past it. */
  private committed: number;
  private readonly committedListeners = new Set<() => void>();
  /** Deliveries were added since the last commit (a resend adds some without an event). */
  private deliveriesAdded = false;
  /** Aborted when the sandbox closes: every long poll of `follow` answers at once. */
  private readonly closing = new AbortController();

  private readonly timers: Timers;
  /** Events recorded since settled old ones were last pruned. */
  private recordedSincePrune = 0;

  constructor(private readonly deps: EventServiceDeps) {
    this.timers = deps.timers ?? realTimers;
    this.latestSeq = this.committed = deps.events.lastSeq();
  }

  get secret(): string {
    return this.deps.secret;
  }

  get hookId(): string {
    return this.deps.hookId;
  }

  /** The last committed event's sequence number. */
  get committedSeq(): number {
    return this.committed;
  }

  /** Call after each commit: events written so far are now durable; wakes the worker and listeners. */
  afterCommit(): void {
    if (this.latestSeq === this.committed && !this.deliveriesAdded) return;
    this.committed = this.latestSeq;
    this.deliveriesAdded = false;
    for (const listener of this.committedListeners) listener();
  }

  /**
   * The sandbox is closing: every waiting `follow` answers now (what it has, usually nothing), so a
   * `paylink listen` attached does not hold the server's stop for its poll's remaining wait.
   */
  close(): void {
    this.closing.abort();
  }

  /** After a rolled-back write the cached endpoints may hold one that was never stored. */
  afterRollback(): void {
    this.endpointCache = undefined;
  }

  /** Calls `listener` whenever new events are committed; returns the unsubscribe function. */
  onCommitted(listener: () => void): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /** The payments repository's write hook. Runs inside the write. */
  paymentWritten(before: PaymentRecord | undefined, after: PaymentRecord): void {
    const type = paymentEventType(before, after);
    if (type === undefined) return;
    const { seq, id, createdAt } = this.nextEvent();
    const body = serializeEvent(eventBody(id, type, createdAt, paymentEnvelope(after)));
    const event: EventRow = { seq, id, type, businessId: after.businessId, paymentId: after.id, createdAt, body };
    this.deps.events.insertEvent(event);
    this.latestSeq = seq;
    this.deliver(event, orderKeyOf(after), this.notifyUrlOf(after));
  }

  /**
   * The tokens repository's write hook (the portal's Tokenization events). Runs inside the write. The
   * payload is the token's envelope: what `GET {api}/tokens/{token}` answers. Stored like every
   * event (its `paymentId` is the token, the resource it is about) and delivered only to the endpoints
   * that name its type; a token has no notifyUrl.
   */
  tokenWritten(before: TokenRecord | undefined, after: TokenRecord): void {
    const type = tokenEventType(before, after);
    if (type === undefined) return;
    const { seq, id, createdAt } = this.nextEvent();
    const payload = { result: 0, description: 'Ok', header: { requestTimestamp: isoUtc(createdAt) }, body: tokenView(after) };
    const body = serializeEvent(eventBody(id, type, createdAt, payload));
    const event: EventRow = { seq, id, type, businessId: after.businessId, paymentId: after.id, createdAt, body };
    this.deps.events.insertEvent(event);
    this.latestSeq = seq;
    this.deliver(event, after.id, undefined);
  }

  /** The sequence number, id and time of the next event. */
  private nextEvent(): { seq: number; id: string; createdAt: number } {
    const kept = this.deps.eventsKept ?? DEFAULT_EVENTS_KEPT;
    if (++this.recordedSincePrune >= Math.min(PRUNE_EVERY, kept)) {
      this.recordedSincePrune = 0;
      this.deps.events.pruneSettled(kept);
    }
    const seq = Math.max(this.latestSeq, this.deps.events.lastSeq()) + 1;
    const id = this.deps.seed !== undefined ? uuidFromText(`${this.deps.seed}:event:${seq}`) : randomUUID();
    return { seq, id, createdAt: this.deps.clock.now() };
  }

  /**
   * A custom event (`paylink events send`, docs/webhooks.md): an arbitrary `payload` in the body every event
   * has, signed and delivered exactly as the events of payments are, through the same outbox (recorded,
   * retried, resent, forwarded by `listen`). It goes to `url` only when given, else to the business's
   * endpoints. Call inside a write; throws when it has nowhere to go.
   */
  custom(input: { type: EventType; payload: Record<string, unknown>; businessId: string; url?: string | undefined }): {
    event: EventRow;
    deliveries: number[];
  } {
    const { seq, id, createdAt } = this.nextEvent();
    const body = serializeEvent(eventBody(id, input.type, createdAt, input.payload));
    const paymentId = payloadPaymentId(input.payload) ?? id;
    const event: EventRow = { seq, id, type: input.type, businessId: input.businessId, paymentId, createdAt, body };
    this.deps.events.insertEvent(event);
    this.latestSeq = seq;
    // A url only: the sandbox's own hookId keeps every endpoint out.
    const deliveries = this.deliver(event, paymentId, input.url, input.url !== undefined ? { hookId: this.deps.hookId } : undefined);
    if (deliveries.length === 0) {
      throw invalidValue(
        'businessId',
        `Business ${input.businessId} has no webhook endpoint taking ${input.type}: give a url, or register one with paylink webhooks add.`,
      );
    }
    return { event, deliveries };
  }

  /** Adds a delivery of `event` to every destination it has now: the notifyUrl and matching endpoints. */
  private deliver(event: EventRow, orderKey: string, notifyUrl: string | undefined, only?: { hookId?: string | undefined }): DeliveryRow['id'][] {
    const now = this.timers.now();
    const ids: number[] = [];
    this.deliveriesAdded = true;
    if (notifyUrl !== undefined && (only?.hookId === undefined || only.hookId === this.deps.hookId)) {
      ids.push(
        this.deps.events.insertDelivery({
          eventSeq: event.seq,
          target: `url:${notifyUrl}`,
          orderKey,
          hookId: this.deps.hookId,
          url: notifyUrl,
          nextAt: now,
          createdAt: now,
          data: { kind: 'notify' },
        }),
      );
    }
    for (const endpoint of this.endpointsOf(event.businessId)) {
      if (only?.hookId !== undefined && only.hookId !== endpoint.hookId) continue;
      if (!(endpoint.events ?? DEFAULT_EVENT_TYPES).includes(event.type)) continue;
      ids.push(
        this.deps.events.insertDelivery({
          eventSeq: event.seq,
          target: `hook:${endpoint.hookId}`,
          orderKey,
          hookId: endpoint.hookId,
          url: endpoint.url,
          nextAt: now + holdOf(endpoint.faults),
          createdAt: now,
          data: { kind: 'endpoint', secret: endpoint.secret, faults: endpoint.faults },
        }),
      );
    }
    return ids;
  }

  /**
   * The payment's notifyUrl: its own (direct payments), else the original's (captures, refunds, cancels),
   * else its link's or checkout's (payments made on a hosted page).
   */
  notifyUrlOf(payment: PaymentRecord): string | undefined {
    if (payment.notifyUrl !== undefined) return payment.notifyUrl;
    if (payment.parentPaymentId !== undefined) {
      const original = this.deps.payments.get(payment.parentPaymentId);
      if (original !== undefined && original.id !== payment.id) return this.notifyUrlOf(original);
    }
    if (payment.parentKind === 'link' && payment.parentId !== undefined) return this.deps.links.get(payment.parentId)?.transaction.notifyUrl;
    if (payment.parentKind === 'checkout' && payment.parentId !== undefined) return this.deps.checkouts.get(payment.parentId)?.transaction.notifyUrl;
    return undefined;
  }

  /**
   * Delivers a stored event again, to every destination it has now or to one hook. Call inside a write.
   * Answers the new deliveries' ids.
   */
  resend(event: EventRow, hookId?: string): number[] {
    const payment = this.deps.payments.get(event.paymentId);
    const orderKey = payment ? orderKeyOf(payment) : event.paymentId;
    return this.deliver(event, orderKey, payment ? this.notifyUrlOf(payment) : undefined, { hookId });
  }

  // ---- Endpoints ----

  endpoints(businessId?: string): EndpointRecord[] {
    const all = this.deps.events.endpoints();
    return businessId === undefined ? all : all.filter((e) => e.businessId === businessId);
  }

  private endpointsOf(businessId: string): EndpointRecord[] {
    if (this.endpointCache === undefined) {
      this.endpointCache = new Map();
      for (const endpoint of this.deps.events.endpoints()) {
        const list = this.endpointCache.get(endpoint.businessId) ?? [];
        list.push(endpoint);
        this.endpointCache.set(endpoint.businessId, list);
      }
    }
    return this.endpointCache.get(businessId) ?? [];
  }

  /** Registers an endpoint. Call inside a write. */
  addEndpoint(input: {
    businessId: string;
    url: string;
    secret?: string | undefined;
    events?: EventType[] | undefined;
    faults?: WebhookFaults | undefined;
  }): EndpointRecord {
    const endpoint: EndpointRecord = {
      hookId: randomUUID(),
      businessId: input.businessId,
      url: input.url,
      createdAt: this.deps.clock.now(),
      ...(input.secret !== undefined ? { secret: input.secret } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(input.faults !== undefined && Object.keys(input.faults).length > 0 ? { faults: input.faults } : {}),
    };
    this.deps.events.insertEndpoint(endpoint);
    this.endpointCache = undefined;
    return endpoint;
  }

  /** Removes an endpoint and cancels its pending deliveries. Call inside a write. */
  removeEndpoint(hookId: string): boolean {
    this.endpointCache = undefined;
    return this.deps.events.deleteEndpoint(hookId);
  }

  /** Forgets cached endpoints (after a reset). */
  forget(): void {
    this.endpointCache = undefined;
  }

  /**
   * After a snapshot restore replaced the outbox: forgets cached endpoints and wakes the delivery worker and
   * waiting listeners, who read the restored deliveries and events. Sequence numbers were not wound back
   * (store/snapshots.ts), so the next event still gets a number above any a listener has seen.
   */
  restored(): void {
    this.endpointCache = undefined;
    this.latestSeq = this.committed = Math.max(this.latestSeq, this.deps.events.lastSeq());
    this.deliveriesAdded = false;
    for (const listener of this.committedListeners) listener();
  }

  // ---- Reading ----

  /** Committed events matching `filter`. */
  list(filter: EventFilter): EventRow[] {
    return this.deps.events.events({ ...filter, upTo: this.committed });
  }

  /** Committed events after `since` signed for `paylink listen`. */
  signedSince(since: number, filter: Omit<EventFilter, 'since' | 'upTo'>): SignedEvent[] {
    return this.list({ ...filter, since, limit: filter.limit ?? 200 }).map((e) => ({
      seq: e.seq,
      id: e.id,
      type: e.type,
      businessId: e.businessId,
      paymentId: e.paymentId,
      createdAt: e.createdAt,
      body: e.body,
      hookId: this.deps.hookId,
      signature: signEvent(e.body, this.deps.secret, { transmissionId: e.id, timestamp: new Date().toISOString(), hookId: this.deps.hookId }),
    }));
  }

  /**
   * Committed events after `since`, waiting up to `waitMs` for one to arrive (long polling); `signal` ends
   * the wait early (the client went away).
   */
  async follow(since: number, filter: Omit<EventFilter, 'since' | 'upTo'>, waitMs: number, signal?: AbortSignal): Promise<SignedEvent[]> {
    const found = this.signedSince(since, filter);
    if (found.length > 0 || waitMs <= 0) return found;
    const timers = this.timers;
    const end = timers.now() + waitMs;
    const stop = signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
    while (timers.now() < end && !stop.aborted) {
      await new Promise<void>((resolve) => {
        const timer = timers.setTimeout(done, end - timers.now());
        const off = this.onCommitted(done);
        stop.addEventListener('abort', done, { once: true });
        function done() {
          timers.clearTimeout(timer);
          off();
          stop.removeEventListener('abort', done);
          resolve();
        }
      });
      const fresh = this.signedSince(since, filter);
      if (fresh.length > 0) return fresh;
    }
    return [];
  }
}

function holdOf(faults: WebhookFaults | undefined): number {
  const delay = faults?.delayMs ?? 0;
  return faults?.outOfOrder ? Math.max(delay, OUT_OF_ORDER_HOLD_MS) : delay;
}

/** The payment a custom payload is about (`body.id`, else `body.transaction.id`), when it names one. */
function payloadPaymentId(payload: Record<string, unknown>): string | undefined {
  const body = payload.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.id === 'string' && b.id.length > 0 && b.id.length <= 100) return b.id;
  const t = b.transaction;
  if (t !== null && typeof t === 'object' && !Array.isArray(t)) {
    const tid = (t as Record<string, unknown>).id;
    if (typeof tid === 'string' && tid.length > 0 && tid.length <= 100) return tid;
  }
  return undefined;
}
