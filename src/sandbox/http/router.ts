/**
 * A small router for the sandbox's own rules: fixed path segments match in any letter case, identifiers are
 * taken verbatim, a trailing slash is tolerated (docs/api.md, "Endpoints"), and a known path with another method
 * lists the methods it takes (405 with `Allow`). Routes are compiled once.
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
import type { RouteKind } from './observe.js';

export type Method = 'GET' | 'POST' | 'HEAD' | 'OPTIONS';

export type { RouteKind } from './observe.js';

/** Who may use a route: anyone (hosted pages, the library), a merchant's server (the API), an operator. */
export type Access = 'public' | 'merchant' | 'admin';
/** How a route's failures are answered: the JSON envelope, or an HTML page. */
export type Rendering = 'envelope' | 'page';

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

export interface Route {
  method: Method;
  /** Literal segments and `:name` parameters, e.g. `/gateway/v3/paymentlinks/:linkId/cancel`. */
  path: string;
  kind: RouteKind;
  /** The route's name in the request log and the advisor; default `<METHOD> <path>`. */
  name?: string;
  /** Who may use it; default from `kind` ({@link accessOf}). */
  access?: Access;
  /** How its failures are answered; default from `kind` ({@link renderingOf}). */
  render?: Rendering;
  handler: (req: RouteRequest) => unknown | Promise<unknown>;
}

/**
 * Who may use a route: as it declares, else from its kind. The API is the merchants'; the admin API, and
 * every page under `/__sandbox/` and the dashboard's `/`, the operator's; hosted pages and assets anyone's.
 */
export function accessOf(route: Route): Access {
  if (route.access !== undefined) return route.access;
  if (route.kind === 'api') return 'merchant';
  if (route.kind === 'admin') return 'admin';
  if (route.kind === 'page' && (route.path === '/' || /^\/__sandbox(\/|$)/i.test(route.path))) return 'admin';
  return 'public';
}

/** How a route's failures are answered: as it declares, else an HTML page for pages, the envelope otherwise. */
export function renderingOf(route: Route): Rendering {
  return route.render ?? (route.kind === 'page' ? 'page' : 'envelope');
}

/** A route's name as the request log records it. */
export function nameOf(route: Route): string {
  return route.name ?? `${route.method} ${route.path}`;
}

/** What the pipeline needs of a route, worked out once when the router is built. */
export interface RouteFacts {
  readonly access: Access;
  readonly rendering: Rendering;
  readonly name: string;
}

interface CompiledRoute {
  route: Route;
  facts: RouteFacts;
  segments: Array<{ literal: string } | { param: string }>;
}

export interface RouteMatch {
  route: Route;
  facts: RouteFacts;
  params: Record<string, string>;
}

export class Router {
  private readonly byLength = new Map<number, CompiledRoute[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const segments = split(route.path).map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s.toLowerCase() }));
      const list = this.byLength.get(segments.length) ?? [];
      list.push({ route, facts: { access: accessOf(route), rendering: renderingOf(route), name: nameOf(route) }, segments });
      this.byLength.set(segments.length, list);
    }
  }

  /**
   * The route for a method and path. `allowed` lists the methods of routes that match the path but not
   * the method (for a 405), when there is no match.
   */
  match(method: string, path: string): { match?: RouteMatch; allowed: string[] } {
    const parts = split(path);
    const candidates = this.byLength.get(parts.length);
    const allowed: string[] = [];
    if (!candidates) return { allowed };
    const lowered = parts.map((p) => p.toLowerCase());
    for (const candidate of candidates) {
      const params = matchSegments(candidate, parts, lowered);
      if (!params) continue;
      const m = candidate.route.method;
      if (m === method || (method === 'HEAD' && m === 'GET')) return { match: { route: candidate.route, facts: candidate.facts, params }, allowed };
      allowed.push(m);
    }
    return { allowed };
  }
}

function matchSegments(candidate: CompiledRoute, parts: string[], lowered: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = candidate.segments[i]!;
    if ('literal' in segment) {
      if (segment.literal !== lowered[i]) return undefined;
    } else {
      params[segment.param] = decodeSegment(parts[i]!);
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Path segments without empty ones, so `/a/b/` and `/a/b` match alike. */
function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}
