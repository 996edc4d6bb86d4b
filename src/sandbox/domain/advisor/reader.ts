/**
 * The advisor's one traffic reader, shared by every check (the way eslint's rules share one source reader):
 * whose requests are judged (the request mark), what a path addresses, which order a resource belongs to,
 * the status reads, the redirects back to the merchant and the creations, each worked out once per run and
 * handed to every check that asks. Also the small readers of a logged request (its result, its error, its
 * transaction) and how evidence is written.
 */
import { matchRoute, type RouteName, type RouteTarget } from '../routes.js';
import type { CheckMeta, CheckOutcome, Evidence, ResourceInfo, ResourceKind, Traffic, TrafficRequest, WebhookAttempt, WebhookDelivery } from './model.js';

/** One check, as its module under `checks/` exports it: its `meta` and its one function. */
export interface CheckModule {
  meta: CheckMeta;
  check(traffic: TrafficReader): CheckOutcome;
}

/** Evidence listed per finding at most (the count says how many there were). */
export const MAX_EVIDENCE = 10;

/** The API's error codes the checks recognise (src/sandbox/errors.ts). */
export const ERROR_CODES = { invalidValue: 1002, duplicateTrackingCode: 2001, invalidTransition: 2003 } as const;

// ---- Whose traffic is judged ----

/**
 * True when the advisor judges this request. The merchant's code (no mark) is judged. Of paylink's own
 * tools (the request mark, `x-paylink-client`): a fixture run is seed data and left out whole; what a tool
 * does in the merchant's place through the API (creating, reading a status, capturing) is neither blamed
 * nor credited; what `pay` or the dashboard does as the customer on the hosted, 3-D Secure and bank pages
 * (the redirect back to the merchant's `returnUrl` included) counts as the customer's, since that is what a
 * developer uses them to test, but only on orders the merchant's code created ({@link TrafficReader}).
 */
export function isJudged(r: TrafficRequest): boolean {
  if (r.client === undefined) return true;
  if (r.client === 'fixtures') return false;
  return r.kind === 'page';
}

// ---- What a path addresses ----

/** What an API or hosted-page path addresses. */
export type Target =
  | { op: 'create'; kind: 'link' | 'checkout' | 'payment' | 'token' | 'credit' }
  | { op: 'read'; kind: 'link' | 'checkout' | 'payment' | 'token' | 'credit'; id: string }
  | { op: 'lookup'; kind: 'link' | 'checkout' | 'payment' | 'credit' }
  | { op: 'follow-up'; action: 'capture' | 'cancel' | 'refund'; id: string }
  | { op: 'cancel-link'; id: string }
  | { op: 'page'; kind: 'link' | 'checkout' | 'payment' | '3ds' | 'bank'; id: string };

const read =
  (kind: 'link' | 'checkout' | 'payment' | 'token' | 'credit', param: string) =>
  (p: Params): Target => ({ op: 'read', kind, id: p[param] ?? '' });
const page =
  (kind: 'link' | 'checkout' | 'payment' | '3ds' | 'bank', param: string) =>
  (p: Params): Target => ({ op: 'page', kind, id: p[param] ?? '' });
const followUp =
  (action: 'capture' | 'cancel' | 'refund') =>
  (p: Params): Target => ({ op: 'follow-up', action, id: p['paymentId'] ?? '' });

type Params = Record<string, string>;

/** What each route of the table (domain/routes.ts) addresses, for the routes the checks read. */
const TARGETS: Partial<Record<RouteName, (params: Params) => Target>> = {
  'links.create': () => ({ op: 'create', kind: 'link' }),
  'links.list': () => ({ op: 'lookup', kind: 'link' }),
  'links.get': read('link', 'linkId'),
  'links.cancel': (p) => ({ op: 'cancel-link', id: p['linkId'] ?? '' }),
  'checkouts.create': () => ({ op: 'create', kind: 'checkout' }),
  'checkouts.list': () => ({ op: 'lookup', kind: 'checkout' }),
  'checkouts.get': read('checkout', 'checkoutId'),
  'payments.create': () => ({ op: 'create', kind: 'payment' }),
  'payments.list': () => ({ op: 'lookup', kind: 'payment' }),
  'payments.get': read('payment', 'paymentId'),
  'payments.capture': followUp('capture'),
  'payments.cancel': followUp('cancel'),
  'payments.refund': followUp('refund'),
  'credits.create': () => ({ op: 'create', kind: 'credit' }),
  'credits.list': () => ({ op: 'lookup', kind: 'credit' }),
  'credits.get': read('credit', 'creditId'),
  'tokens.create': () => ({ op: 'create', kind: 'token' }),
  'tokens.get': read('token', 'token'),
  'hosted.link': page('link', 'linkId'),
  'hosted.link.submit': page('link', 'linkId'),
  'hosted.checkout': page('checkout', 'checkoutId'),
  'hosted.checkout.submit': page('checkout', 'checkoutId'),
  'hosted.payment': page('payment', 'paymentId'),
  'hosted.payment.submit': page('payment', 'paymentId'),
  'challenge.page': page('3ds', 'paymentId'),
  'challenge.submit': page('3ds', 'paymentId'),
  'bank.page': page('bank', 'paymentId'),
  'bank.submit': page('bank', 'paymentId'),
};

