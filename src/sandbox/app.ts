/**
 * Builds the sandbox's h3 app from its parts, and never listens (see `index.ts`). A request passes through
 * named stages, in this order:
 *
 *   target     the request target read: origin-form, or absolute-form (`GET http://host/path`) made origin-form
 *   route      the route for the method and path (404, 405 with `Allow`)
 *   host       the Host check against DNS rebinding (421)
 *   delivery   a webhook delivery that reached a sandbox changes nothing (the delivery mark)
 *   access     the route's declared access: admin token and loopback for `admin`, cross-site checks of
 *              state-changing requests, HTTP Basic credentials for `merchant`
 *   fault      the API fault that fires, if any (http/fault-stage.ts: ALL fault behaviour)
 *   handler    the route's handler, given the services and facts only (`RouteRequest`)
 *   error      a thrown error becomes the envelope or an HTML page, by the route's rendering
 *   answer     the reply written (or withheld, or delayed, by the fault)
 *   observe    the observers told (the request log, with the route's name and parameters)
 *
 * The pipeline is one h3 event handler, and `app` the h3 app that holds it (for embedding, or for
 * `toNodeListener`); the path matching is the sandbox's own router (http/router.ts says why).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApp, createEvent, eventHandler, type App, type H3Event } from 'h3';
import type { Sandbox } from './context.js';
import { errorEnvelope } from './http/envelope.js';
import { ApiError, deliveryRefused, internalError, routeNotFound, methodNotAllowed, storageFailed } from './errors.js';
import { DELIVERY_MARK_HEADER } from './domain/own-address.js';
import { storageFailure } from './store/failures.js';
import { businessIdFromBody, businessIdFromQuery, parseJsonObject, readRawBody } from './http/request.js';
import { authenticate, authorize, checkAdminAccess, HostCheck, refuseCrossOrigin } from './http/guards.js';
import {
  JSON_CONTENT_TYPE,
  Reply,
  Router,
  bindRoutes,
  type Access,
  type BoundRoute,
  type Rendering,
  type RouteMatch,
  type RouteRequest,
  type SandboxView,
} from './http/router.js';
import { readClientMark } from './http/client-mark.js';
import type { ObservedRequest, RequestObserver } from './http/observe.js';
import type { JsonObject } from './http/fields.js';
import { faultStage, type Fired } from './http/fault-stage.js';
import { unauthorized } from './errors.js';
import { apiRoutes } from './api/index.js';
import { adminRoutes } from './admin/routes.js';
import { dashboardRoutes } from './admin/dashboard.js';
import { webhookRoutes } from './admin/webhooks.js';
import { webhookDashboardRoutes } from './admin/webhooks-dashboard.js';
import { faultRoutes } from './admin/faults.js';
import { customEventRoutes } from './admin/custom-events.js';
import { faultDashboardRoutes } from './admin/faults-dashboard.js';
import { snapshotDashboardRoutes } from './admin/snapshots-dashboard.js';
import { webRoutes, renderErrorPage } from './web/index.js';
import { unmatchedRender } from './domain/routes.js';

export interface BuiltApp {
  /** The h3 app: the pipeline as its one event handler (for embedding in another h3 or nitro app). */
  app: App;
  /** The Node listener `startSandbox` serves: the request target made origin-form, then the pipeline. */
  nodeListener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Adds an observer of answered requests. */
  observe(observer: RequestObserver): void;
  /** Ends the connections API faults hold or delay (the sandbox is stopping). */
  releaseHeld(): void;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

/** Every route the sandbox serves, in one list: the handlers bound to the route table (domain/routes.ts). */
export function allRoutes(): BoundRoute[] {
  return bindRoutes([
    ...apiRoutes,
    ...webRoutes,
    ...adminRoutes,
    ...webhookRoutes,
    ...customEventRoutes,
    ...faultRoutes,
    ...dashboardRoutes,
    ...webhookDashboardRoutes,
    ...faultDashboardRoutes,
    ...snapshotDashboardRoutes,
  ]);
}

/** What the handler's services and facts are, for one sandbox: never its repositories (http/router.ts). */
function viewOf(sandbox: Sandbox): SandboxView {
  const config = {
    get adminToken() {
      return sandbox.config.adminToken;
    },
  };
  return {
    services: sandbox.services,
    clock: { now: () => sandbox.clock.now(), nowIso: () => sandbox.clock.nowIso() },
    ids: sandbox.ids,
    get baseUrl() {
      return sandbox.baseUrl;
    },
    config,
  };
}

