/**
 * The integration advisor (docs/advisor.md): named checks that read how a merchant's code used the sandbox
 * (its API requests, the hosted pages' redirects back to it, the webhook deliveries it answered) and say
 * what would go wrong in production. Pure: a {@link Traffic} in, {@link Finding}s out. services/advisor.ts
 * gathers the traffic from the request log, the records and the webhook deliveries.
 *
 * A check never guesses at what it cannot see: where it needs data the sandbox does not have (webhook
 * deliveries, a merchant's own pages) it says so in its report instead of passing or failing.
 */
import { hasAtMostDecimals, minorUnits } from './money.js';

export type Severity = 'info' | 'warning' | 'error';
export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error'];

/** True when `severity` is `threshold` or worse. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(threshold);
}

export type CheckId =
  | 'trusts-the-redirect'
  | 'polls-too-fast'
  | 'reuses-tracking-code'
  | 'ignores-retry'
  | 'money'
  | 'tokenize-consent'
  | 'webhook-signature'
  | 'stale-status';

// ---- The traffic model ----

/** One logged request, as the request log keeps it (card data masked). */
export interface TrafficRequest {
  seq: number;
  /** Epoch ms, sandbox clock. */
  at: number;
  method: string;
  path: string;
  /** Query string without `?`. */
  query: string;
  status: number;
  /** Route kind (api, page, admin, asset, unmatched), or `webhook` for a delivery the sandbox sent. */
  kind: string;
  businessId: string | null;
  /** The request body (JSON or form), masked. */
  request?: unknown;
  /** The answer's JSON (its text when it was not JSON), masked. */
  response?: unknown;
  /** Where a redirect answer sent the browser. */
  location?: string | undefined;
  /** The request mark: which of paylink's own tools sent it (`cli`, `fixtures`, ...); undefined for anyone else. */
  client?: string | undefined;
}

export type ResourceKind = 'link' | 'checkout' | 'payment';

/** What the records say about a resource the traffic names (hosted pages carry no business id). */
export interface ResourceInfo {
  kind: ResourceKind;
  id: string;
  businessId: string;
  trackingCode?: string | undefined;
  amount: number;
  currencyCode: string;
  /** Payments: the link or checkout it was paid through. */
  parentId?: string | undefined;
  /** Follow-ups (capture, cancel, refund): the payment they follow up. */
  parentPaymentId?: string | undefined;
}

/** One HTTP attempt of a webhook delivery. */
export interface WebhookAttempt {
  /** Epoch ms, sandbox clock. */
  at: number;
  /** The merchant's HTTP status; null when it did not answer. */
  status: number | null;
  /** The fault this attempt applied: `bad-signature` and `tampered-body` must be refused. */
  fault?: string | undefined;
}

/** A webhook delivery of one event to one merchant endpoint, with its attempts. */
export interface WebhookDelivery {
  id: number;
  eventId: string;
  eventType: string;
  businessId: string;
  paymentId: string;
  /** The endpoint: its URL. */
  url: string;
  /** The payment's `result` as the event reported it. */
  result?: number | undefined;
  attempts: WebhookAttempt[];
}

export interface Traffic {
  /** Epoch ms, sandbox clock: windows that have not closed yet are not judged. */
  now: number;
  /** Oldest first. */
  requests: TrafficRequest[];
  /** Records of the ids the requests name. */
  resources: ReadonlyMap<string, ResourceInfo>;
  /** Webhook deliveries; undefined when the sandbox has none to give (the checks that need them say so). */
  webhooks?: WebhookDelivery[] | undefined;
}

// ---- Findings ----

export interface Evidence {
  /** Sequence number in the request log, when the evidence is a request. */
  seq?: number | undefined;
  /** Webhook delivery id, when it is a delivery. */
  deliveryId?: number | undefined;
  at: number;
  /** One line: `POST /gateway/v3/payments -> 400 -3 Failed, retry`. */
  summary: string;
}

export interface Finding {
  check: CheckId;
  severity: Severity;
  businessId: string | null;
  /** The one-line finding. */
  message: string;
  resource?: { kind: ResourceKind; id: string } | undefined;
  evidence: Evidence[];
  /** When it happened: its first evidence. */
  at: number;
}

/** A check's outcome over the traffic. */
export interface CheckOutcome {
  findings: Finding[];
  /** Flows whose window is still open: judged on a later run. */
  pending?: number | undefined;
  /** Set when the check cannot run on this traffic: what it needs. */
  needs?: string | undefined;
}

export interface CheckDefinition {
  id: CheckId;
  title: string;
  /** The severity of its findings (a finding may be milder, never worse). */
  severity: Severity;
  run(traffic: Traffic): CheckOutcome;
}

// ---- Documented rates and windows (docs/advisor.md) ----

