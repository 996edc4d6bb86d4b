/**
 * The one typed client of the sandbox's API v3, used by the CLI (src/cli/client.ts), fixtures
 * (src/cli/seed), `paylink trigger` (src/cli/trigger) and `paylink/testing` (src/testing). Each call is
 * built from the route table (domain/routes.ts) and answers the envelope types of domain/answers.ts.
 *
 * It does not send anything itself: a transport does (the CLI's node:http client with its request mark,
 * credentials and error messages; the testing kit's `fetch`), so both keep their own behaviour while the
 * paths, methods and answer types live here once. Pure: no I/O of its own (docs/architecture.md).
 */
import { pathOf, pathOfId, type RouteName } from '../sandbox/domain/routes.js';
import type { CheckoutBody, DirectPaymentBodyAnswer, Envelope, LinkBody, PaymentEnvelope } from '../sandbox/domain/answers.js';

/** An answer as a transport read it: the HTTP status and the parsed JSON (undefined for a bare 404). */
export interface TransportAnswer<T> {
  status: number;
  body: T;
}

/**
 * Sends one request of the API. `get` adds `businessId` to the query and `post` `header.businessId` to the
 * document when the call gives none (the transport knows its default business).
 */
export interface ApiTransport {
  get<T>(path: string, query?: Record<string, string | undefined>): Promise<TransportAnswer<T>>;
  post<T>(path: string, document: Record<string, unknown>): Promise<TransportAnswer<T>>;
}

/** What the API answers a link, checkout or payment call with. */
export type LinkEnvelope = Envelope<LinkBody>;
export type CheckoutEnvelope = Envelope<CheckoutBody>;
export type PaymentAnswerEnvelope = PaymentEnvelope<DirectPaymentBodyAnswer>;

/** A creation request's body, `{ transaction, link | checkout | card ... }`, as the provider takes it. */
export type RequestBody = Record<string, unknown>;

/** The kinds of resource a creation makes, by the route that creates them. */
export const CREATE_ROUTE = {
  link: 'links.create',
  checkout: 'checkouts.create',
  payment: 'payments.create',
  token: 'tokens.create',
  credit: 'credits.create',
} as const satisfies Record<string, RouteName>;

/** The follow-ups of a payment, by the route that makes them. */
export const FOLLOW_UP_ROUTE = { capture: 'payments.capture', cancel: 'payments.cancel', refund: 'payments.refund' } as const satisfies Record<
  string,
  RouteName
>;

export class PaylinkApi {
  constructor(readonly transport: ApiTransport) {}

  /** A `{header, body}` document; `header.businessId` only when given (the transport fills its default in), no body when none. */
  private document(body: RequestBody | undefined, businessId: string | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const document: Record<string, unknown> = { ...extra };
    if (businessId !== undefined) document.header = { businessId };
    if (body !== undefined) document.body = body;
    return document;
  }

  private query(businessId: string | undefined, more: Record<string, string | undefined> = {}): Record<string, string | undefined> {
    return businessId === undefined ? more : { businessId, ...more };
  }

  /** Creates a link, checkout, payment, token or credit from its request body (`action` for payments and credits). */
  create<T = unknown>(
    kind: keyof typeof CREATE_ROUTE,
    body: RequestBody,
    options: { businessId?: string | undefined; action?: string | undefined } = {},
  ): Promise<TransportAnswer<T>> {
    const extra = options.action === undefined ? {} : { action: options.action };
    return this.transport.post<T>(pathOf(CREATE_ROUTE[kind]), this.document(body, options.businessId, extra));
  }

  /** Posts a whole document (its own `header`, `action`) to the route that creates `kind`: fixtures send theirs as written. */
  createFrom<T = unknown>(kind: keyof typeof CREATE_ROUTE, document: Record<string, unknown>): Promise<TransportAnswer<T>> {
    return this.transport.post<T>(pathOf(CREATE_ROUTE[kind]), document);
  }

  readonly links = {
    create: (body: RequestBody, businessId?: string) => this.create<LinkEnvelope>('link', body, { businessId }),
    get: (linkId: string, businessId?: string) => this.transport.get<LinkEnvelope>(pathOfId('links.get', linkId), this.query(businessId)),
    cancel: (linkId: string, businessId?: string) => this.transport.post<LinkEnvelope>(pathOfId('links.cancel', linkId), this.document(undefined, businessId)),
  };

  readonly checkouts = {
    create: (body: RequestBody, businessId?: string) => this.create<CheckoutEnvelope>('checkout', body, { businessId }),
    get: (checkoutId: string, businessId?: string) => this.transport.get<CheckoutEnvelope>(pathOfId('checkouts.get', checkoutId), this.query(businessId)),
  };

  readonly payments = {
    create: (body: RequestBody, options: { action?: string; businessId?: string } = {}) =>
      this.create<PaymentAnswerEnvelope>('payment', body, { businessId: options.businessId, action: options.action ?? 'payment' }),
    get: (paymentId: string, businessId?: string) => this.transport.get<PaymentAnswerEnvelope>(pathOfId('payments.get', paymentId), this.query(businessId)),
    /** The payments with a tracking code. */
    byTrackingCode: <T = unknown>(trackingCode: string | undefined, businessId?: string) =>
      this.transport.get<T>(pathOf('payments.list'), this.query(businessId, { trackingCode })),
    /** Capture, cancel or refund, with `{ transaction }` (amount, currency) when given. */
    followUp: (verb: keyof typeof FOLLOW_UP_ROUTE, paymentId: string, body: RequestBody = {}, businessId?: string) =>
      this.transport.post<PaymentAnswerEnvelope>(pathOfId(FOLLOW_UP_ROUTE[verb], paymentId), this.document(body, businessId)),
    /** A follow-up from a whole document (`trigger --set` edits it as sent). */
    followUpFrom: (verb: keyof typeof FOLLOW_UP_ROUTE, paymentId: string, document: Record<string, unknown>) =>
      this.transport.post<PaymentAnswerEnvelope>(pathOfId(FOLLOW_UP_ROUTE[verb], paymentId), document),
  };

  readonly tokens = {
    create: <T = unknown>(body: RequestBody, businessId?: string) => this.create<T>('token', body, { businessId }),
    get: <T = unknown>(token: string, businessId?: string) => this.transport.get<T>(pathOfId('tokens.get', token), this.query(businessId)),
  };

  readonly credits = {
    create: (body: RequestBody, options: { action?: string; businessId?: string } = {}) =>
      this.create<PaymentAnswerEnvelope>('credit', body, { businessId: options.businessId, action: options.action }),
    get: (creditId: string, businessId?: string) => this.transport.get<PaymentAnswerEnvelope>(pathOfId('credits.get', creditId), this.query(businessId)),
  };
}
