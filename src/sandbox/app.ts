/**
 * Builds the sandbox's h3 app from its parts: the router, the API, hosted pages, library and admin routes,
 * and the one place that turns thrown errors into responses. It never listens (see `index.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApp, createEvent, eventHandler, type App, type H3Event } from 'h3';
import type { Sandbox } from './context.js';
import { errorEnvelope } from './http/envelope.js';
import { ApiError, deliveryRefused, faultError, internalError, routeNotFound, methodNotAllowed, storageFailed } from './errors.js';
import { DELIVERY_MARK_HEADER } from './domain/own-address.js';
import { storageFailure } from './store/failures.js';
import { businessIdFromBody, businessIdFromQuery, readJsonObjectText } from './http/request.js';
import { authenticate, authorize, checkAdminAccess, checkHost, refuseCrossOrigin } from './http/guards.js';
import { JSON_CONTENT_TYPE, Reply, Router, type Route, type RouteKind, type RouteRequest } from './http/router.js';
import { readClientMark } from './http/client-mark.js';
import type { ObservedRequest, RequestObserver } from './http/observe.js';
import type { JsonObject } from './http/fields.js';
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
import { HeldConnections, requestFacts } from './http/fault-injection.js';
import { holdOf, latencyOf } from './domain/faults.js';
import type { FiredFault } from './services/faults.js';

export interface BuiltApp {
  /** The h3 app (for embedding in another h3 or nitro app). */
  app: App;
  /**
   * The Node listener `startSandbox` serves: it builds the h3 event and runs the sandbox's one handler
   * directly, skipping h3's middleware stack (one layer, no path prefix), which is measurable per request.
   */
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

/** Every route the sandbox serves, in one list. */
export function allRoutes(): Route[] {
  return [...apiRoutes, ...webRoutes, ...adminRoutes, ...webhookRoutes, ...customEventRoutes, ...faultRoutes, ...dashboardRoutes, ...webhookDashboardRoutes, ...faultDashboardRoutes, ...snapshotDashboardRoutes];
}