/** After a redirect back to the merchant, its server must read the status within this time. */
export const REDIRECT_READ_WINDOW_MS = 60_000;
/** Polling: at most this many status reads of one resource in {@link POLL_WINDOW_MS} (one every 2 s). */
export const POLL_MAX_READS = 5;
export const POLL_WINDOW_MS = 10_000;
/** A `Failed, retry` or `Declined, retry` should see a new attempt within this time. */
export const RETRY_WINDOW_MS = 120_000;
/** An identical attempt this soon after a final decline is an immediate retry. */
export const IMMEDIATE_RETRY_MS = 60_000;
/** Evidence listed per finding at most (the count says how many there were). */
const MAX_EVIDENCE = 10;

// ---- Reading the traffic ----

/** What an API or hosted-page path addresses. */
export type Target =
  | { op: 'create'; kind: 'link' | 'checkout' | 'payment' | 'token' | 'credit' }
  | { op: 'read'; kind: 'link' | 'checkout' | 'payment' | 'token' | 'credit'; id: string }
  | { op: 'lookup'; kind: 'link' | 'checkout' | 'payment' | 'credit' }
  | { op: 'follow-up'; action: 'capture' | 'cancel' | 'refund'; id: string }
  | { op: 'cancel-link'; id: string }
  | { op: 'page'; kind: 'link' | 'checkout' | 'payment' | '3ds' | 'bank'; id: string };