/** One request on its way through the stages. */
interface Exchange {
  readonly event: H3Event;
  readonly method: string;
  readonly path: string;
  readonly observed: ObservedRequest;
  match?: RouteMatch | undefined;
  route?: BoundRoute | undefined;
  access?: Access | undefined;
  rendering?: Rendering | undefined;
  request?: RouteRequest | undefined;
  fired?: Fired | undefined;
  /** Undefined only when a fault that does not act (timeout, reset) fired: there is no answer at all. */
  reply?: Reply | undefined;
}

/**
 * {@link RouteRequest} as the pipeline makes it, one per request: a class, so its methods are shared
 * instead of three closures allocated per request.
 */
class PipelineRequest implements RouteRequest {
  readonly event: H3Event;
  readonly services: SandboxView['services'];
  readonly params: Record<string, string>;
  readonly path: string;
  /** The businesses the credentials own (undefined: any), set by the access stage. */
  owned: Set<string> | undefined;
  private jsonBody: Promise<JsonObject> | undefined;
  private parsedQuery: URLSearchParams | undefined;
  private readonly observed: ObservedRequest;

  constructor(
    x: Exchange,
    readonly sandbox: SandboxView,
    private readonly queryText: string,
  ) {
    this.event = x.event;
    this.observed = x.observed;
    this.services = sandbox.services;
    this.params = x.match!.params;
    this.path = x.path;
  }

  /** Parsed when first read: most API requests are a POST without a query, or read one parameter. */
  get query(): URLSearchParams {
    this.parsedQuery ??= new URLSearchParams(this.queryText);
    return this.parsedQuery;
  }

  json(): Promise<JsonObject> {
    this.jsonBody ??= readRawBody(this.event.node.req).then((raw) => {
      const { value, text } = parseJsonObject(raw);
      // The text only: observers read the body as received, and the request log keeps this entry as it is.
      this.observed.requestJson = text;
      return value;
    });
    return this.jsonBody;
  }

  businessFromBody(body: JsonObject): string {
    const id = businessIdFromBody(body);
    this.observed.businessId = id;
    authorize(this.owned, id);
    return id;
  }

  businessFromQuery(): string {
    const id = businessIdFromQuery(this.query);
    this.observed.businessId = id;
    authorize(this.owned, id);
    return id;
  }
}

