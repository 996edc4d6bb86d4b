/**
 * `createTestSandbox()`: a sandbox in this process for one test file (or a whole suite through a global
 * setup), on port 0 and an in-memory database unless told otherwise, with a typed client for its API, its
 * clock, snapshots and per-business resets. It talks HTTP to the sandbox as the merchant's code does, and
 * marks its requests `x-paylink-client: testing` so the integration advisor judges only the merchant's own.
 *
 * The public types here depend on nothing but Node's: none of the sandbox's internals (SQLite, h3) leak
 * into a consumer's type check.
 */
import { startSandbox } from '../sandbox/index.js';
import { PaylinkApi, type ApiTransport } from '../client/api.js';
import { pathOf, pathWithQuery } from '../sandbox/domain/routes.js';

export interface TestSandboxOptions {
  /**
   * SQLite database file, or `:memory:`.
   * @default ":memory:"
   */
  db?: string;
  /**
   * The business id the client sends when a call names none.
   * @default "test-business"
   */
  businessId?: string;
  /** Seed for reproducible ids and approval codes (`paylink sandbox --deterministic`). */
  seed?: string;
  /** The webhook secret; else one is generated (read it from `webhookSecret`). */
  webhookSecret?: string;
  /**
   * Webhook retry schedule: `fast` retries within about 5 s, `standard` as the provider (5 s up to 6 h).
   * @default "fast"
   */
  webhookRetry?: 'fast' | 'standard';
  /**
   * Port to listen on.
   * @default 0 (a free one)
   */
  port?: number;
}

/** The provider's answer envelope with the HTTP status it came with. */
export interface ApiAnswer<B = Record<string, unknown>> {
  /** HTTP status. */
  status: number;
  /** 0 Ok, 1 Pending, 2 Waiting, 4 Timeout, negative for failures. */
  result: number;
  description: string;
  header: { requestTimestamp?: string; requestCode?: string; businessId?: string; [key: string]: unknown };
  body: B;
}

/** Fields the provider's `transaction` object takes (others pass through). */
export interface TransactionInput {
  amount: number | string;
  currencyCode: string;
  trackingCode?: string;
  authorizationMode?: 'payment' | 'authorize';
  brandId?: number;
  notifyUrl?: string;
  returnUrl?: string;
  token?: string;
  tokenize?: boolean;
  [field: string]: unknown;
}

/** A card in a request. */
export interface CardInput {
  number: string;
  expiryMonth: string | number;
  expiryYear: string | number;
  cvv?: string;
  holderName: string;
  [field: string]: unknown;
}

export interface LinkInput {
  transaction: TransactionInput;
  link: { returnUrl: string; brandIds: number[]; duration?: string; tokenize?: 'false' | 'inquire' | 'true' | boolean; [field: string]: unknown };
  [field: string]: unknown;
}

export interface CheckoutInput {
  transaction: TransactionInput;
  checkout: { returnUrl: string; brandIds: number[]; tokenize?: 'false' | 'inquire' | 'true' | boolean; [field: string]: unknown };
  [field: string]: unknown;
}

export interface PaymentInput {
  transaction: TransactionInput;
  card?: CardInput;
  [field: string]: unknown;
}

/** A link or checkout's hosted page, as creation answers it. */
export interface Redirect {
  method: string;
  url: string;
}

export interface LinkBody {
  link: { linkId: string; redirect: Redirect; expirationTime: string; status?: string; [field: string]: unknown };
  transaction: Record<string, unknown>;
  [field: string]: unknown;
}

export interface CheckoutBody {
  checkout: { checkoutId: string; redirect: Redirect; expirationTime: string; tokenize?: string; [field: string]: unknown };
  transaction: Record<string, unknown>;
  [field: string]: unknown;
}