const COLLECTIONS: Record<string, 'link' | 'checkout' | 'payment' | 'token' | 'credit'> = {
  paymentlinks: 'link',
  checkouts: 'checkout',
  payments: 'payment',
  tokens: 'token',
  credits: 'credit',
};
const PAGES: Record<string, 'link' | 'checkout' | 'payment' | '3ds' | 'bank'> = { paymentlinks: 'link', checkouts: 'checkout', payments: 'payment', '3ds': '3ds', bank: 'bank' };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What `method path` addresses, as the router reads it (fixed segments in any case, empty ones ignored). */
export function targetOf(method: string, path: string): Target | undefined {
  const s = path.split('/').filter((p) => p !== '');
  if (s.length < 3 || s[0]!.toLowerCase() !== 'gateway' || s[1]!.toLowerCase() !== 'v3') return undefined;
  const collection = s[2]!.toLowerCase();
  if (collection === 'web') {
    const kind = PAGES[s[3]?.toLowerCase() ?? ''];
    return kind && s.length === 5 ? { op: 'page', kind, id: decode(s[4]!) } : undefined;
  }
  const kind = COLLECTIONS[collection];
  if (!kind) return undefined;
  const m = method.toUpperCase();
  if (s.length === 3) {
    if (m === 'POST') return { op: 'create', kind };
    if ((m === 'GET' || m === 'HEAD') && kind !== 'token') return { op: 'lookup', kind };
    return undefined;
  }
  const id = decode(s[3]!);
  if (s.length === 4) return m === 'GET' || m === 'HEAD' ? { op: 'read', kind, id } : undefined;
  if (s.length === 5 && m === 'POST') {
    const verb = s[4]!.toLowerCase();
    if (kind === 'payment' && (verb === 'capture' || verb === 'cancel' || verb === 'refund')) return { op: 'follow-up', action: verb, id };
    if (kind === 'link' && verb === 'cancel') return { op: 'cancel-link', id };
  }
  return undefined;
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `result` of a logged answer (the envelope's), if any. */
export function resultOf(r: TrafficRequest): number | undefined {
  const result = obj(r.response)?.result;
  return typeof result === 'number' ? result : undefined;
}

function descriptionOf(r: TrafficRequest): string | undefined {
  const d = obj(r.response)?.description;
  return typeof d === 'string' ? d : undefined;
}

function errorOf(r: TrafficRequest): { code?: number; message?: string } | undefined {
  const error = obj(obj(obj(r.response)?.body)?.error);
  if (!error) return undefined;
  return { code: typeof error.code === 'number' ? error.code : undefined, message: typeof error.message === 'string' ? error.message : undefined };
}

function transactionOf(r: TrafficRequest): Json | undefined {
  return obj(obj(obj(r.request)?.body)?.transaction);
}

/** A number the API would read: a JSON number or a numeric string. */
function amountValue(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The id a successful creation answered (`linkId`, `checkoutId`, payment `id`). */
function createdIdOf(r: TrafficRequest): string | undefined {
  const body = obj(obj(r.response)?.body);
  return text(obj(body?.link)?.linkId) ?? text(obj(body?.checkout)?.checkoutId) ?? text(body?.id);
}

function queryParam(r: TrafficRequest, name: string): string | undefined {
  return new URLSearchParams(r.query).get(name) ?? undefined;
}

/** `POST /gateway/v3/payments -> 400 -3 Failed, retry` */
export function summarize(r: TrafficRequest): string {
  const result = resultOf(r);
  const outcome = result === undefined ? '' : ` ${result} ${descriptionOf(r) ?? ''}`.trimEnd();
  const where = r.location ? ` to ${r.location}` : '';
  return `${r.method} ${r.path}${r.query ? `?${r.query}` : ''} -> ${r.status}${outcome}${where}`;
}

function evidenceOf(r: TrafficRequest, note?: string): Evidence {
  return { seq: r.seq, at: r.at, summary: note ? `${summarize(r)} (${note})` : summarize(r) };
}

function capped(list: Evidence[]): Evidence[] {
  return list.length > MAX_EVIDENCE ? list.slice(0, MAX_EVIDENCE) : list;
}

function seconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`;
}

/**
 * The order a resource belongs to: a link or checkout and every payment made through it are one order; a
 * direct payment and its follow-ups are another.
 */
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

/** The orders a status read reads: by id, or every order whose tracking code the lookup names. */
function ordersRead(r: TrafficRequest, target: Target, resources: ReadonlyMap<string, ResourceInfo>): string[] {
  if (target.op === 'read') return target.kind === 'token' ? [] : [orderOf(target.id, resources)];
  if (target.op !== 'lookup') return [];
  const trackingCode = queryParam(r, 'trackingCode');
  if (!trackingCode) return [];
  const business = r.businessId ?? queryParam(r, 'businessId');
  const orders = new Set<string>();
  for (const info of resources.values()) {
    if (info.trackingCode === trackingCode && (business === undefined || business === null || info.businessId === business)) orders.add(orderOf(info.id, resources));
  }
  return [...orders];
}

/** Status reads per order: the merchant's server asking the API what happened (any answer but 404). */
export function statusReads(traffic: Traffic): Map<string, TrafficRequest[]> {
  const reads = new Map<string, TrafficRequest[]>();
  for (const r of traffic.requests) {
    if (r.kind !== 'api' || (r.method !== 'GET' && r.method !== 'HEAD') || r.status === 404) continue;
    const target = targetOf(r.method, r.path);
    if (!target) continue;
    for (const order of ordersRead(r, target, traffic.resources)) {
      const list = reads.get(order) ?? [];
      list.push(r);
      reads.set(order, list);
    }
  }
  return reads;
}

function businessOf(r: TrafficRequest, resources: ReadonlyMap<string, ResourceInfo>, id?: string): string | null {
  if (r.businessId) return r.businessId;
  const info = id === undefined ? undefined : resources.get(id);
  return info?.businessId ?? null;
}

// ---- The checks ----

/** A request that sent the customer's browser back to the merchant's `returnUrl`. */
interface Redirect {
  request: TrafficRequest;
  /** The link or checkout (or payment) the page was about. */
  order: string;
  resource?: { kind: ResourceKind; id: string } | undefined;
  paymentIds: string[];
}

function redirectsOf(traffic: Traffic): Redirect[] {
  const out: Redirect[] = [];
  for (const r of traffic.requests) {
    // The sandbox's own redirects are root-relative (3-D Secure page, hosted page); the one back to the
    // merchant is its absolute returnUrl.
    if (r.kind !== 'page' || r.status < 300 || r.status > 399 || !r.location || !/^https?:\/\//i.test(r.location)) continue;
    const target = targetOf(r.method, r.path);
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
    const order = parentId ?? orderOf(paymentId ?? target.id, traffic.resources);
    out.push({ request: r, order, resource, paymentIds: paymentId ? [paymentId] : [] });
  }
  return out;
}

/** Webhook deliveries the merchant acknowledged (2xx) that were correctly signed and untampered. */
function acknowledged(delivery: WebhookDelivery): WebhookAttempt | undefined {
  return delivery.attempts.find((a) => !isProbeFault(a.fault) && a.status !== null && a.status >= 200 && a.status < 300);
}

function isProbeFault(fault: string | undefined): boolean {
  return fault === 'bad-signature' || fault === 'tampered-body';
}

const trustsTheRedirect: CheckDefinition = {
  id: 'trusts-the-redirect',
  title: 'Reads the status after the customer comes back',
  severity: 'error',
  run(traffic) {
    const reads = statusReads(traffic);
    const findings: Finding[] = [];
    let pending = 0;
    for (const redirect of redirectsOf(traffic)) {
      const r = redirect.request;
      const deadline = r.at + REDIRECT_READ_WINDOW_MS;
      const read = (reads.get(redirect.order) ?? []).some((g) => g.seq > r.seq && g.at <= deadline);
      if (read) continue;
      // A signed webhook the merchant acknowledged is as good a source as a GET.
      const orderPayments = new Set(redirect.paymentIds);
      for (const info of traffic.resources.values()) if (info.kind === 'payment' && orderOf(info.id, traffic.resources) === redirect.order) orderPayments.add(info.id);
      const webhook = traffic.webhooks?.some((d) => orderPayments.has(d.paymentId) && acknowledged(d) !== undefined);
      if (webhook) continue;
      if (traffic.now < deadline) {
        pending += 1;
        continue;
      }
      findings.push({
        check: 'trusts-the-redirect',
        severity: 'error',
        businessId: businessOf(r, traffic.resources, redirect.order),
        message: `The customer was sent back to your returnUrl and your server never read the ${redirect.resource?.kind ?? 'payment'}'s status within ${seconds(REDIRECT_READ_WINDOW_MS)}: an order marked from the query string can be forged.`,
        resource: redirect.resource,
        evidence: [evidenceOf(r, 'redirect to the merchant; no GET of its status followed')],
        at: r.at,
      });
    }
    return { findings, pending };
  },
};