export function createSandboxApp(sandbox: Sandbox): BuiltApp {
  const router = new Router(allRoutes());
  const observers: RequestObserver[] = [];
  const held = new HeldConnections();
  const app = createApp();
  const notify = (observed: ObservedRequest): void => {
    for (const observer of observers) {
      try {
        observer(observed);
      } catch (error) {
        console.error('paylink: a request observer failed:', error);
      }
    }
  };

  const handle = async (event: H3Event): Promise<void> => {
    const startedAt = performance.now();
    const method = event.method;
    const rawUrl = event.node.req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const queryText = q < 0 ? '' : rawUrl.slice(q + 1);
    const { match, allowed } = router.match(method, path);
    const kind: RouteKind | 'unmatched' = match ? match.route.kind : 'unmatched';
    const observed: ObservedRequest = { method, path, query: queryText, status: 200, kind, startedAt: sandbox.clock.now(), durationMs: 0 };
    const client = readClientMark(event.node.req.headers);
    if (client !== undefined) observed.client = client;

    // Undefined only when a fault that does not act (timeout, reset) fired: there is no answer at all.
    let reply: Reply | undefined;
    let fired: (FiredFault & { businessId?: string | undefined }) | undefined;
    try {
      if (!match) {
        if (allowed.length > 0) throw methodNotAllowed(method, path, allowed);
        throw routeNotFound(method, path);
      }
      checkHost(sandbox, event.node.req.headers.host);
      // A webhook delivery that reached a sandbox anyway (its public URL, a tunnel, another sandbox on this
      // machine) changes nothing: the admin API trusts loopback, and no route takes an event.
      if (event.node.req.headers[DELIVERY_MARK_HEADER] !== undefined) throw deliveryRefused();
      const query = new URLSearchParams(queryText);
      if (kind === 'admin') checkAdminAccess(sandbox, event, query);
      let owned: Set<string> | undefined;
      if (kind === 'api') {
        // The API is for merchants' servers: a browser on another origin (a form posted by any web page to a
        // developer's local sandbox) must not cancel a link or refund a payment. Servers send no Origin.
        if (method !== 'GET' && method !== 'HEAD') refuseCrossOrigin(sandbox, event);
        owned = authenticate(sandbox, event.node.req.headers.authorization);
      }
      let jsonBody: Promise<JsonObject> | undefined;
      const request: RouteRequest = {
        event,
        sandbox,
        params: match.params,
        query,
        path,
        json: () => {
          jsonBody ??= readJsonObjectText(event.node.req).then(({ value, text }) => {
            observed.requestBody = value;
            observed.requestJson = text;
            return value;
          });
          return jsonBody;
        },
        businessFromBody: (body) => {
          const id = businessIdFromBody(body);
          observed.businessId = id;
          authorize(owned, id);
          return id;
        },
        businessFromQuery: () => {
          const id = businessIdFromQuery(query);
          observed.businessId = id;
          authorize(owned, id);
          return id;
        },
      };
      if (kind === 'api' && sandbox.faults.active) {
        fired = await pickFault(sandbox, request, method, client !== undefined);
        if (fired !== undefined) {
          observed.fault = { rule: fired.rule.id, kind: fired.rule.kind };
          observed.businessId ??= fired.businessId;
          await fired.committed;
          if (fired.rule.kind === 'status') throw faultError(fired.rule.status ?? 503);
        }
      }
      // Faults that do not act never hand the request to its handler.
      if (fired?.rule.kind !== 'timeout' && fired?.rule.kind !== 'reset') {
        const value = await match.route.handler(request);
        reply = value instanceof Reply ? value : Reply.json(200, value as object);
      }
    } catch (error) {
      reply = errorReply(sandbox, error, kind, path);
    }

    const withhold = fired?.rule.kind === 'timeout' || fired?.rule.kind === 'reset' || fired?.rule.kind === 'ghost' ? fired.rule : undefined;
    if (withhold !== undefined && observed.fault !== undefined) {
      if (withhold.kind === 'ghost' && reply !== undefined) observed.fault.withheldStatus = reply.status;
      observed.status = 0;
      const socket = event.node.req.socket;
      if (withhold.kind === 'reset' || (withhold.kind === 'ghost' && withhold.ghostAs === 'reset')) {
        held.reset(socket);
        observed.fault.ended = 'reset';
      } else {
        observed.fault.ended = await held.hold(socket, holdOf(withhold));
      }
      observed.durationMs = performance.now() - startedAt;
      notify(observed);
      return;
    }
    if (fired?.rule.kind === 'latency' && observed.fault !== undefined) {
      const delayMs = latencyOf(fired.rule, Math.random());
      observed.fault.delayMs = delayMs;
      await held.delay(delayMs);
    }
    if (reply === undefined) return;

    observed.status = reply.status;
    if (reply.status >= 300 && reply.status < 400 && reply.headers.location !== undefined) observed.location = reply.headers.location;
    if (reply.body !== null && typeof reply.body === 'object' && !Buffer.isBuffer(reply.body)) observed.responseBody = reply.body;
    const json = send(event, reply);
    if (json !== undefined) observed.responseJson = json;
    observed.durationMs = performance.now() - startedAt;
    notify(observed);
  };
  app.use(eventHandler(handle));

  const nodeListener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(createEvent(req, res)).catch((error: unknown) => {
      // Only a failure to write the answer gets here (every handler error became a reply).
      sandbox.reportUnexpected(req.url ?? '/', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  };

  return { app, nodeListener, observe: (observer) => observers.push(observer), releaseHeld: () => held.releaseAll() };
}

/**
 * The API fault that fires for this request, if any (docs/faults.md). The body is read (once: the handler
 * gets the same parse) only when a rule could fire for the method and path; a body that cannot be read
 * matches no business, brand or amount, and the handler answers it as usual.
 */
async function pickFault(sandbox: Sandbox, request: RouteRequest, method: string, marked: boolean): Promise<(FiredFault & { businessId?: string | undefined }) | undefined> {
  const route = { method, path: request.path, marked };
  const candidates = sandbox.faults.candidates(route);
  if (candidates.length === 0) return undefined;
  let body: JsonObject | undefined;
  if (method === 'POST') body = await request.json().catch(() => undefined);
  const facts = requestFacts(body, request.query);
  const fired = sandbox.faults.pick(candidates, { ...route, ...facts });
  return fired === undefined ? undefined : { ...fired, businessId: facts.businessId };
}

function errorReply(sandbox: Sandbox, error: unknown, kind: RouteKind | 'unmatched', path: string): Reply {
  const storage = error instanceof ApiError ? undefined : storageFailure(error);
  const apiError = error instanceof ApiError ? error : storage !== undefined ? storageFailed(storage) : internalError();
  // A busy or full database is the environment's doing, not a bug: answered, logged, not counted.
  if (storage !== undefined) sandbox.reportStorage(path, storage, error);
  else if (!(error instanceof ApiError)) sandbox.reportUnexpected(path, error);
  // Unmatched paths answer like their neighbours: HTML under the hosted pages and outside the API, the
  // envelope under /gateway and /__sandbox (empty segments ignored, as the router does).
  const pageLike =
    kind === 'page' ||
    (kind === 'unmatched' && (/^\/+gateway\/+v3\/+web(\/|$)/i.test(path) || (!/^\/+(gateway|__sandbox)(\/|$)/i.test(path) && !/^\/*$/.test(path))));
  if (pageLike) return renderErrorPage(sandbox, apiError);
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