export function createSandboxApp(sandbox: Sandbox): BuiltApp {
  const router = new Router(allRoutes());
  const observers: RequestObserver[] = [];
  const view = viewOf(sandbox);
  const hosts = new HostCheck(sandbox);
  const faults = faultStage(sandbox.faults, sandbox.timers);

  // ---- The stages ----

  /** route: the route for the method and path, or 404 / 405 with the methods the path takes. */
  const routeStage = (x: Exchange): void => {
    const { match, allowed } = router.match(x.method, x.path);
    if (!match) {
      if (allowed.length > 0) throw methodNotAllowed(x.method, x.path, allowed);
      throw routeNotFound(x.method, x.path);
    }
    x.match = match;
    x.route = match.route;
    x.access = match.facts.access;
    x.rendering = match.facts.rendering;
    x.observed.kind = match.route.kind;
    x.observed.route = { name: match.facts.name, params: match.params };
  };

  /** host: 421 for a Host no name of this sandbox (DNS rebinding). */
  const hostStage = (x: Exchange): void => hosts.check(x.event.node.req.headers.host);

  /**
   * delivery: a webhook delivery that reached a sandbox anyway (its public URL, a tunnel, another sandbox
   * on this machine) changes nothing: the admin API trusts loopback, and no route takes an event.
   */
  const deliveryStage = (x: Exchange): void => {
    if (x.event.node.req.headers[DELIVERY_MARK_HEADER] !== undefined) throw deliveryRefused();
  };

  /**
   * access: the admin token (and loopback names without one) for `admin` routes, with the cross-site check
   * of their state-changing requests; for `merchant` routes the cross-site check of state-changing
   * requests (servers send no Origin) and the HTTP Basic credentials. Sets the businesses the
   * credentials own (undefined: any); returns a reply that ends the request (the dashboard's token cookie).
   */
  const accessStage = (x: Exchange, request: PipelineRequest): Reply | undefined => {
    if (x.access === 'admin') {
      checkAdminAccess(sandbox, x.event, request.query);
      return x.rendering === 'page' ? tokenCookie(x, request.query) : undefined;
    }
    if (x.access === 'merchant') {
      if (x.method !== 'GET' && x.method !== 'HEAD') refuseCrossOrigin(sandbox, x.event);
      request.owned = authenticate(sandbox, x.event.node.req.headers.authorization);
    }
    return undefined;
  };

  /**
   * A valid `?token=` on a dashboard page becomes a cookie and the page is reloaded without it, so the
   * token does not stay in the address bar, the history or a Referer.
   */
  const tokenCookie = (x: Exchange, query: URLSearchParams): Reply | undefined => {
    const token = query.get('token');
    const expected = sandbox.config.adminToken;
    if (token === null || expected === undefined || x.method !== 'GET') return undefined;
    // A bearer or header may have passed the check: only the real token becomes the cookie (a wrong one
    // could carry cookie attributes, or characters no header may hold).
    if (token !== expected) throw unauthorized();
    const rest = new URLSearchParams(query);
    rest.delete('token');
    // One leading slash: the router ignores empty segments, and `//__sandbox/...` as a Location names a host.
    const target = `/${x.path.replace(/^[/\\]+/, '')}${rest.size > 0 ? `?${rest}` : ''}`;
    const secure = sandbox.baseUrl.startsWith('https:') ? '; Secure' : '';
    return Reply.redirect(target, 303, {
      'set-cookie': `paylink_admin=${encodeURIComponent(expected)}; HttpOnly; SameSite=Strict; Path=/${secure}`,
      'cache-control': 'no-store',
    });
  };

  /** handler: the route's handler; a plain value is a 200 JSON answer. */
  const replyOf = (value: unknown): Reply => (value instanceof Reply ? value : Reply.json(200, value as object));
  /** A synchronous handler's answer is used as it is: no promise, no extra turn of the microtask queue. */
  const handlerStage = (x: Exchange): Reply | Promise<Reply> => {
    const value = x.route!.handler(x.request!);
    return value instanceof Promise ? value.then(replyOf) : replyOf(value);
  };

  /** error: what a thrown error answers, by the route's rendering. */
  const errorStage = (x: Exchange, error: unknown): Reply => errorReply(sandbox, view, error, x.rendering, x.path);

  /** observe: every observer told, none able to break another. */
  const observeStage = (x: Exchange, startedAt: number): void => {
    x.observed.durationMs = performance.now() - startedAt;
    for (const observer of observers) {
      try {
        observer(x.observed);
      } catch (error) {
        console.error('paylink: a request observer failed:', error);
      }
    }
  };

  // ---- The pipeline ----

  const handle = async (event: H3Event): Promise<void> => {
    const startedAt = performance.now();
    const method = event.method;
    const rawUrl = event.node.req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const queryText = q < 0 ? '' : rawUrl.slice(q + 1);
    const observed: ObservedRequest = { method, path, query: queryText, status: 200, kind: 'unmatched', startedAt: sandbox.clock.now(), durationMs: 0 };
    const client = readClientMark(event.node.req.headers);
    if (client !== undefined) observed.client = client;
    // Whether credentials were sent at all (the advisor's sends-no-credentials); their value is never kept.
    observed.authorization = event.node.req.headers.authorization !== undefined;
    const x: Exchange = { event, method, path, observed };

    try {
      routeStage(x);
      hostStage(x);
      deliveryStage(x);
      // The request a handler gets: its services and facts, the parameters, the body read once.
      const request = new PipelineRequest(x, view, queryText);
      x.request = request;
      const reply = accessStage(x, request);
      if (reply !== undefined) x.reply = reply;
      else {
        if (x.access === 'merchant' && faults.active) x.fired = await faults.before(x.request, observed);
        if (faults.runsHandler(x.fired)) {
          const reply = handlerStage(x);
          x.reply = reply instanceof Reply ? reply : await reply;
        }
      }
    } catch (error) {
      x.reply = errorStage(x, error);
    }

    if (x.fired !== undefined && (await faults.after(x.fired, event.node.req.socket, observed, x.reply?.status))) {
      // The answer is withheld: nothing more goes to this connection.
      event._handled = true;
      observeStage(x, startedAt);
      return;
    }
    if (x.reply === undefined) return;

    observed.status = x.reply.status;
    if (x.reply.status >= 300 && x.reply.status < 400 && x.reply.headers.location !== undefined) observed.location = x.reply.headers.location;
    const json = send(event, x.reply);
    // The answer's text, as sent: the parsed answer only where there is no text (the request log keeps the
    // entry as it is, so it holds no object graph it does not need).
    if (json !== undefined) observed.responseJson = json;
    else if (x.reply.body !== null && typeof x.reply.body === 'object' && !Buffer.isBuffer(x.reply.body)) observed.responseBody = x.reply.body;
    observeStage(x, startedAt);
  };

  /** Only a failure to write the answer gets here (every stage's error became a reply). */
  const failed = (event: H3Event, error: unknown): void => {
    sandbox.reportUnexpected(event.node.req.url ?? '/', error);
    if (!event.node.res.headersSent) event.node.res.writeHead(500).end();
  };
  const app = createApp({ onError: (error, event) => failed(event, error.cause ?? error) });
  app.use(eventHandler(handle));

  // `startSandbox` serves the same handler without h3's layer walk: the app has one handler at `/`, so the
  // walk adds nothing but its path decoding and two async frames, and measured 7-8% more CPU per GET
  // (CPU time of the server per request, the two builds alternated, 2026-11-26). `toNodeListener(app)`
  // serves the same pipeline (test/integration/h3-app.test.ts).
  const nodeListener = (req: IncomingMessage, res: ServerResponse): void => {
    originForm(req);
    const event = createEvent(req, res);
    handle(event).catch((error: unknown) => failed(event, error));
  };

  return { app, nodeListener, observe: (observer) => observers.push(observer), releaseHeld: () => faults.releaseHeld() };
}