const pollsTooFast: CheckDefinition = {
  id: 'polls-too-fast',
  title: `Polls a status at most ${POLL_MAX_READS} times in ${seconds(POLL_WINDOW_MS)}`,
  severity: 'warning',
  run(traffic) {
    const findings: Finding[] = [];
    for (const [order, list] of statusReads(traffic)) {
      let worst: TrafficRequest[] | undefined;
      let start = 0;
      for (let end = 0; end < list.length; end++) {
        while (list[end]!.at - list[start]!.at > POLL_WINDOW_MS) start += 1;
        const count = end - start + 1;
        if (count > POLL_MAX_READS && (!worst || count > worst.length)) worst = list.slice(start, end + 1);
      }
      if (!worst) continue;
      const info = traffic.resources.get(order);
      const span = Math.max(worst.at(-1)!.at - worst[0]!.at, 1);
      findings.push({
        check: 'polls-too-fast',
        severity: 'warning',
        businessId: businessOf(worst[0]!, traffic.resources, order),
        message: `${worst.length} status reads of one ${info?.kind ?? 'resource'} within ${(span / 1000).toFixed(1)} s; the documented rate is at most ${POLL_MAX_READS} in ${seconds(POLL_WINDOW_MS)} (one every 2 s), better a webhook.`,
        resource: info ? { kind: info.kind, id: info.id } : undefined,
        evidence: capped(worst.map((r) => evidenceOf(r))),
        at: worst[0]!.at,
      });
    }
    return { findings };
  },
};

interface Creation {
  request: TrafficRequest;
  kind: 'link' | 'checkout' | 'payment';
  businessId: string | null;
  trackingCode?: string | undefined;
  amount?: number | undefined;
  currencyCode?: string | undefined;
  result?: number | undefined;
}

function creationsOf(traffic: Traffic): Creation[] {
  const out: Creation[] = [];
  for (const r of traffic.requests) {
    if (r.kind !== 'api') continue;
    const target = targetOf(r.method, r.path);
    if (target?.op !== 'create' || (target.kind !== 'link' && target.kind !== 'checkout' && target.kind !== 'payment')) continue;
    const t = transactionOf(r);
    out.push({
      request: r,
      kind: target.kind,
      businessId: r.businessId,
      trackingCode: text(t?.trackingCode),
      amount: amountValue(t?.amount),
      currencyCode: text(t?.currencyCode)?.toUpperCase(),
      result: resultOf(r),
    });
  }
  return out;
}

const DUPLICATE_TRACKING_CODE = 2001;
const INVALID_TRANSITION = 2003;
const INVALID_VALUE = 1002;

const reusesTrackingCode: CheckDefinition = {
  id: 'reuses-tracking-code',
  title: 'One tracking code per order',
  severity: 'warning',
  run(traffic) {
    const findings: Finding[] = [];
    const creations = creationsOf(traffic);
    const refused = new Map<string, Creation[]>();
    for (const c of creations) {
      if (c.result === -8 && errorOf(c.request)?.code === DUPLICATE_TRACKING_CODE) {
        const key = `${c.businessId}\u0000${c.trackingCode}`;
        refused.set(key, [...(refused.get(key) ?? []), c]);
      }
    }
    for (const list of refused.values()) {
      const first = list[0]!;
      findings.push({
        check: 'reuses-tracking-code',
        severity: 'warning',
        businessId: first.businessId,
        message: `${list.length} ${first.kind} creation${list.length > 1 ? 's were' : ' was'} refused as a duplicate of tracking code "${first.trackingCode}": your order numbering collides (after a restart, across shops, on retry).`,
        evidence: capped(list.map((c) => evidenceOf(c.request))),
        at: first.request.at,
      });
    }
    // Accepted creations of different kinds with one tracking code and different amounts: different orders.
    const accepted = new Map<string, Creation[]>();
    for (const c of creations) {
      if (c.trackingCode === undefined || c.request.status >= 500 || c.result === -1 || c.result === -6 || c.result === -8 || c.request.status === 404) continue;
      const key = `${c.businessId}\u0000${c.trackingCode}`;
      accepted.set(key, [...(accepted.get(key) ?? []), c]);
    }
    for (const list of accepted.values()) {
      const kinds = new Set(list.map((c) => c.kind));
      const orders = new Set(list.map((c) => `${c.amount} ${c.currencyCode}`));
      if (kinds.size < 2 || orders.size < 2) continue;
      const first = list[0]!;
      findings.push({
        check: 'reuses-tracking-code',
        severity: 'warning',
        businessId: first.businessId,
        message: `Tracking code "${first.trackingCode}" was used for a ${[...kinds].join(' and a ')} with different amounts (${[...orders].join(', ')}): one tracking code must name one order, or lookups by it mix orders up.`,
        evidence: capped(list.map((c) => evidenceOf(c.request))),
        at: first.request.at,
      });
    }
    return { findings };
  },
};

