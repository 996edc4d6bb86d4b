/**
 * The CLI's one HTTP client: the API v3 (contract 5) through {@link ApiClient}, and the sandbox-only
 * endpoints under `/__sandbox/` (clock, request log, reset) through {@link adminRequest}. Both send through
 * {@link send} and read envelopes through {@link readEnvelope}, so a sandbox that is down or a base URL that
 * is not an API gives the same errors everywhere. Every command but `paylink sandbox` reaches the sandbox
 * only through this module, so the same commands work against any deployment of the API.
 */
import type { ProgramOptions } from './flags.js';
import { resolveConnection, type GlobalFlags } from './config.js';
import type { Discovery } from './discovery.js';
import { ApiResponseError, CancelledError, UnreachableError, type ErrorEnvelope } from './errors.js';
import { httpRequest, type HttpAnswer, type HttpRequest, type Transport } from './http.js';
import { CLIENT_MARK_HEADER, type ClientTool } from '../sandbox/domain/client-mark.js';
import { PaylinkApi, type ApiTransport } from '../client/api.js';

export type { HttpAnswer } from './http.js';

export interface ApiClientOptions {
  /** API base URL, e.g. `http://127.0.0.1:8417` (no trailing slash needed). */
  baseUrl: string;
  /** The merchant: added as `businessId` to GET queries and as `header.businessId` to POST bodies. */
  businessId: string;
  /** HTTP Basic user name; sent on API calls only, never to hosted pages or the merchant. */
  username?: string | undefined;
  password?: string | undefined;
  /** Sends each request: a `fetch` (tests, proxies) or {@link httpRequest}. @default httpRequest */
  fetch?: Transport | undefined;
  /** Milliseconds before a request is abandoned. @default 30000 */
  timeoutMs?: number | undefined;
  /** A certificate or CA (PEM) trusted for https besides the system's (`--ca`, a found `--https` sandbox's). */
  ca?: string | undefined;
  /**
   * The request mark sent on every request to the sandbox (API and hosted pages, header `x-paylink-client`),
   * so the advisor tells paylink's own traffic from the merchant's code (docs/advisor.md).
   * @default "cli"
   */
  client?: ClientTool | undefined;
}

/** An answer of the API: the HTTP status and the parsed JSON envelope. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  /** What to do about a refusal the envelope does not explain (credentials), added to the error's message. */
  hint?: string | undefined;
}

/** How to start the local sandbox, appended to every "cannot reach" message. */
export const START_HINT = 'Is the sandbox running? Start it with `paylink sandbox`.';

