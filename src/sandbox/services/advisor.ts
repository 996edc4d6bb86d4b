/**
 * The integration advisor's data: gathers the traffic of a time window (the request log's rows, the records
 * of the links, checkouts and payments they name, the webhook deliveries) and runs the pure checks of
 * domain/advisor.ts over it. The caller (admin/advisor.ts) writes the request log's buffered rows first.
 *
 * Advice never holds up the API (issue 22.8; docs/reliability.md): the work is done in slices of at most
 * {@link SLICE_MS} between which the event loop answers other requests, and what can be kept between calls
 * is kept: the decoded rows of the request log (a call reads only the rows logged since the last one) and
 * the records' facts the checks use (a payment's amount, currency, tracking code and parents never change).
 * After 10,000 logged payments a call took 1.4 s of blocked event loop before; `npm run bench` measures the
 * API's p99 while advice runs.
 */
import type { Deps } from './deps.js';
import { adviseStepwise, targetOfRequest, type Advice, type ResourceInfo, type Traffic, type TrafficRequest, type WebhookDelivery } from '../domain/advisor.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord } from '../domain/records.js';
import { maskUrlPasswords } from '../domain/mask.js';
import { decodeRequestRow } from '../store/request-log.js';

/** What the advisor reads: the request log, the records its checks look at, the deliveries, the clock. */
export type AdvisorDeps = Pick<Deps, 'requestLog' | 'links' | 'checkouts' | 'payments' | 'eventStore' | 'clock'>;

/** Longest stretch of advice work between two turns of the event loop. */
export const SLICE_MS = 2;

/** Lets the event loop answer what is waiting once a slice of {@link SLICE_MS} is used up. */
class Slicer {
  private started = performance.now();