/** Results after which a retry is expected. */
const RETRY_RESULTS = new Set([-3, -5]);
/** Final declines: the same attempt again fails again (and can look like card testing). */
const FINAL_RESULTS = new Set([-4, -9, -11]);

/** What makes two direct payment attempts the same: amount, currency, and the same card or token. */
function attemptKey(r: TrafficRequest): string | undefined {
  const body = obj(obj(r.request)?.body);
  const t = obj(body?.transaction);
  const card = obj(body?.card);
  const instrument = card ? `card:${text(card.number)}:${text(card.expiryMonth)}:${text(card.expiryYear)}` : t?.token !== undefined ? `token:${text(t.token)}` : undefined;
  if (!instrument) return undefined;
  return `${amountValue(t?.amount)}:${text(t?.currencyCode)?.toUpperCase()}:${instrument}`;
}

const ignoresRetry: CheckDefinition = {
  id: 'ignores-retry',
  title: 'Retries what may be retried, and only that',
  severity: 'warning',
  run(traffic) {
    const findings: Finding[] = [];
    let pending = 0;
    const payments = creationsOf(traffic).filter((c) => c.kind === 'payment');
    payments.forEach((c, i) => {
      const later = payments.slice(i + 1).filter((n) => n.businessId === c.businessId);
      if (c.result !== undefined && RETRY_RESULTS.has(c.result)) {
        const deadline = c.request.at + RETRY_WINDOW_MS;
        const retried = later.some(
          (n) =>
            n.request.at <= deadline &&
            ((c.trackingCode !== undefined && n.trackingCode === c.trackingCode) || (n.amount === c.amount && n.currencyCode === c.currencyCode)),
        );
        if (retried) return;
        if (traffic.now < deadline) {
          pending += 1;
          return;
        }
        findings.push({
          check: 'ignores-retry',
          severity: 'warning',
          businessId: c.businessId,
          message: `A payment answered ${c.result} ${descriptionOf(c.request) ?? ''} (a retry may succeed) and no new attempt followed within ${seconds(RETRY_WINDOW_MS)}: the sale was given up.`,
          evidence: [evidenceOf(c.request)],
          at: c.request.at,
        });
      }
      if (c.result !== undefined && FINAL_RESULTS.has(c.result)) {
        const key = attemptKey(c.request);
        if (key === undefined) return;
        const again = later.find((n) => n.request.at - c.request.at <= IMMEDIATE_RETRY_MS && attemptKey(n.request) === key);
        if (!again) return;
        findings.push({
          check: 'ignores-retry',
          severity: 'warning',
          businessId: c.businessId,
          message: `A final ${c.result} ${descriptionOf(c.request) ?? 'decline'} was retried at once with the same card and amount: it will be declined again, and repeated declines look like card testing to issuers.`,
          evidence: [evidenceOf(c.request), evidenceOf(again.request, 'identical retry')],
          at: c.request.at,
        });
      }
    });
    return { findings, pending };
  },
};

/** The currency of a follow-up or creation request: its own, else the original payment's record. */
function currencyOf(r: TrafficRequest, target: Target, resources: ReadonlyMap<string, ResourceInfo>): string | undefined {
  const own = text(transactionOf(r)?.currencyCode)?.toUpperCase();
  if (own) return own;
  return target.op === 'follow-up' ? resources.get(target.id)?.currencyCode : undefined;
}

function toMinor(amount: number, decimals: number): number {
  return Math.round(amount * 10 ** decimals);
}

