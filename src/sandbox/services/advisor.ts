/**
 * The integration advisor's data: gathers the traffic of a time window (the request log's rows, the records
 * of the links, checkouts and payments they name, the webhook deliveries) and runs the pure checks of
 * domain/advisor.ts over it. The caller (admin/advisor.ts) writes the request log's buffered rows first.
 */
import type { Deps } from './deps.js';

/** What the advisor reads: the request log, the records its checks look at, the deliveries, the clock. */
export type AdvisorDeps = Pick<Deps, 'requestLog' | 'links' | 'checkouts' | 'payments' | 'eventStore' | 'clock'>;
import {
  advise,
  targetOf,
  type Advice,
  type ResourceInfo,
  type Traffic,
  type TrafficRequest,
  type WebhookDelivery,
} from '../domain/advisor.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord } from '../domain/records.js';
import { maskUrlPasswords } from '../domain/mask.js';
import { decodeRequestRow } from '../store/request-log.js';

/** Rows read per query of the request log. */
const PAGE = 1000;
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

/** Every logged request at or after `from`, oldest first. */
function requestsSince(sandbox: AdvisorDeps, from: number | undefined): TrafficRequest[] {
  const out: TrafficRequest[] = [];
  let since = 0;
  for (;;) {
    const rows = sandbox.requestLog.list({ since, limit: PAGE });
    for (const row of rows) if (from === undefined || row.at >= from) out.push(decodeRequestRow(row));
    if (rows.length < PAGE) return out;
    since = rows.at(-1)!.seq;
  }
}

function idsNamed(requests: TrafficRequest[]): Set<string> {
  const ids = new Set<string>();
  for (const r of requests) {
    const target = targetOf(r.method, r.path);
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

/** The records of the ids the traffic names, with the payments of links and checkouts and the originals of follow-ups. */
function resourcesOf(sandbox: AdvisorDeps, ids: Iterable<string>): Map<string, ResourceInfo> {
  const resources = new Map<string, ResourceInfo>();
  const queue = [...ids];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (resources.has(id)) continue;
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
      queue.push(...parent.paymentIds);
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
    if (payment.parentId) queue.push(payment.parentId);
    if (payment.parentPaymentId) queue.push(payment.parentPaymentId);
  }
  return resources;
}

/**
 * The webhook deliveries of events at or after `from`, attempts in sandbox time. Attempts are stamped with
 * the wall clock; the clock's present offset converts them (exact unless the clock moved since).
 */
export function deliveriesSince(reader: DeliveryReader, from: number | undefined, wallToSandbox: number): WebhookDelivery[] {
  const out: WebhookDelivery[] = [];
  for (const event of reader.events({ limit: MAX_EVENTS })) {
    if (from !== undefined && event.createdAt < from) continue;
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

/** The traffic of the window, ready for the checks. */
export function gatherTraffic(sandbox: AdvisorDeps, options: AdviceOptions = {}): Traffic {
  const now = sandbox.clock.now();
  const requests = requestsSince(sandbox, options.from);
  const all = deliveriesSince(sandbox.eventStore, options.from, now - Date.now());
  // Deliveries name their business: another business's webhooks say nothing about this one's handler.
  const webhooks = options.businessId === undefined ? all : all.filter((d) => d.businessId === options.businessId);
  const ids = idsNamed(requests);
  for (const d of webhooks) ids.add(d.paymentId);
  return { now, requests, resources: resourcesOf(sandbox, ids), webhooks };
}

/** Runs every check over the window's traffic. */
export function adviceFor(sandbox: AdvisorDeps, options: AdviceOptions = {}): Advice {
  return advise(gatherTraffic(sandbox, options), options.businessId);
}
