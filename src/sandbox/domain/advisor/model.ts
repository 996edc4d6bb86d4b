/**
 * The advisor's model (docs/advisor.md): the traffic the checks read (logged requests, the records they
 * name, webhook deliveries), the findings they report, and the shape of a check module.
 */
import type { LoggedRequest, ObservedFault } from '../observed.js';

export type Severity = 'info' | 'warning' | 'error';
export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error'];

/** True when `severity` is `threshold` or worse. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(threshold);
}

/** A check's id: kebab-case, the file name of its module under `checks/` and its anchor in docs/advisor.md. */
export type CheckId = string;

// ---- The traffic ----

/** One logged request, as the request log keeps it (card data masked): the log's one entry type. */
export type TrafficRequest = Omit<LoggedRequest, 'durationMs'> & { durationMs?: number };

/** What an API fault did to a request. */
export type TrafficFault = ObservedFault;

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
  /** Oldest first; every logged request, paylink's own included (the reader decides whose are judged). */
  requests: readonly TrafficRequest[];
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
  /** One line: `POST {api}/payments -> 400 -3 Failed, retry`. */
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

/** What a check module exports as `meta` (eslint's rule meta): who it is, how bad, where its doc is. */
export interface CheckMeta {
  id: CheckId;
  /** What a passing integration does, as the report's line says it. */
  title: string;
  /** The severity of its findings (a finding may be milder, never worse). */
  severity: Severity;
  /** Where "how to fix" lives: `docs/advisor.md#<id>`. */
  docs: string;
}