const money: CheckDefinition = {
  id: 'money',
  title: 'Amounts in the currency’s units, within what was authorised',
  severity: 'error',
  run(traffic) {
    const findings: Finding[] = [];
    // Amounts per flow (an order, and a business's tracking code), to compare within one flow.
    type Amount = { request?: TrafficRequest | undefined; amount: number; currencyCode: string; what: string };
    const flows = new Map<string, Amount[]>();
    const addAmount = (keys: Array<string | undefined>, entry: Amount) => {
      for (const key of new Set(keys)) if (key !== undefined) flows.set(key, [...(flows.get(key) ?? []), entry]);
    };
    const trackingKey = (business: string | null, tracking: string | undefined) => (tracking === undefined ? undefined : `tc:${business}\u0000${tracking}`);
    for (const r of traffic.requests) {
      if (r.kind !== 'api' || r.method !== 'POST') continue;
      const target = targetOf(r.method, r.path);
      if (!target || (target.op !== 'create' && target.op !== 'follow-up')) continue;
      const asked = transactionOf(r)?.amount;
      const amount = amountValue(asked);
      const currency = currencyOf(r, target, traffic.resources);
      const error = errorOf(r);
      const business = businessOf(r, traffic.resources, target.op === 'follow-up' ? target.id : undefined);
      const decimals = currency === undefined ? undefined : minorUnits(currency);
      if (amount !== undefined && decimals !== undefined && resultOf(r) === -1 && error?.code === INVALID_VALUE && !hasAtMostDecimals(amount, decimals)) {
        findings.push({
          check: 'money',
          severity: 'error',
          businessId: business,
          message: `An amount of ${text(asked)} ${currency} was refused: ${currency} has ${decimals} decimal${decimals === 1 ? '' : 's'}. Round to the currency's minor units before sending.`,
          evidence: [evidenceOf(r)],
          at: r.at,
        });
        continue;
      }
      if (target.op === 'follow-up' && target.action !== 'cancel' && resultOf(r) === -8 && error?.code === INVALID_TRANSITION && amount !== undefined) {
        // The follow-up rules' own wording (domain/follow-ups.ts) for an amount above what is left.
        if (/^At most .* can be (captured|refunded) now|already (captured|refunded) in full/.test(error.message ?? '')) {
          const original = traffic.resources.get(target.id);
          findings.push({
            check: 'money',
            severity: 'error',
            businessId: business,
            message: `A ${target.action} of ${amount} ${currency ?? ''} was attempted above what ${target.action === 'capture' ? 'the authorisation left to capture' : 'was paid or captured and not yet refunded'}${original ? ` (original ${original.amount} ${original.currencyCode})` : ''}: keep your own running totals of captures and refunds.`,
            resource: { kind: 'payment', id: target.id },
            evidence: [evidenceOf(r, error.message)],
            at: r.at,
          });
        }
      }
      if (amount === undefined || currency === undefined) continue;
      if (target.op === 'follow-up') {
        const original = traffic.resources.get(target.id);
        const order = orderOf(target.id, traffic.resources);
        // The original may have been created before the window: its record still counts.
        const root = traffic.resources.get(order);
        if (root && !flows.has(order)) addAmount([order, trackingKey(business, root.trackingCode)], { amount: root.amount, currencyCode: root.currencyCode, what: root.kind });
        addAmount([order, trackingKey(business, original?.trackingCode)], { request: r, amount, currencyCode: currency, what: target.action });
      } else {
        const id = createdIdOf(r);
        const tracking = text(transactionOf(r)?.trackingCode);
        addAmount([id !== undefined ? orderOf(id, traffic.resources) : undefined, trackingKey(business, tracking)], { request: r, amount, currencyCode: currency, what: target.kind });
      }
    }
    const flagged = new Set<number>();
    for (const list of flows.values()) {
      for (const big of list) {
        const decimals = minorUnits(big.currencyCode) ?? 2;
        if (!big.request || flagged.has(big.request.seq) || decimals === 0 || !Number.isInteger(big.amount)) continue;
        const small = list.find((o) => o.currencyCode === big.currencyCode && o.amount !== big.amount && toMinor(o.amount, decimals) === big.amount);
        if (!small) continue;
        flagged.add(big.request.seq);
        const evidence = [small.request ? evidenceOf(small.request) : undefined, evidenceOf(big.request)].filter((e): e is Evidence => e !== undefined);
        findings.push({
          check: 'money',
          severity: 'warning',
          businessId: businessOf(big.request, traffic.resources),
          message: `A ${big.what} of ${big.amount} ${big.currencyCode} in a flow where the ${small.what} was ${small.amount} ${big.currencyCode}: this looks like minor units (cents) sent as major units. Amounts are major units with decimals (19.99).`,
          evidence,
          at: big.request.at,
        });
      }
    }
    return { findings };
  },
};