/** The CLI's HTTP side of the API: marks, credentials, cookies, error messages; `api` is the typed client over it. */
export class ApiClient implements ApiTransport {
  readonly baseUrl: string;
  /** The typed API (src/client/api.ts), sending through this client. */
  readonly api: PaylinkApi = new PaylinkApi(this);
  readonly businessId: string;
  private readonly fetchImpl: Transport;
  private readonly authorization: string | undefined;
  private readonly username: string | undefined;
  private readonly timeoutMs: number;
  private readonly client: ClientTool;
  /** Cookies the hosted pages set, sent back like a browser would (per origin). */
  private readonly cookies = new Map<string, Map<string, string>>();

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.businessId = options.businessId;
    const transport = options.fetch ?? httpRequest;
    const ca = options.ca;
    this.fetchImpl = ca === undefined ? transport : (url, init) => transport(url, { ...init, ca });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.client = options.client ?? 'cli';
    this.username = options.username;
    this.authorization =
      options.username === undefined ? undefined : `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}`;
  }

  /** Absolute URL of an API path (`{api}/...`). */
  url(path: string): string {
    return /^https?:\/\//i.test(path) ? path : `${this.baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  /** GET an API path; `businessId` is added to the query unless it is there already. */
  async get<T = any>(path: string, query: Record<string, string | undefined> = {}): Promise<ApiResponse<T>> {
    const url = new URL(this.url(path));
    if (!('businessId' in query)) url.searchParams.set('businessId', this.businessId);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
    return this.json<T>(url.href, { method: 'GET', headers: this.apiHeaders() });
  }

  /** POST a `{header, body}` document; `header.businessId` is filled in when missing. */
  async post<T = any>(path: string, body: Record<string, unknown>): Promise<ApiResponse<T>> {
    const header = (body.header && typeof body.header === 'object' ? body.header : {}) as Record<string, unknown>;
    const document = { ...body, header: { businessId: this.businessId, ...header } };
    return this.json<T>(this.url(path), {
      method: 'POST',
      headers: { ...this.apiHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify(document),
    });
  }

  /**
   * Submits a hosted form exactly like a browser: urlencoded fields, cookies of that origin, and
   * `redirect: 'manual'` so the caller sees each 303 (3-D Secure, returnUrl).
   */
  async postForm(url: string, fields: Record<string, string | undefined>): Promise<HttpAnswer> {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.set(key, value);
    return this.page(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }

  /** GETs (or sends `init` to) a page as a browser would, without following redirects. */
  async page(url: string, init: HttpRequest = {}): Promise<HttpAnswer> {
    const target = new URL(url);
    const headers: Record<string, string> = { ...init.headers, accept: 'text/html,application/xhtml+xml', [CLIENT_MARK_HEADER]: this.client };
    const jar = this.cookies.get(target.origin);
    if (jar && jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await this.send(target.href, { ...init, headers, redirect: 'manual' });
    this.keepCookies(target.origin, response);
    return response;
  }

  /** GET a URL outside the API (the merchant's returnUrl); connection errors are the caller's to report. */
  async visit(url: string): Promise<HttpAnswer> {
    return this.fetchImpl(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
  }

  private apiHeaders(): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', [CLIENT_MARK_HEADER]: this.client };
    if (this.authorization) headers.authorization = this.authorization;
    return headers;
  }

  private keepCookies(origin: string, response: HttpAnswer): void {
    const list = response.headers.getSetCookie();
    if (list.length === 0) return;
    const jar = this.cookies.get(origin) ?? new Map<string, string>();
    for (const line of list) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    this.cookies.set(origin, jar);
  }

  private send(url: string, init: HttpRequest): Promise<HttpAnswer> {
    return send(this.fetchImpl, url, init, this.timeoutMs);
  }

  private async json<T>(url: string, init: HttpRequest): Promise<ApiResponse<T>> {
    // Something that answers without JSON is not the API: a wrong --base-url or another service on the port.
    const response = await this.send(url, init);
    const answer = await readEnvelope<T>(
      response,
      `${new URL(url).origin} answered HTTP ${response.status} without a JSON envelope: is --base-url (${this.baseUrl}) a paylink API? ${START_HINT}`,
    );
    const hint = this.credentialsHint(answer);
    return hint === undefined ? answer : { ...answer, hint };
  }

  /**
   * The provider's authentication failures say only "Security error." (docs/api.md): say what to pass.
   * 401: no credentials, or wrong ones; 403 with credentials: they do not own the business id.
   */
  private credentialsHint(answer: ApiResponse): string | undefined {
    const pass = 'pass --username and --password (or set PAYLINK_USERNAME and PAYLINK_PASSWORD)';
    if (answer.status === 401) {
      return this.username === undefined
        ? `The API requires HTTP Basic credentials (a sandbox started with --credentials): ${pass}.`
        : `The API refused the credentials of user "${this.username}": check them, or ${pass} as the sandbox's --credentials give them.`;
    }
    const message = (answer.body as ErrorEnvelope | undefined)?.body?.error?.message;
    if (answer.status === 403 && this.username !== undefined && message === 'Security error.') {
      return `User "${this.username}" does not own business "${this.businessId}": pass the --business-id of one it owns (as the sandbox's --credentials user:password=<businesses> list them).`;
    }
    return undefined;
  }
}

/** Sends a request; no HTTP answer (refused, DNS, timeout) is an {@link UnreachableError}. */
async function send(fetchImpl: Transport, url: string, init: HttpRequest, timeoutMs: number, signal?: AbortSignal): Promise<HttpAnswer> {
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    return await fetchImpl(url, { ...init, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    throw unreachable(url, error, timeoutMs);
  }
}

/** Parses an answer's JSON envelope; an answer that is not JSON is an {@link UnreachableError} saying `notJson`. */
async function readEnvelope<T>(response: HttpAnswer, notJson: string): Promise<ApiResponse<T>> {
  const text = await response.text();
  // The provider answered a GET of an unknown payment id with a bare 404, and so does the sandbox.
  if (response.status === 404 && text === '') return { status: 404, body: undefined as T };
  try {
    return { status: response.status, body: JSON.parse(text) as T };
  } catch {
    throw new UnreachableError(notJson);
  }
}

/** The error for a request that got no HTTP answer (refused, DNS, timeout). */
export function unreachable(url: string, error: unknown, timeoutMs?: number): UnreachableError {
  if ((error as Error)?.name === 'TimeoutError' && timeoutMs !== undefined) {
    return new UnreachableError(
      `${new URL(url).origin} did not answer within ${timeoutMs / 1000} s. Is it a paylink sandbox or API? Give it longer with --timeout <seconds>.`,
    );
  }
  const reason = networkReason(error);
  if (isTlsTrustProblem(reason)) {
    return new UnreachableError(
      `${new URL(url).origin} answered, but its TLS certificate is not trusted (${reason}): a TLS trust problem, not a sandbox that is down. ` +
        'Pass the certificate or its CA with --ca <file> (or PAYLINK_CA, or NODE_EXTRA_CA_CERTS); commands run from the folder a `paylink sandbox --https` was started in trust its certificate themselves.',
    );
  }
  if (reason === 'EPROTO' || /wrong version number|packet length too long/i.test(reason)) {
    return new UnreachableError(
      `${new URL(url).origin} answered, but not in the protocol asked for (${reason}): is it http rather than https, or the other way round? Check the scheme of --base-url.`,
    );
  }
  return new UnreachableError(`Cannot reach ${new URL(url).origin} (${reason}). ${START_HINT}`);
}

/** The TLS verification errors of Node and OpenSSL: the server answered, its certificate was refused. */
function isTlsTrustProblem(reason: string): boolean {
  return /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_UNTRUSTED|CERT_SIGNATURE_FAILURE|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)$/.test(
    reason,
  );
}

type NetworkError = { code?: unknown; message?: string; errors?: { code?: unknown }[] };

/**
 * Why a request got no answer, in a word or two: `ECONNREFUSED`, `ENOTFOUND`, `timed out`. Reads the
 * system error of {@link httpRequest} (an AggregateError when every address of a host refused), or the
 * `cause` that `fetch` wraps it in.
 */
export function networkReason(error: unknown): string {
  if ((error as Error)?.name === 'TimeoutError') return 'timed out';
  const e = error as (NetworkError & { cause?: NetworkError }) | null;
  const code = [e?.cause?.code, e?.cause?.errors?.[0]?.code, e?.code, e?.errors?.[0]?.code].find((c): c is string => typeof c === 'string');
  return code ?? e?.cause?.message ?? e?.message ?? String(error);
}

/**
 * True for the status read of a checkout that ended declined (-4) or declined by the customer (-10): the
 * API answers it with HTTP 400, as its result code says, yet it carries the checkout, so reading it
 * succeeded. An error answer of a failed request never carries `body.checkout`.
 */
function isCheckoutStatus(body: unknown): boolean {
  const inner = (body as { body?: { checkout?: unknown } } | null)?.body;
  return typeof inner === 'object' && inner !== null && typeof inner.checkout === 'object' && inner.checkout !== null;
}

/** Returns the response when its status is 2xx (or it is a checkout's status), else throws the API error it carries (exit code 3). */
export function expectOk<T>(response: ApiResponse<T>, context?: string): ApiResponse<T> {
  if (response.status >= 200 && response.status < 300) return response;
  if (response.status === 400 && isCheckoutStatus(response.body)) return response;
  const error = ApiResponseError.fromEnvelope(response.status, response.body as ErrorEnvelope, context);
  if (response.hint === undefined) throw error;
  throw new ApiResponseError(`${error.message} ${response.hint}`, error.status, error.envelope);
}

/** Where the admin calls go: a sandbox and, when it is not on loopback, its admin token. */
export interface AdminConnection {
  /** Sandbox base URL. */
  baseUrl: string;
  /** `--admin-token` / `PAYLINK_ADMIN_TOKEN`: needed when the sandbox is not on loopback. */
  adminToken?: string | undefined;
  /** Sends each request (tests). @default httpRequest */
  fetch?: Transport | undefined;
  /** @default 30000 */
  timeoutMs?: number | undefined;
  /** The request mark (`x-paylink-client`) sent with each request. @default "cli" */
  client?: ClientTool | undefined;
  /** A certificate or CA (PEM) trusted for https besides the system's. */
  ca?: string | undefined;
}

/** Headers of every admin request: JSON, the request mark, and the admin token when there is one. */
function adminHeaders(conn: AdminConnection): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', [CLIENT_MARK_HEADER]: conn.client ?? 'cli' };
  if (conn.adminToken) headers['x-paylink-admin-token'] = conn.adminToken;
  return headers;
}

export interface AdminRequestOptions {
  /** Milliseconds before this request is abandoned. @default the connection's timeoutMs */
  timeoutMs?: number | undefined;
  /** Aborts the request (a follower stopped with Ctrl-C). */
  signal?: AbortSignal | undefined;
}

/** Sends a request to an admin endpoint and parses its envelope; throws for no answer or a non-JSON one. */
export async function adminRequest<T = any>(
  conn: AdminConnection,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: AdminRequestOptions = {},
): Promise<ApiResponse<T>> {
  const url = `${conn.baseUrl.replace(/\/+$/, '')}${path}`;
  const headers = adminHeaders(conn);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init: HttpRequest = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), ca: conn.ca };
  const response = await send(conn.fetch ?? httpRequest, url, init, options.timeoutMs ?? conn.timeoutMs ?? 30_000, options.signal);
  return readEnvelope<T>(response, `${new URL(url).origin} answered HTTP ${response.status} without a JSON envelope: is it a paylink sandbox?`);
}