  /** Yields to the event loop when this slice is used up (or always, with `force`). */
  async pause(force = false): Promise<void> {
    if (!force && performance.now() - this.started < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

/** Rows read per query of the request log (about a slice's worth of decoding). */
const PAGE = 100;
/** Webhook events read at most (the newest). */
const MAX_EVENTS = 1000;

export interface AdviceOptions {
  /** Only this business's findings (the traffic of every business is read: hosted pages carry none). */
  businessId?: string | undefined;
  /** Only traffic at or after this time (epoch ms, sandbox clock); undefined: all the log holds. */
  from?: number | undefined;
}

/** What the advisor reads of the webhook store (store/events.ts's EventRepository). */
export interface DeliveryReader {
  events(filter: { limit?: number }): Array<{ seq: number; id: string; type: string; businessId: string; paymentId: string; createdAt: number; body: string }>;
  deliveriesOf(eventSeq: number): Array<{ id: number; url: string }>;
  attemptsOf(deliveryId: number): Array<{ at: number; status: number | null; fault?: string | undefined }>;
}

function idsNamed(requests: TrafficRequest[]): Set<string> {
  const ids = new Set<string>();
  for (const r of requests) {
    const target = targetOfRequest(r);
    if (target && 'id' in target) ids.add(target.id);
    const body = (r.response as { body?: Record<string, unknown> } | undefined)?.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const link = body.link as { linkId?: unknown } | undefined;
      const checkout = body.checkout as { checkoutId?: unknown } | undefined;
      for (const id of [link?.linkId, checkout?.checkoutId, body.id]) if (typeof id === 'string') ids.add(id);
    }
    if (r.location) {
      try {
        const params = new URL(r.location).searchParams;
        for (const name of ['linkId', 'checkoutId', 'id']) {
          const id = params.get(name);
          if (id) ids.add(id);
        }
      } catch {
        // Not an absolute URL: one of the sandbox's own redirects.
      }
    }
  }
  return ids;
}

/**
 * Adds to `resources` the records of `ids`, with the payments of links and checkouts and the originals of
 * follow-ups. A payment's facts never change, so a known payment is not read again; a link or checkout is
 * read again when `ids` names it (a new payment may have been made through it).
 */
async function addResources(sandbox: AdvisorDeps, resources: Map<string, ResourceInfo>, ids: Iterable<string>, slicer: Slicer): Promise<void> {
  const queue = [...ids];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const known = resources.get(id);
    if (known?.kind === 'payment') continue;
    await slicer.pause();
    const parent: LinkRecord | CheckoutRecord | undefined = sandbox.links.get(id) ?? sandbox.checkouts.get(id);
    if (parent) {
      resources.set(id, {
        kind: parent.kind === 'checkout' ? 'checkout' : 'link',
        id,
        businessId: parent.businessId,
        trackingCode: parent.trackingCode,
        amount: parent.transaction.amount,
        currencyCode: parent.transaction.currencyCode,
      });
      for (const paymentId of parent.paymentIds) if (!resources.has(paymentId)) queue.push(paymentId);
      continue;
    }
    const payment: PaymentRecord | undefined = sandbox.payments.get(id);
    if (!payment) continue;
    resources.set(id, {
      kind: 'payment',
      id,
      businessId: payment.businessId,
      trackingCode: payment.trackingCode,
      amount: payment.amount,
      currencyCode: payment.currencyCode,
      parentId: payment.parentId,
      parentPaymentId: payment.parentPaymentId,
    });
    if (payment.parentId && !resources.has(payment.parentId)) queue.push(payment.parentId);
    if (payment.parentPaymentId && !resources.has(payment.parentPaymentId)) queue.push(payment.parentPaymentId);
  }
}

/**
 * The webhook deliveries of events at or after `from`, attempts in sandbox time. Attempts are stamped with
 * the wall clock; the clock's present offset converts them (exact unless the clock moved since).
 */
export async function deliveriesSince(
  reader: DeliveryReader,
  from: number | undefined,
  wallToSandbox: number,
  pause: () => Promise<void> = async () => {},
): Promise<WebhookDelivery[]> {
  const out: WebhookDelivery[] = [];
  for (const event of reader.events({ limit: MAX_EVENTS })) {
    if (from !== undefined && event.createdAt < from) continue;
    await pause();
    // The body is the sandbox's own serialized event, always JSON.
    const payload = (JSON.parse(event.body) as { Payload?: { result?: unknown } } | undefined)?.Payload;
    for (const d of reader.deliveriesOf(event.seq)) {
      out.push({
        id: d.id,
        eventId: event.id,
        eventType: event.type,
        businessId: event.businessId,
        paymentId: event.paymentId,
        url: maskUrlPasswords(d.url),
        result: typeof payload?.result === 'number' ? payload.result : undefined,
        attempts: reader.attemptsOf(d.id).map((a) => ({ at: a.at + wallToSandbox, status: a.status, fault: a.fault })),
      });
    }
  }
  return out;
}

/** What is kept of a sandbox's traffic between two calls (one per sandbox, made by services/index.ts). */
export interface KeptTraffic {
  /** The request log's rows, decoded, oldest first: exactly the table's rows up to {@link lastSeq}. */
  rows: TrafficRequest[];
  lastSeq: number;
  /** The records' facts of every id the rows named. */
  resources: Map<string, ResourceInfo>;
  /** Calls run one at a time (each brings the copy up to date). */
  queue: Promise<unknown>;
}

/** An empty copy of a sandbox's traffic, filled by the first call. */
export function keptTraffic(): KeptTraffic {
  return { rows: [], lastSeq: 0, resources: new Map(), queue: Promise.resolve() };
}

/**
 * Brings the kept rows up to date: reads the rows logged since the last call, then drops the ones the log
 * pruned. When the copy no longer matches the table (a reset, a snapshot restored, rows deleted), it is
 * read again from the start.
 */
async function refresh(sandbox: AdvisorDeps, traffic: KeptTraffic, slicer: Slicer, again = true): Promise<void> {
  const fresh: TrafficRequest[] = [];
  for (;;) {
    const rows = sandbox.requestLog.list({ since: traffic.lastSeq, limit: PAGE });
    for (const row of rows) {
      const request = decodeRequestRow(row);
      // What each row addresses is worked out here, in slices, and kept with the row for every later call.
      targetOfRequest(request);
      fresh.push(request);
    }
    if (rows.length > 0) traffic.lastSeq = rows.at(-1)!.seq;
    if (rows.length < PAGE) break;
    await slicer.pause();
  }
  for (const r of fresh) traffic.rows.push(r);
  // The log prunes its oldest rows: drop as many from the front, then check the copy is the table's.
  const held = sandbox.requestLog.countUpTo(traffic.lastSeq);
  if (traffic.rows.length > held) traffic.rows.splice(0, traffic.rows.length - held);
  const first = sandbox.requestLog.list({ since: 0, limit: 1 })[0];
  const matches = traffic.rows.length === held && (held === 0 || traffic.rows[0]!.seq === first?.seq);
  if (!matches) {
    traffic.rows = [];
    traffic.lastSeq = 0;
    traffic.resources.clear();
    if (again) await refresh(sandbox, traffic, slicer, false);
    return;
  }
  // Facts of records the log no longer names are let go once they far outnumber the rows.
  if (traffic.resources.size > 4 * traffic.rows.length + 1000) {
    traffic.resources.clear();
    await addResources(sandbox, traffic.resources, idsNamed(traffic.rows), slicer);
  } else {
    await addResources(sandbox, traffic.resources, idsNamed(fresh), slicer);
  }
}

/** The traffic of the window, ready for the checks; `slicer` paces the work (see the header). */
async function gatherTraffic(sandbox: AdvisorDeps, traffic: KeptTraffic, options: AdviceOptions, slicer: Slicer): Promise<Traffic> {
  await refresh(sandbox, traffic, slicer);
  const now = sandbox.clock.now();
  const from = options.from;
  const requests = from === undefined ? traffic.rows.slice() : traffic.rows.filter((r) => r.at >= from);
  const all = await deliveriesSince(sandbox.eventStore, from, now - Date.now(), () => slicer.pause());
  // Deliveries name their business: another business's webhooks say nothing about this one's handler.
  const webhooks = options.businessId === undefined ? all : all.filter((d) => d.businessId === options.businessId);
  await addResources(
    sandbox,
    traffic.resources,
    webhooks.map((d) => d.paymentId),
    slicer,
  );
  return { now, requests, resources: traffic.resources, webhooks };
}

/**
 * Runs every check over the window's traffic, in slices: other requests are answered between them. Calls
 * for one sandbox run one after the other.
 */
export function adviceFor(sandbox: AdvisorDeps, traffic: KeptTraffic, options: AdviceOptions = {}): Promise<Advice> {
  const run = traffic.queue.then(async () => {
    const slicer = new Slicer();
    const steps = adviseStepwise(await gatherTraffic(sandbox, traffic, options, slicer), options.businessId);
    for (;;) {
      await slicer.pause(true);
      const step = steps.next();
      if (step.done) return step.value;
    }
  });
  traffic.queue = run.catch(() => undefined);
  return run;
}