function tokenizeOf(r: TrafficRequest, kind: 'link' | 'checkout'): string | undefined {
  const value = obj(obj(obj(r.request)?.body)?.[kind])?.tokenize;
  if (value === true) return 'true';
  if (value === false) return 'false';
  return typeof value === 'string' ? value.toLowerCase() : undefined;
}

const tokenizeConsent: CheckDefinition = {
  id: 'tokenize-consent',
  title: 'Asks the customer before saving a card',
  severity: 'warning',
  run(traffic) {
    const byBusiness = new Map<string | null, { forced: TrafficRequest[]; asks: boolean }>();
    for (const c of creationsOf(traffic)) {
      if (c.kind === 'payment' || c.request.status !== 200) continue;
      const mode = tokenizeOf(c.request, c.kind);
      const entry = byBusiness.get(c.businessId) ?? { forced: [], asks: false };
      if (mode === 'true') entry.forced.push(c.request);
      if (mode === 'inquire') entry.asks = true;
      byBusiness.set(c.businessId, entry);
    }
    const findings: Finding[] = [];
    for (const [businessId, { forced, asks }] of byBusiness) {
      if (forced.length === 0 || asks) continue;
      findings.push({
        check: 'tokenize-consent',
        severity: 'warning',
        businessId,
        message: `${forced.length} link${forced.length > 1 ? 's or checkouts' : ' or checkout'} saved the card with tokenize TRUE (no box for the customer) and this business never uses INQUIRE: the spec requires the customer's consent to keep a card. The sandbox cannot see your own pages; if they ask for consent before creating these, record that.`,
        evidence: capped(forced.map((r) => evidenceOf(r))),
        at: forced[0]!.at,
      });
    }
    return { findings };
  },
};

const NEEDS_WEBHOOKS = 'needs webhook deliveries: no webhook endpoint or notifyUrl received an event in this window (or this sandbox records none)';

function deliveryEvidence(d: WebhookDelivery, a: WebhookAttempt, note: string): Evidence {
  return { deliveryId: d.id, at: a.at, summary: `${d.eventType} ${d.eventId} to ${d.url} -> ${a.status ?? 'no answer'} (${note})` };
}

const webhookSignature: CheckDefinition = {
  id: 'webhook-signature',
  title: 'Verifies webhook signatures',
  severity: 'error',
  run(traffic) {
    const deliveries = traffic.webhooks;
    if (deliveries === undefined || deliveries.length === 0) return { findings: [], needs: NEEDS_WEBHOOKS };
    const findings: Finding[] = [];
    for (const d of deliveries) {
      for (const a of d.attempts) {
        if (!isProbeFault(a.fault) || a.status === null || a.status < 200 || a.status > 299) continue;
        findings.push({
          check: 'webhook-signature',
          severity: 'error',
          businessId: d.businessId,
          message: `Your webhook endpoint ${d.url} answered ${a.status} to an event with a ${a.fault === 'bad-signature' ? 'forged signature' : 'body changed after signing'}: verify the signature (and the crc32 of the exact body) and answer 4xx when it does not match.`,
          resource: { kind: 'payment', id: d.paymentId },
          evidence: [deliveryEvidence(d, a, a.fault!)],
          at: a.at,
        });
      }
    }
    // Valid deliveries an endpoint never acknowledged: a check that refuses good signatures, or no handler.
    const byUrl = new Map<string, WebhookDelivery[]>();
    for (const d of deliveries) byUrl.set(d.url, [...(byUrl.get(d.url) ?? []), d]);
    for (const [url, list] of byUrl) {
      const valid = list.flatMap((d) => d.attempts.filter((a) => !isProbeFault(a.fault)).map((a) => ({ d, a })));
      if (valid.length === 0 || valid.some(({ a }) => a.status !== null && a.status >= 200 && a.status < 300)) continue;
      findings.push({
        check: 'webhook-signature',
        severity: 'error',
        businessId: list[0]!.businessId,
        message: `Your webhook endpoint ${url} never answered 2xx to a correctly signed event (${valid.length} attempt${valid.length > 1 ? 's' : ''}): it refuses good signatures or does not handle the events, so every event is retried and finally lost.`,
        evidence: capped(valid.map(({ d, a }) => deliveryEvidence(d, a, 'valid signature'))),
        at: valid[0]!.a.at,
      });
    }
    return { findings };
  },
};