export interface PaymentBody {
  id: string;
  trackingCode?: string;
  transaction: Record<string, unknown>;
  card?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface TokenBody {
  token: string;
  [field: string]: unknown;
}

/** A typed client of the sandbox's API (`{api}/...`); `businessId` defaults to the sandbox's. */
export interface ApiClient {
  links: {
    create(input: LinkInput, businessId?: string): Promise<ApiAnswer<LinkBody>>;
    get(linkId: string, businessId?: string): Promise<ApiAnswer<LinkBody>>;
    cancel(linkId: string, businessId?: string): Promise<ApiAnswer<LinkBody>>;
  };
  checkouts: {
    create(input: CheckoutInput, businessId?: string): Promise<ApiAnswer<CheckoutBody>>;
    get(checkoutId: string, businessId?: string): Promise<ApiAnswer<CheckoutBody>>;
  };
  payments: {
    /** A payment by card or token (`action` `payment` or `authorize`). */
    create(input: PaymentInput, options?: { action?: 'payment' | 'authorize'; businessId?: string }): Promise<ApiAnswer<PaymentBody>>;
    get(paymentId: string, businessId?: string): Promise<ApiAnswer<PaymentBody>>;
    capture(paymentId: string, input?: { amount?: number; currencyCode?: string }, businessId?: string): Promise<ApiAnswer<PaymentBody>>;
    refund(paymentId: string, input?: { amount?: number; currencyCode?: string }, businessId?: string): Promise<ApiAnswer<PaymentBody>>;
    cancel(paymentId: string, businessId?: string): Promise<ApiAnswer<PaymentBody>>;
  };
  tokens: {
    create(input: { brandId: number; card: CardInput; [field: string]: unknown }, businessId?: string): Promise<ApiAnswer<TokenBody>>;
    get(token: string, businessId?: string): Promise<ApiAnswer<TokenBody>>;
  };
  /** Any request: `path` under the sandbox's URL; a POST body is sent as JSON. */
  request<B = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<B>>;
}

export interface TestSandbox {
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The business id the client uses by default. */
  readonly businessId: string;
  /** The secret webhook events are signed with (give it to {@link webhookReceiver}). */
  readonly webhookSecret: string;
  readonly api: ApiClient;
  readonly clock: {
    /** Moves the sandbox clock: `31m`, `2h`, `1d`, `PT31M` or milliseconds; answers the new time (ISO 8601). */
    advance(step: string | number): Promise<string>;
    /** Sets the clock to an ISO 8601 time, standing still there with `freeze`. */
    set(iso: string, options?: { freeze?: boolean }): Promise<string>;
    /** Back to the wall clock. */
    reset(): Promise<string>;
    /** The sandbox time now (ISO 8601). */
    now(): Promise<string>;
  };
  /** Registers a webhook endpoint for a business (default: the sandbox's); answers its hookId. */
  addWebhook(url: string, options?: { businessId?: string; events?: Array<'Transaction.Create' | 'Transaction.Update'> }): Promise<string>;
  /** Saves the whole state under `name` (docs/testing.md). */
  snapshot(name?: string): Promise<void>;
  /** Puts the state saved under `name` back: everything written since is gone. */
  restore(name?: string): Promise<void>;
  /**
   * Deletes one business's data (default: the sandbox's), leaving every other business as it is; resolves
   * with the business and the rows deleted per table (`{ businessId, deleted: { payments: 3, ... } }`).
   */
  resetBusiness(businessId?: string): Promise<{ businessId: string; deleted: Record<string, number> }>;
  /** Stops the sandbox (and deletes an in-memory database). */
  close(): Promise<void>;
}

/** An answer the helpers expected to be Ok and was not. */
export class SandboxRequestError extends Error {
  constructor(
    message: string,
    readonly answer: ApiAnswer<unknown>,
  ) {
    super(message);
    this.name = 'SandboxRequestError';
  }
}

const MARK = { 'x-paylink-client': 'testing' };

/** Starts a sandbox in this process and resolves once it answers. */
export async function createTestSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const running = await startSandbox({
    port: options.port ?? 0,
    db: options.db ?? ':memory:',
    webhookRetry: options.webhookRetry ?? 'fast',
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.webhookSecret !== undefined ? { webhookSecret: options.webhookSecret } : {}),
  });
  const url = running.url;
  const businessId = options.businessId ?? 'test-business';

  async function request<B>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<B>> {
    const response = await fetch(url + path, {
      method,
      headers: body === undefined ? MARK : { ...MARK, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    // The provider answers some unknown ids with a bare 404 (no body): the same shape, result -2 Not found.
    if (text.trim() === '')
      return {
        status: response.status,
        result: response.status === 404 ? -2 : -1,
        description: response.status === 404 ? 'Not found' : `HTTP ${response.status}`,
        header: {},
        body: {} as B,
      };
    let parsed: Omit<ApiAnswer<B>, 'status'>;
    try {
      parsed = JSON.parse(text) as Omit<ApiAnswer<B>, 'status'>;
    } catch {
      throw new Error(`${method} ${path} answered HTTP ${response.status} without JSON: ${text.slice(0, 200)}`);
    }
    // A top-level array (payments by tracking code) is kept as the body.
    if (Array.isArray(parsed)) return { status: response.status, result: 0, description: 'Ok', header: {}, body: parsed as unknown as B };
    return { ...parsed, status: response.status };
  }
  // The typed API (src/client/api.ts) over this kit's fetch: each answer is the kit's ApiAnswer, carried whole.
  const transport: ApiTransport = {
    get: async <T>(path: string, query: Record<string, string | undefined> = {}) => {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries({ businessId, ...query })) if (value !== undefined) search.set(key, value);
      const answer = await request('GET', `${path}?${search}`);
      return { status: answer.status, body: answer as T };
    },
    post: async <T>(path: string, document: Record<string, unknown>) => {
      const answer = await request('POST', path, document);
      return { status: answer.status, body: answer as T };
    },
  };
  const typed = new PaylinkApi(transport);
  /** The kit's answer of a typed call. */
  const answer = async <B>(sent: Promise<{ body: unknown }>): Promise<ApiAnswer<B>> => (await sent).body as ApiAnswer<B>;
  async function admin<B>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<B> {
    const answer = await request<B>(method, path, body);
    if (answer.result !== 0 || answer.status >= 400) {
      const detail = (answer.body as { error?: { message?: string } } | undefined)?.error?.message ?? answer.description;
      throw new SandboxRequestError(`${method} ${path}: ${detail}`, answer);
    }
    return answer.body;
  }
  const clockNow = (body: { now: string }) => body.now;

  const api: ApiClient = {
    links: {
      create: (input, biz) => answer(typed.links.create(input, biz ?? businessId)),
      get: (id, biz) => answer(typed.links.get(id, biz ?? businessId)),
      cancel: (id, biz) => answer(typed.links.cancel(id, biz ?? businessId)),
    },
    checkouts: {
      create: (input, biz) => answer(typed.checkouts.create(input, biz ?? businessId)),
      get: (id, biz) => answer(typed.checkouts.get(id, biz ?? businessId)),
    },
    payments: {
      create: (input, opts = {}) => answer(typed.payments.create(input, { action: opts.action ?? 'payment', businessId: opts.businessId ?? businessId })),
      get: (id, biz) => answer(typed.payments.get(id, biz ?? businessId)),
      capture: (id, input = {}, biz) => answer(typed.payments.followUp('capture', id, { transaction: input }, biz ?? businessId)),
      refund: (id, input = {}, biz) => answer(typed.payments.followUp('refund', id, { transaction: input }, biz ?? businessId)),
      cancel: (id, biz) => answer(typed.payments.followUp('cancel', id, {}, biz ?? businessId)),
    },
    tokens: {
      create: (input, biz) => answer(typed.tokens.create(input, biz ?? businessId)),
      get: (token, biz) => answer(typed.tokens.get(token, biz ?? businessId)),
    },
    request,
  };

  let closed = false;
  return {
    url,
    businessId,
    webhookSecret: running.webhooks.secret,
    api,
    clock: {
      advance: async (step) => clockNow(await admin('POST', pathOf('admin.clock.set'), { advance: step })),
      set: async (iso, opts = {}) => clockNow(await admin('POST', pathOf('admin.clock.set'), { set: iso, freeze: opts.freeze === true })),
      reset: async () => clockNow(await admin('POST', pathOf('admin.clock.set'), { reset: true })),
      now: async () => clockNow(await admin('GET', pathOf('admin.clock'))),
    },
    async addWebhook(target, opts = {}) {
      const body = await admin<{ endpoint: { hookId: string } }>('POST', pathOf('admin.webhooks.add'), {
        businessId: opts.businessId ?? businessId,
        url: target,
        ...(opts.events !== undefined ? { events: opts.events } : {}),
      });
      return body.endpoint.hookId;
    },
    async snapshot(name = 'default') {
      await admin('POST', pathOf('admin.snapshots.save'), { name });
    },
    async restore(name = 'default') {
      await admin('POST', pathOf('admin.snapshots.restore', { name }), {});
    },
    async resetBusiness(biz = businessId) {
      return admin<{ businessId: string; deleted: Record<string, number> }>('POST', pathWithQuery('admin.reset', {}, { businessId: biz }), {});
    },
    async close() {
      if (closed) return;
      closed = true;
      await running.close();
    },
  };
}