/** What a route, by name and parameters, addresses. */
export function targetOfRoute(route: RouteTarget): Target | undefined {
  return TARGETS[route.name]?.(route.params);
}

/** What `method path` addresses, as the router reads it (the route table's matching). */
export function targetOf(method: string, path: string): Target | undefined {
  const { target } = matchRoute(method.toUpperCase(), path);
  return target === undefined ? undefined : targetOfRoute(target);
}

/**
 * What the reader works out of a logged request once, kept on the request object itself for as long as the
 * service keeps the row (between runs): its target and its creation. Symbols keep them out of its fields.
 */
const TARGET = Symbol('target');
const CREATION = Symbol('creation');
type Worked = TrafficRequest & { [TARGET]?: Target | null; [CREATION]?: Creation | null };

/**
 * What a logged request addressed: from the route the router matched, as the request log recorded it; a
 * row without one (written before the log kept routes) is matched by its method and path.
 */
export function targetOfRequest(r: TrafficRequest): Target | undefined {
  const worked = r as Worked;
  if (worked[TARGET] === undefined) {
    worked[TARGET] = (r.route !== undefined ? targetOfRoute(r.route) : r.kind === 'webhook' ? undefined : targetOf(r.method, r.path)) ?? null;
  }
  return worked[TARGET] ?? undefined;
}

