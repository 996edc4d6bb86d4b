/**
 * What the app tells observers (the request log, verbose console output) about each answered request:
 * plain data, so the request log (a service) reads it without knowing the transport; http/observe.ts
 * re-exports it for the transport's side.
 */
import type { ClientTool } from './client-mark.js';
import type { FaultKind } from './faults.js';

import type { RouteKind, RouteTarget } from './routes.js';

export type { RouteKind, RouteTarget } from './routes.js';

/** What a request was: a route's kind, `unmatched` (no route), or `webhook` (a delivery the sandbox sent). */
export type RequestKind = RouteKind | 'unmatched' | 'webhook';

/** Observes every answered request (the request log, verbose console output). */
export interface RequestObserver {
  (entry: ObservedRequest): void;
}

export interface ObservedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  /** `webhook`: a delivery the sandbox sent (method POST, `path` the receiver's URL), not a request it answered. */
  kind: RequestKind;
  startedAt: number;
  durationMs: number;
  /** The request's body as a value, when it has no text (a webhook delivery the sandbox sent). */
  requestBody?: unknown;
  /** The JSON body's text as received, when the handler read one. */
  requestJson?: string;
  /** The answer as a value, when it has no text (a webhook receiver's answer). */
  responseBody?: unknown;
  /** The JSON answer exactly as sent, so observers need not serialize it again. */
  responseJson?: string;
  businessId?: string | undefined;
  /** Where a redirect (3xx) sent the client: the advisor sees hosted pages send customers back to `returnUrl`. */
  location?: string | undefined;
  /** The request mark (`x-paylink-client`): which of paylink's own tools sent it; undefined for anyone else. */
  client?: ClientTool | undefined;
  /** Whether the request carried an `Authorization` header (the provider required HTTP Basic on every call); never its value. */
  authorization?: boolean | undefined;
  /** The API fault that fired for this request (docs/faults.md); `status` is then 0 when no answer was sent. */
  fault?: ObservedFault | undefined;
  /** The route that answered, by its name in the route table (domain/routes.ts: `payments.get`), and its parameters. */
  route?: RouteTarget | undefined;
}

/** What an API fault did to a request, as the request log, `paylink logs` and the dashboard show it. */
export interface ObservedFault {
  /** The rule's id (`f3`). */
  rule: string;
  kind: FaultKind;
  /** `latency`: how long the answer was held back, in ms. */
  delayMs?: number | undefined;
  /** `ghost`: the status of the answer the sandbox made and did not send (the payment exists). */
  withheldStatus?: number | undefined;
  /** `timeout`, `ghost`: whether the client gave up first or the hold reached its limit; `reset` for a reset. */
  ended?: 'client-gave-up' | 'held-to-the-limit' | 'reset' | undefined;
}

/**
 * One request of the request log, card data masked: what the log stores and reads back, what the advisor
 * judges (domain/advisor/model.ts `TrafficRequest`) and, with its time in ISO 8601, what
 * `GET /__sandbox/requests` answers and `paylink logs` prints ({@link LoggedRequestAnswer}).
 */
export interface LoggedRequest {
  /** Sequence number; `since` in the next long poll. */
  seq: number;
  /** Epoch ms the request arrived (sandbox clock). */
  at: number;
  method: string;
  path: string;
  /** Query string without `?` ('' when none). */
  query: string;
  status: number;
  kind: RequestKind;
  businessId: string | null;
  durationMs: number;
  /** The request body (JSON or form fields), when logged. */
  request?: unknown;
  /** The answer's JSON (its text when it was not JSON), when logged. */
  response?: unknown;
  /** Where a redirect answer sent the client. */
  location?: string | undefined;
  /** The request mark: which of paylink's own tools sent it; undefined for anyone else. */
  client?: ClientTool | undefined;
  /** Whether the request carried an `Authorization` header (never its value); undefined in rows logged before it was recorded. */
  authorization?: boolean | undefined;
  /** The API fault that fired for the request (docs/faults.md); `status` is 0 when no answer was sent. */
  fault?: ObservedFault | undefined;
  /** The route that answered, by name, and its parameters (masked like the path); none for unmatched requests and webhooks. */
  route?: RouteTarget | undefined;
}

/** One entry of `GET /__sandbox/requests`: a {@link LoggedRequest} with its time in ISO 8601. */
export type LoggedRequestAnswer = Omit<LoggedRequest, 'at'> & {
  /** ISO 8601 time the request arrived (sandbox clock). */
  at: string;
  /** The advisor's checks that named this request as evidence of a finding (`paylink logs`, docs/advisor.md). */
  findings?: string[];
};