/**
 * target: a request in absolute-form (`GET http://127.0.0.1:8417/__sandbox/health HTTP/1.1`, as a proxy
 * sends it) answers as its path does. RFC 9112 (3.2.2) has a server accept it and take the target's
 * authority as the host, ignoring the Host header: the authority becomes the Host the Host check and
 * the cross-site checks read.
 */
function originForm(req: IncomingMessage): void {
  const url = req.url;
  if (url === undefined || url.charCodeAt(0) === 47 /* / */) return;
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i.exec(url);
  if (match === null) return;
  const authority = match[1]!.replace(/^[^@]*@/, '');
  const rest = match[2]!;
  req.headers.host = authority;
  req.url = rest.startsWith('/') ? rest : `/${rest}`;
}

function errorReply(sandbox: Sandbox, view: SandboxView, error: unknown, rendering: Rendering | undefined, path: string): Reply {
  const storage = error instanceof ApiError ? undefined : storageFailure(error);
  const apiError = error instanceof ApiError ? error : storage !== undefined ? storageFailed(storage) : internalError();
  // A busy or full database is the environment's doing, not a bug: answered, logged, not counted.
  if (storage !== undefined) sandbox.reportStorage(path, storage, error);
  else if (!(error instanceof ApiError)) sandbox.reportUnexpected(path, error);
  // Unmatched paths answer like their neighbours (domain/routes.ts, unmatchedRender).
  const pageLike = rendering === 'page' || (rendering === undefined && unmatchedRender(path) === 'page');
  if (pageLike) return renderErrorPage(view, apiError);
  if (apiError.bare) return new Reply(apiError.httpStatus, null, apiError.headers ?? {});
  return Reply.json(apiError.httpStatus, errorEnvelope(sandbox, apiError), apiError.headers ?? {});
}

/**
 * Writes the reply; returns the JSON text of a JSON answer. Headers go to Node as one flat array: it skips
 * building and walking a merged object per request (measured: about 8% more GETs per second).
 */
function send(event: H3Event, reply: Reply): string | undefined {
  const res = event.node.res;
  if (res.headersSent) return undefined;
  const own = reply.headers;
  let contentType = own['content-type'];
  let json: string | undefined;
  let payload: string | Buffer | undefined;
  if (reply.body === null) {
    payload = undefined;
  } else if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) {
    payload = reply.body;
    contentType ??= 'text/plain; charset=utf-8';
    if (typeof payload === 'string' && contentType === JSON_CONTENT_TYPE) json = payload;
  } else {
    payload = json = JSON.stringify(reply.body);
    contentType ??= JSON_CONTENT_TYPE;
  }
  const headers: string[] = [];
  for (const name in SECURITY_HEADERS) {
    if (own[name] === undefined) headers.push(name, SECURITY_HEADERS[name as keyof typeof SECURITY_HEADERS]);
  }
  for (const name in own) {
    if (name !== 'content-type' && name !== 'content-length') headers.push(name, own[name]!);
  }
  if (contentType !== undefined) headers.push('content-type', contentType);
  if (payload !== undefined) headers.push('content-length', String(Buffer.byteLength(payload)));
  res.writeHead(reply.status, headers);
  res.end(event.method === 'HEAD' ? undefined : payload);
  return json;
}