/**
 * The year of the sandbox clock (`GET /__sandbox/clock`), which judges a card's expiry: a default expiry
 * counted from it stays in the future after `paylink clock advance`. This machine's year when the base URL
 * is not a paylink sandbox's, refuses the request (an admin token not given) or does not answer: the API
 * call that follows reports an unreachable sandbox itself.
 */
export async function clockYear(conn: AdminConnection): Promise<number> {
  try {
    const response = await adminRequest<{ body?: { now?: unknown } }>(conn, 'GET', '/__sandbox/clock');
    const now = response.status === 200 && typeof response.body?.body?.now === 'string' ? Date.parse(response.body.body.now) : Number.NaN;
    if (!Number.isNaN(now)) return new Date(now).getUTCFullYear();
  } catch {
    // Not a sandbox, or no answer: this machine's year.
  }
  return new Date().getUTCFullYear();
}

/** Like {@link adminRequest}, but a non-2xx answer throws (exit code 3), with a hint for a 401. */
export async function adminOk<T = any>(
  conn: AdminConnection,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: AdminRequestOptions = {},
): Promise<T> {
  const response = await adminRequest<T>(conn, method, path, body, options);
  if (response.status >= 200 && response.status < 300) return response.body;
  const error = ApiResponseError.fromEnvelope(response.status, response.body as ErrorEnvelope, `${method} ${path}`);
  if (response.status === 401) {
    throw new ApiResponseError(
      `${error.message} The sandbox requires its admin token here: pass --admin-token or set PAYLINK_ADMIN_TOKEN (paylink sandbox prints it).`,
      401,
      error.envelope,
    );
  }
  throw error;
}