const staleStatus: CheckDefinition = {
  id: 'stale-status',
  title: 'Acts on the status webhooks report',
  severity: 'warning',
  run(traffic) {
    const deliveries = traffic.webhooks;
    if (deliveries === undefined || deliveries.length === 0) return { findings: [], needs: NEEDS_WEBHOOKS };
    // Per order: the earliest acknowledged Transaction.Update.
    const told = new Map<string, { d: WebhookDelivery; a: WebhookAttempt }>();
    for (const d of deliveries) {
      if (d.eventType !== 'Transaction.Update') continue;
      const a = acknowledged(d);
      if (!a) continue;
      const order = orderOf(d.paymentId, traffic.resources);
      const known = told.get(order);
      if (!known || a.at < known.a.at) told.set(order, { d, a });
    }
    const findings: Finding[] = [];
    if (told.size === 0) return { findings };
    for (const r of traffic.requests) {
      if (r.kind !== 'api' || r.method !== 'POST' || resultOf(r) !== -8 || errorOf(r)?.code !== INVALID_TRANSITION) continue;
      const target = targetOf(r.method, r.path);
      if (!target || (target.op !== 'follow-up' && target.op !== 'cancel-link')) continue;
      const order = orderOf(target.id, traffic.resources);
      const update = told.get(order);
      if (!update || update.a.at > r.at) continue;
      const info = traffic.resources.get(target.id);
      findings.push({
        check: 'stale-status',
        severity: 'warning',
        businessId: businessOf(r, traffic.resources, target.id),
        message: `Your server acknowledged a Transaction.Update about this ${info?.kind ?? 'payment'} and then asked for a change its old state allowed (${target.op === 'cancel-link' ? 'cancel' : target.action}), which was refused: update the order from the webhook before acting on it.`,
        resource: info ? { kind: info.kind, id: info.id } : undefined,
        evidence: [deliveryEvidence(update.d, update.a, 'acknowledged'), evidenceOf(r, errorOf(r)?.message)],
        at: r.at,
      });
    }
    return { findings };
  },
};

/** Every check, in the order reports list them. */
export const CHECKS: readonly CheckDefinition[] = [
  trustsTheRedirect,
  pollsTooFast,
  reusesTrackingCode,
  ignoresRetry,
  money,
  tokenizeConsent,
  webhookSignature,
  staleStatus,
];

export const CHECK_IDS: readonly CheckId[] = CHECKS.map((c) => c.id);

/** One check's line of the report. */
export interface CheckReport {
  id: CheckId;
  title: string;
  severity: Severity;
  /** `failed`: it has findings; `passed`: none; `needs-data`: it could not run (see `needs`). */
  status: 'passed' | 'failed' | 'needs-data';
  findings: number;
  /** Flows still inside their window, judged on a later run. */
  pending: number;
  needs?: string | undefined;
}

export interface Advice {
  checks: CheckReport[];
  /** Oldest first. */
  findings: Finding[];
}

/** Runs every check over `traffic`; `businessId` keeps only that business's findings. */
export function advise(traffic: Traffic, businessId?: string): Advice {
  const checks: CheckReport[] = [];
  const findings: Finding[] = [];
  for (const check of CHECKS) {
    const outcome = check.run(traffic);
    const mine = businessId === undefined ? outcome.findings : outcome.findings.filter((f) => f.businessId === businessId);
    findings.push(...mine);
    checks.push({
      id: check.id,
      title: check.title,
      severity: check.severity,
      status: outcome.needs !== undefined ? 'needs-data' : mine.length > 0 ? 'failed' : 'passed',
      findings: mine.length,
      pending: outcome.pending ?? 0,
      needs: outcome.needs,
    });
  }
  findings.sort((a, b) => a.at - b.at);
  return { checks, findings };
}

/** Request-log sequence numbers named by findings, with the checks that named them (for `paylink logs`). */
export function flaggedRequests(findings: readonly Finding[]): Map<number, CheckId[]> {
  const flagged = new Map<number, CheckId[]>();
  for (const f of findings) {
    for (const e of f.evidence) {
      if (e.seq === undefined) continue;
      const list = flagged.get(e.seq) ?? [];
      if (!list.includes(f.check)) list.push(f.check);
      flagged.set(e.seq, list);
    }
  }
  return flagged;
}

// ---- The answer of `GET /__sandbox/advice` (times as ISO 8601), also what the dashboard renders ----

export interface EvidenceView {
  seq?: number | undefined;
  deliveryId?: number | undefined;
  at: string;
  summary: string;
}

export interface FindingView {
  check: string;
  severity: string;
  businessId: string | null;
  message: string;
  resource?: { kind: string; id: string } | undefined;
  evidence: EvidenceView[];
  at: string;
  doc: string;
}

/** What `GET /__sandbox/advice` answers in its envelope's body. */
export interface AdviceView {
  generatedAt: string;
  businessId: string | null;
  /** The window asked for (`10m`), null for everything the request log holds. */
  since: string | null;
  from: string | null;
  summary: { errors: number; warnings: number; infos: number; pending: number };
  checks: Array<{ id: string; title: string; severity: string; status: string; findings: number; pending: number; needs?: string | undefined; doc: string }>;
  findings: FindingView[];
}
