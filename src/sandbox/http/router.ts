/**
 * A small router for the sandbox's own rules: fixed path segments match in any letter case, identifiers are
 * taken verbatim, a trailing slash is tolerated (docs/api.md, "Endpoints"), and a known path with another method
 * lists the methods it takes (405 with `Allow`). The routes and the matching live in the route table
 * (domain/routes.ts), compiled once; the router binds handlers to its names.
 *
 * Why not h3's router: h3 (radix3) matches case-sensitively, so it needs the path lower-cased for the
 * lookup and the ids taken back from the original path by position, and it gives no `Allow` list.
 * `scripts/bench-router.mjs` times both over the sandbox's routes: about 0.42 µs per lookup here against
 * 0.72 µs for radix3 so adapted (2026-11-23). Either is under 2% of a request (about 20 µs at the bench's
 * GET rate), so throughput does not decide it; the rules and the 405 do.
 */
import type { H3Event } from 'h3';
import type { Clock } from '../domain/clock.js';
import type { IdSource } from '../domain/ids.js';
import type { Services } from '../services/index.js';
import type { JsonObject } from './fields.js';
import { kindOf, matchRoute, ROUTE_NAMES, ROUTES, type Access, type Render, type RouteKind, type RouteName, type RouteSpec } from '../domain/routes.js';

export type { Access, Method, RouteKind } from '../domain/routes.js';
/** How a route's failures are answered: the JSON envelope, or an HTML page. */
export type Rendering = Render;

/**
 * What a handler knows of its sandbox: its services and a few facts, and nothing that reaches storage.
 * The app builds one per sandbox from the composition root (context.ts), so a handler that names a
 * repository, the write queue or the event store does not compile (test/unit/handler-types.test.ts).
 */
export interface SandboxView {
  /** Every service of the sandbox (services/index.ts). */
  readonly services: Services;
  /** The sandbox's now (for envelopes and pages). */
  readonly clock: Clock;
  /** Request codes of envelopes. */
  readonly ids: IdSource;
  /** The base URL addresses handed out start with (`redirect.url`, library targets). */
  readonly baseUrl: string;
  /** The configuration handlers read: whether the admin token is on (the dashboard turns `?token=` into a cookie). */
  readonly config: { readonly adminToken?: string | undefined };
}

export interface RouteRequest {
  event: H3Event;
  /** The services and facts of the sandbox (never its storage). */
  sandbox: SandboxView;
  /** Its services, as `sandbox.services`. */
  services: Services;
  /** Path parameters, verbatim. */
  params: Record<string, string>;
  /** The query string. */
  query: URLSearchParams;
  /** The path as requested (without query). */
  path: string;
  /** The JSON object body (input error for anything else); read once, then cached. */
  json(): Promise<JsonObject>;
  /** `header.businessId` of the body, checked against the credentials (403) when they are on. */
  businessFromBody(body: JsonObject): string;
  /** The `businessId` query parameter, checked likewise. */
  businessFromQuery(): string;
}

/** The content type of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A response other than a 200 JSON value: any status, headers and a string, buffer or JSON body. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: string | Buffer | object | null,
    readonly headers: Record<string, string> = {},
  ) {}

  static json(status: number, body: object, headers: Record<string, string> = {}): Reply {
    return new Reply(status, body, headers);
  }

  /** A JSON answer already serialized (a cached body); observers receive the text. */
  static jsonText(status: number, text: string, headers: Record<string, string> = {}): Reply {
    return new Reply(status, text, { 'content-type': JSON_CONTENT_TYPE, ...headers });
  }

  static html(status: number, text: string, headers: Record<string, string> = {}): Reply {
    return new Reply(status, text, { 'content-type': 'text/html; charset=utf-8', ...headers });
  }

  /** A redirect; `status` 303 after a form POST, 302 otherwise. */
  static redirect(location: string, status = 302, headers: Record<string, string> = {}): Reply {
    return new Reply(status, null, { location, ...headers });
  }
}

/** A handler bound to a route of the table (domain/routes.ts), which holds its method, path, access and rendering. */
export interface Route {
  route: RouteName;
  handler: (req: RouteRequest) => unknown | Promise<unknown>;
}

/** What the pipeline needs of a route, worked out once when the routes are bound. */
export interface RouteFacts {
  readonly access: Access;
  readonly rendering: Rendering;
  readonly name: RouteName;
}

/** A handler with its route's table entry: what the router matches and the app runs. */
export interface BoundRoute extends RouteSpec {
  name: RouteName;
  /** What the request log calls it (domain/routes.ts `kindOf`). */
  kind: RouteKind;
  facts: RouteFacts;
  handler: Route['handler'];
}

/** Binds handlers to their table entries; a route bound twice is a programming error. */
export function bindRoutes(routes: readonly Route[]): BoundRoute[] {
  const seen = new Set<RouteName>();
  return routes.map(({ route: name, handler }) => {
    if (seen.has(name)) throw new Error(`Route ${name} is bound twice`);
    seen.add(name);
    const spec = ROUTES[name];
    return { ...spec, name, kind: kindOf(spec), facts: { access: spec.access, rendering: spec.render, name }, handler };
  });
}

/** Who may use a route, as the route table declares: the API is the merchants', `/__sandbox/` and `/` the operator's. */
export function accessOf(route: BoundRoute): Access {
  return route.access;
}

/** How a route's failures are answered, as the route table declares. */
export function renderingOf(route: BoundRoute): Rendering {
  return route.render;
}

/** A route's name as the request log and the advisor record it: its name in the route table. */
export function nameOf(route: BoundRoute): RouteName {
  return route.name;
}

export interface RouteMatch {
  route: BoundRoute;
  facts: RouteFacts;
  params: Record<string, string>;
}

/** Matches requests against the route table (domain/routes.ts, which holds the path rules) and finds the bound handler. */
export class Router {
  private readonly bound = new Map<RouteName, BoundRoute>();
  /** Narrows matching to the bound routes; none when every route of the table is bound (the sandbox's case). */
  private readonly accept: ((name: RouteName) => boolean) | undefined;

  constructor(routes: readonly BoundRoute[]) {
    for (const route of routes) {
      if (this.bound.has(route.name)) throw new Error(`Route ${route.name} is bound twice`);
      this.bound.set(route.name, route);
    }
    this.accept = this.bound.size === ROUTE_NAMES.length ? undefined : (name) => this.bound.has(name);
  }

  /**
   * The route for a method and path. `allowed` lists the methods of routes that match the path but not
   * the method (for a 405), when there is no match.
   */
  match(method: string, path: string): { match?: RouteMatch; allowed: string[] } {
    const { target, allowed } = matchRoute(method, path, this.accept);
    if (target === undefined) return { allowed };
    const route = this.bound.get(target.name)!;
    return { match: { route, facts: route.facts, params: target.params }, allowed };
  }
}