/** What an id names, as the sandbox knows it. */
export type IdKind = 'link' | 'checkout' | 'payment' | 'credit' | 'token';

/**
 * Asks the sandbox what `id` names for `businessId` (`GET /__sandbox/resolve/:id`): a kind, or null when
 * nothing has that id. Undefined when it cannot say (an API that is not the sandbox, an admin token
 * required and not given): the caller then asks the API for each kind in turn, as before.
 */
export async function resolveKind(conn: AdminConnection, id: string, businessId: string): Promise<IdKind | null | undefined> {
  const url = `${conn.baseUrl.replace(/\/+$/, '')}/__sandbox/resolve/${encodeURIComponent(id)}?businessId=${encodeURIComponent(businessId)}`;
  const headers = adminHeaders(conn);
  const response = await send(conn.fetch ?? httpRequest, url, { method: 'GET', headers, ca: conn.ca }, conn.timeoutMs ?? 30_000);
  const text = await response.text();
  if (response.status !== 200) return undefined;
  try {
    const kind = (JSON.parse(text) as { body?: { kind?: unknown } }).body?.kind;
    return kind === null || kind === 'link' || kind === 'checkout' || kind === 'payment' || kind === 'credit' || kind === 'token' ? kind : undefined;
  } catch {
    return undefined;
  }
}

/** Flags of the admin commands (global ones included, as commander's `optsWithGlobals` gives them). */
export type AdminFlags = Partial<Pick<ProgramOptions, 'baseUrl' | 'adminToken' | 'json'>>;

/** Base URL as the API commands resolve it (flag > env > config file > default), and the admin token. */
export function adminConnectionOf(
  flags: AdminFlags & GlobalFlags,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
  discovery?: Discovery,
): AdminConnection {
  const connection = resolveConnection(flags, env, cwd, discovery);
  const token = flags.adminToken ?? (env.PAYLINK_ADMIN_TOKEN || undefined) ?? connection.entryAdminToken;
  return { baseUrl: connection.baseUrl, adminToken: token, timeoutMs: connection.timeoutMs, ca: connection.ca };
}