// ---- Reading a logged request ----

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `result` of a logged answer (the envelope's), if any. */
export function resultOf(r: TrafficRequest): number | undefined {
  const result = obj(r.response)?.result;
  return typeof result === 'number' ? result : undefined;
}

export function descriptionOf(r: TrafficRequest): string | undefined {
  const d = obj(r.response)?.description;
  return typeof d === 'string' ? d : undefined;
}

export function errorOf(r: TrafficRequest): { code?: number | undefined; message?: string | undefined } | undefined {
  const error = obj(obj(obj(r.response)?.body)?.error);
  if (!error) return undefined;
  return { code: typeof error.code === 'number' ? error.code : undefined, message: typeof error.message === 'string' ? error.message : undefined };
}

export function transactionOf(r: TrafficRequest): Json | undefined {
  return obj(obj(obj(r.request)?.body)?.transaction);
}

/** A number the API would read: a JSON number or a numeric string. */
export function amountValue(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The id a successful creation answered (`linkId`, `checkoutId`, payment `id`). */
export function createdIdOf(r: TrafficRequest): string | undefined {
  const body = obj(obj(r.response)?.body);
  return text(obj(body?.link)?.linkId) ?? text(obj(body?.checkout)?.checkoutId) ?? text(body?.id);
}

export function queryParam(r: TrafficRequest, name: string): string | undefined {
  return new URLSearchParams(r.query).get(name) ?? undefined;
}

// ---- Writing evidence ----

/** `POST {api}/payments -> 400 -3 Failed, retry` */
export function summarize(r: TrafficRequest): string {
  const result = resultOf(r);
  const outcome = result === undefined ? '' : ` ${result} ${descriptionOf(r) ?? ''}`.trimEnd();
  const where = r.location ? ` to ${r.location}` : '';
  return `${r.method} ${r.path}${r.query ? `?${r.query}` : ''} -> ${r.status}${outcome}${where}`;
}

export function evidenceOf(r: TrafficRequest, note?: string): Evidence {
  return { seq: r.seq, at: r.at, summary: note ? `${summarize(r)} (${note})` : summarize(r) };
}

export function deliveryEvidence(d: WebhookDelivery, a: WebhookAttempt, note: string): Evidence {
  return { deliveryId: d.id, at: a.at, summary: `${d.eventType} ${d.eventId} to ${d.url} -> ${a.status ?? 'no answer'} (${note})` };
}

export function capped(list: Evidence[]): Evidence[] {
  return list.length > MAX_EVIDENCE ? list.slice(0, MAX_EVIDENCE) : list;
}

/** `1 min`, `10 s`. */
export function seconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

// ---- Webhook deliveries ----

/** Faults a merchant's endpoint must refuse: an attempt with one is a probe, not a real delivery. */
export function isProbeFault(fault: string | undefined): boolean {
  return fault === 'bad-signature' || fault === 'tampered-body';
}

/** The attempt of a delivery the merchant acknowledged (2xx) correctly signed and untampered, if any. */
export function acknowledged(delivery: WebhookDelivery): WebhookAttempt | undefined {
  return delivery.attempts.find((a) => !isProbeFault(a.fault) && a.status !== null && a.status >= 200 && a.status < 300);
}

export const NEEDS_WEBHOOKS = 'needs webhook deliveries: no webhook endpoint or notifyUrl received an event in this window (or this sandbox records none)';

// ---- The shared reader ----

/** A request that sent the customer's browser back to the merchant's `returnUrl`. */
export interface Redirect {
  request: TrafficRequest;
  /** The link or checkout (or payment) the page was about. */
  order: string;
  resource?: { kind: ResourceKind; id: string } | undefined;
  paymentIds: string[];
}

/** A creation of a link, checkout or payment through the API. */
export interface Creation {
  request: TrafficRequest;
  kind: 'link' | 'checkout' | 'payment';
  businessId: string | null;
  trackingCode?: string | undefined;
  amount?: number | undefined;
  currencyCode?: string | undefined;
  result?: number | undefined;
}

/**
 * The traffic as the checks read it: only the judged requests ({@link isJudged}), and the views several
 * checks share, each worked out on first use and kept for the run.
 */
export class TrafficReader {
  /** Epoch ms, sandbox clock: windows that have not closed yet are not judged. */
  readonly now: number;
  /** The judged requests, oldest first. */
  readonly requests: readonly TrafficRequest[];
  readonly resources: ReadonlyMap<string, ResourceInfo>;
  readonly webhooks: readonly WebhookDelivery[] | undefined;
  private readonly orders = new Map<string, string>();
  private reads?: Map<string, TrafficRequest[]>;
  private redirectList?: Redirect[];
  private creationList?: Creation[];
  private paymentsByOrder?: Map<string, Set<string>>;

  constructor(traffic: Traffic) {
    this.now = traffic.now;
    this.resources = traffic.resources;
    this.webhooks = traffic.webhooks;
    const toolOrders = this.ordersMadeByTools(traffic.requests);
    this.requests = traffic.requests.filter((r) => isJudged(r) && !(toolOrders.size > 0 && this.playsToolOrder(r, toolOrders)));
  }

  /**
   * Orders a paylink tool created (`link create`, `trigger`, a fixture, the testing kit: a creation with the
   * request mark). They are not the merchant's integration: no merchant code will read their status, so what
   * the customer does on their pages (`pay`, `trigger`, the dashboard) is not judged either.
   */
  private ordersMadeByTools(requests: readonly TrafficRequest[]): Set<string> {
    const orders = new Set<string>();
    for (const r of requests) {
      if (r.client === undefined || r.kind !== 'api' || r.method !== 'POST') continue;
      if (targetOfRequest(r)?.op !== 'create') continue;
      const id = createdIdOf(r);
      if (id !== undefined) orders.add(this.orderOf(id));
    }
    return orders;
  }

  /** True for a page request about an order in `orders` (the customer on a tool-made link, checkout or payment). */
  private playsToolOrder(r: TrafficRequest, orders: ReadonlySet<string>): boolean {
    if (r.kind !== 'page') return false;
    const target = targetOfRequest(r);
    return target?.op === 'page' && orders.has(this.orderOf(target.id));
  }

  /** What a judged request addresses. */
  target(r: TrafficRequest): Target | undefined {
    return targetOfRequest(r);
  }

  /**
   * The order a resource belongs to: a link or checkout and every payment made through it are one order; a
   * direct payment and its follow-ups are another.
   */
  orderOf(id: string): string {
    let order = this.orders.get(id);
    if (order === undefined) {
      order = orderOf(id, this.resources);
      this.orders.set(id, order);
    }
    return order;
  }

  /** The business of a request: its own, else the record's of `id`. */
  businessOf(r: TrafficRequest, id?: string): string | null {
    if (r.businessId) return r.businessId;
    const info = id === undefined ? undefined : this.resources.get(id);
    return info?.businessId ?? null;
  }

  /** The payments the records know of per order. */
  paymentsOf(order: string): ReadonlySet<string> {
    if (!this.paymentsByOrder) {
      this.paymentsByOrder = new Map();
      for (const info of this.resources.values()) {
        if (info.kind !== 'payment') continue;
        const key = this.orderOf(info.id);
        let set = this.paymentsByOrder.get(key);
        if (!set) {
          set = new Set();
          this.paymentsByOrder.set(key, set);
        }
        set.add(info.id);
      }
    }
    return this.paymentsByOrder.get(order) ?? EMPTY;
  }

  /** Status reads per order: the merchant's server asking the API what happened (any answer but 404). */
  statusReads(): ReadonlyMap<string, TrafficRequest[]> {
    if (this.reads) return this.reads;
    const reads = new Map<string, TrafficRequest[]>();
    let byTrackingCode: Map<string, Set<string>> | undefined;
    for (const r of this.requests) {
      if (r.kind !== 'api' || (r.method !== 'GET' && r.method !== 'HEAD') || r.status === 404) continue;
      const target = this.target(r);
      if (!target) continue;
      let orders: Iterable<string> = [];
      if (target.op === 'read') orders = target.kind === 'token' ? [] : [this.orderOf(target.id)];
      else if (target.op === 'lookup') {
        // A read by tracking code reads every order with that code (of that business, when it says which).
        const trackingCode = queryParam(r, 'trackingCode');
        if (trackingCode) {
          byTrackingCode ??= this.ordersByTrackingCode();
          const business = r.businessId ?? queryParam(r, 'businessId');
          orders = byTrackingCode.get(business === undefined ? `*\u0000${trackingCode}` : `b:${business}\u0000${trackingCode}`) ?? [];
        }
      }
      for (const order of orders) {
        const list = reads.get(order);
        if (list) list.push(r);
        else reads.set(order, [r]);
      }
    }
    this.reads = reads;
    return reads;
  }

  /** Orders per `b:business\0trackingCode`, and per `*\0trackingCode` for lookups that name no business. */
  private ordersByTrackingCode(): Map<string, Set<string>> {
    const index = new Map<string, Set<string>>();
    const add = (key: string, order: string) => {
      let set = index.get(key);
      if (!set) {
        set = new Set();
        index.set(key, set);
      }
      set.add(order);
    };
    for (const info of this.resources.values()) {
      if (info.trackingCode === undefined) continue;
      const order = this.orderOf(info.id);
      add(`b:${info.businessId}\u0000${info.trackingCode}`, order);
      add(`*\u0000${info.trackingCode}`, order);
    }
    return index;
  }

  /** Requests that sent the customer's browser back to the merchant's `returnUrl`, oldest first. */
  redirects(): readonly Redirect[] {
    if (this.redirectList) return this.redirectList;
    const out: Redirect[] = [];
    for (const r of this.requests) {
      // The sandbox's own redirects are root-relative (3-D Secure page, hosted page); the one back to the
      // merchant is its absolute returnUrl.
      if (r.kind !== 'page' || r.status < 300 || r.status > 399 || !r.location || !/^https?:\/\//i.test(r.location)) continue;
      const target = this.target(r);
      if (!target || target.op !== 'page') continue;
      let params: URLSearchParams;
      try {
        params = new URL(r.location).searchParams;
      } catch {
        continue;
      }
      const linkId = params.get('linkId');
      const checkoutId = params.get('checkoutId');
      const paymentId = params.get('id');
      const parentId = linkId ?? checkoutId ?? (target.kind === 'link' || target.kind === 'checkout' ? target.id : undefined);
      const resource = linkId
        ? { kind: 'link' as const, id: linkId }
        : checkoutId
          ? { kind: 'checkout' as const, id: checkoutId }
          : paymentId
            ? { kind: 'payment' as const, id: paymentId }
            : undefined;
      const order = parentId ?? this.orderOf(paymentId ?? target.id);
      out.push({ request: r, order, resource, paymentIds: paymentId ? [paymentId] : [] });
    }
    this.redirectList = out;
    return out;
  }

  /** Creations of links, checkouts and payments through the API, oldest first. */
  creations(): readonly Creation[] {
    if (this.creationList) return this.creationList;
    const out: Creation[] = [];
    for (const r of this.requests) {
      if (r.kind !== 'api') continue;
      const creation = creationOf(r);
      if (creation) out.push(creation);
    }
    this.creationList = out;
    return out;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

/** The creation a logged API request made (or was refused), read once per request. */
function creationOf(r: TrafficRequest): Creation | undefined {
  const worked = r as Worked;
  let creation = worked[CREATION];
  if (creation === undefined) {
    const target = targetOfRequest(r);
    if (target?.op !== 'create' || (target.kind !== 'link' && target.kind !== 'checkout' && target.kind !== 'payment')) creation = null;
    else {
      const t = transactionOf(r);
      creation = {
        request: r,
        kind: target.kind,
        businessId: r.businessId,
        trackingCode: text(t?.trackingCode),
        amount: amountValue(t?.amount),
        currencyCode: text(t?.currencyCode)?.toUpperCase(),
        result: resultOf(r),
      };
    }
    worked[CREATION] = creation;
  }
  return creation ?? undefined;
}

/** {@link TrafficReader.orderOf} over a map of records. */
export function orderOf(id: string, resources: ReadonlyMap<string, ResourceInfo>): string {
  let current = resources.get(id);
  const seen = new Set<string>();
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    if (current.parentId) return current.parentId;
    if (!current.parentPaymentId) return current.id;
    const parent = resources.get(current.parentPaymentId);
    if (!parent) return current.parentPaymentId;
    current = parent;
  }
  return id;
}
