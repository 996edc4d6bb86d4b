/**
 * The route table: every address the sandbox serves (the provider's API v3, hosted pages, the bank and wallet
 * simulator, the browser library, the admin API, the dashboard), written once, by name. The router matches
 * requests from it, handlers bind to a name, and everything that builds a URL (pages, the CLI, the testing
 * kit, the advisor) builds it with `pathOf` from the same entry. The API's prefix is spelled here and in the
 * docs only (docs/architecture.md, "The route table").
 *
 * Path patterns: literal segments and `:name` parameters. Literal segments match in any letter case, and
 * parameters are taken verbatim (the router's rules, http/router.ts).
 */
export type Method = 'GET' | 'POST' | 'HEAD' | 'OPTIONS';

/** Who may call a route: anyone, a merchant's server (credentials when they are on), the admin (token off loopback). */
export type Access = 'public' | 'merchant' | 'admin';

/** How a route answers, also when it fails: the JSON envelope or an HTML page. */
export type Render = 'envelope' | 'page';

/** What a route serves, as the request log names it: the provider's API, a page, the admin API, a static asset. */
export type RouteKind = 'api' | 'page' | 'admin' | 'asset';

export interface RouteSpec {
  readonly method: Method;
  readonly path: string;
  readonly access: Access;
  readonly render: Render;
}

/** The prefix of the provider's API; hosted pages live under `${API}/web`. */
const API = '/gateway/v3';

/** The API's root path, as the CLI shows it (`paylink sandbox`, `paylink version`). */
export const API_BASE = API;
/** The root path of the customer-facing pages. */
export const HOSTED_BASE = `${API}/web`;
/** The prefix of the sandbox's own admin API and dashboard. */
const SANDBOX = '/__sandbox';
const DASHBOARD = `${SANDBOX}/dashboard`;

function api(method: Method, path: string): RouteSpec {
  return { method, path: API + path, access: 'merchant', render: 'envelope' };
}
function page(method: Method, path: string): RouteSpec {
  return { method, path: `${API}/web${path}`, access: 'public', render: 'page' };
}
function admin(method: Method, path: string): RouteSpec {
  return { method, path: SANDBOX + path, access: 'admin', render: 'envelope' };
}
function dashboard(method: Method, path: string): RouteSpec {
  return { method, path: DASHBOARD + path, access: 'admin', render: 'page' };
}
/** A static file: public; a failure answers with the envelope (a script or asset URL is not a page). */
function asset(path: string): RouteSpec {
  return { method: 'GET', path, access: 'public', render: 'envelope' };
}

export const ROUTES = {
  // The provider's API v3.
  'links.create': api('POST', '/paymentlinks'),
  'links.list': api('GET', '/paymentlinks'),
  'links.get': api('GET', '/paymentlinks/:linkId'),
  'links.cancel': api('POST', '/paymentlinks/:linkId/cancel'),
  'checkouts.create': api('POST', '/checkouts'),
  'checkouts.list': api('GET', '/checkouts'),
  'checkouts.get': api('GET', '/checkouts/:checkoutId'),
  'payments.create': api('POST', '/payments'),
  'payments.list': api('GET', '/payments'),
  'payments.get': api('GET', '/payments/:paymentId'),
  'payments.capture': api('POST', '/payments/:paymentId/capture'),
  'payments.cancel': api('POST', '/payments/:paymentId/cancel'),
  'payments.refund': api('POST', '/payments/:paymentId/refund'),
  'credits.create': api('POST', '/credits'),
  'credits.list': api('GET', '/credits'),
  'credits.get': api('GET', '/credits/:creditId'),
  'tokens.create': api('POST', '/tokens'),
  'tokens.get': api('GET', '/tokens/:token'),

  // The browser library and its demo merchant page.
  'library.paymentlink': asset('/paymentlink/:version/paymentlink-library.js'),
  'library.checkout': asset('/checkout/:version/checkout-library.js'),
  'library.demo': { method: 'GET', path: `${SANDBOX}/demo/:id`, access: 'admin', render: 'page' },

  // Customer-facing pages: hosted pages, the card form of a redirect payment, 3-D Secure, bank and wallet.
  'hosted.link': page('GET', '/paymentlinks/:linkId'),
  'hosted.link.submit': page('POST', '/paymentlinks/:linkId'),
  'hosted.checkout': page('GET', '/checkouts/:checkoutId'),
  'hosted.checkout.submit': page('POST', '/checkouts/:checkoutId'),
  'hosted.payment': page('GET', '/payments/:paymentId'),
  'hosted.payment.submit': page('POST', '/payments/:paymentId'),
  'challenge.page': page('GET', '/3ds/:paymentId'),
  'challenge.submit': page('POST', '/3ds/:paymentId'),
  'bank.page': page('GET', '/bank/:paymentId'),
  'bank.submit': page('POST', '/bank/:paymentId'),
  'wallet.page': page('GET', '/wallet/:paymentId'),
  'wallet.submit': page('POST', '/wallet/:paymentId'),
  'hosted.asset': asset(`${API}/web/assets/:name`),
  favicon: asset('/favicon.ico'),

  // The admin API.
  'admin.links': admin('GET', '/links'),
  'admin.checkouts': admin('GET', '/checkouts'),
  'admin.payments': admin('GET', '/payments'),
  'admin.tokens': admin('GET', '/tokens'),
  'admin.health': admin('GET', '/health'),
  'admin.clock': admin('GET', '/clock'),
  'admin.clock.set': admin('POST', '/clock'),
  'admin.reset': admin('POST', '/reset'),
  'admin.snapshots': admin('GET', '/snapshots'),
  'admin.snapshots.save': admin('POST', '/snapshots'),
  'admin.snapshots.restore': admin('POST', '/snapshots/:name/restore'),
  'admin.snapshots.delete': admin('POST', '/snapshots/:name/delete'),
  'admin.requests': admin('GET', '/requests'),
  'admin.resolve': admin('GET', '/resolve/:id'),
  'admin.advice': admin('GET', '/advice'),
  'admin.webhooks': admin('GET', '/webhooks'),
  'admin.webhooks.add': admin('POST', '/webhooks'),
  'admin.webhooks.secret': admin('GET', '/webhooks/secret'),
  'admin.webhooks.remove': admin('POST', '/webhooks/:hookId/remove'),
  'admin.events': admin('GET', '/events'),
  'admin.events.stream': admin('GET', '/events/stream'),
  'admin.events.get': admin('GET', '/events/:id'),
  'admin.events.resend': admin('POST', '/events/:id/resend'),
  'admin.events.send': admin('POST', '/events/send'),
  'admin.faults': admin('GET', '/faults'),
  'admin.faults.add': admin('POST', '/faults'),
  'admin.faults.clear': admin('POST', '/faults/clear'),
  'admin.faults.remove': admin('POST', '/faults/:id/remove'),

  // The dashboard (its root is also the sandbox's home page).
  home: { method: 'GET', path: '/', access: 'admin', render: 'page' },
  'dashboard.overview': dashboard('GET', ''),
  'dashboard.links': dashboard('GET', '/links'),
  'dashboard.checkouts': dashboard('GET', '/checkouts'),
  'dashboard.payments': dashboard('GET', '/payments'),
  'dashboard.tokens': dashboard('GET', '/tokens'),
  'dashboard.requests': dashboard('GET', '/requests'),
  'dashboard.link': dashboard('GET', '/links/:id'),
  'dashboard.checkout': dashboard('GET', '/checkouts/:id'),
  'dashboard.payment': dashboard('GET', '/payments/:id'),
  'dashboard.token': dashboard('GET', '/tokens/:id'),
  'dashboard.clock': dashboard('POST', '/clock'),
  'dashboard.link.pay': dashboard('POST', '/links/:id/pay'),
  'dashboard.checkout.pay': dashboard('POST', '/checkouts/:id/pay'),
  'dashboard.link.copy': dashboard('POST', '/links/:id/copy'),
  'dashboard.webhooks': dashboard('GET', '/webhooks'),
  'dashboard.event': dashboard('GET', '/events/:id'),
  'dashboard.advisor': dashboard('GET', '/advisor'),
  'dashboard.faults': dashboard('GET', '/faults'),
  'dashboard.faults.clear': dashboard('POST', '/faults/clear'),
  'dashboard.faults.remove': dashboard('POST', '/faults/:id/remove'),
  'dashboard.snapshots': dashboard('GET', '/snapshots'),
  'dashboard.snapshots.save': dashboard('POST', '/snapshots'),
  'dashboard.snapshots.restore': dashboard('POST', '/snapshots/:name/restore'),
  'dashboard.snapshots.delete': dashboard('POST', '/snapshots/:name/delete'),
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

/** The names of every route, in table order. */
export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

/** The spec of a route by name. */
export function routeSpec(name: RouteName): RouteSpec {
  return ROUTES[name];
}

/**
 * What the request log and observers call a route: `api` (merchant), `page` (any HTML route, the dashboard
 * included), `admin` (the admin API), `asset` (public files).
 */
export function kindOf(spec: RouteSpec): RouteKind {
  if (spec.access === 'merchant') return 'api';
  if (spec.render === 'page') return 'page';
  return spec.access === 'admin' ? 'admin' : 'asset';
}

/** The path parameters of a route, by name: `{ linkId: string }` for `links.get`. */
export type RouteParams = Record<string, string>;

/**
 * The root-relative path of a route with its parameters filled in (each encoded as one segment). A missing
 * parameter is a programming error and throws.
 */
export function pathOf(name: RouteName, params: RouteParams = {}): string {
  return fill(ROUTES[name].path, params);
}

/** The path of a route with one parameter (`payments.get`, `links.cancel`), filled with `id`. */
export function pathOfId(name: RouteName, id: string): string {
  const pattern = ROUTES[name].path;
  const param = templateOf(pattern)[1];
  if (param === undefined) throw new Error(`Route path ${pattern} takes no parameter`);
  return fill(pattern, { [param]: id });
}

/** `pathOf` with a query string appended from the defined entries of `query`. */
export function pathWithQuery(name: RouteName, params: RouteParams, query: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === '' ? pathOf(name, params) : `${pathOf(name, params)}?${text}`;
}

/**
 * A path pattern cut into its literal text and parameter names, `['/gateway/v3/payments/', 'paymentId',
 * '/capture']` (split with a capturing group: literals at even indexes, names at odd ones).
 */
function cutPattern(pattern: string): readonly string[] {
  return pattern.split(/:([A-Za-z]+)/);
}

/** Every route's pattern cut once, when the table is loaded. */
const TEMPLATES: ReadonlyMap<string, readonly string[]> = new Map(ROUTE_NAMES.map((name) => [ROUTES[name].path, cutPattern(ROUTES[name].path)]));

function templateOf(pattern: string): readonly string[] {
  return TEMPLATES.get(pattern) ?? cutPattern(pattern);
}

/** What `encodeURIComponent` leaves as it is (letters, digits, `-_.!~*'()`): every id, which needs no call to it. */
const UNRESERVED = /^[\w.!~*'()-]*$/;

function fill(pattern: string, params: RouteParams): string {
  const parts = templateOf(pattern);
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = params[parts[i]!];
    if (value === undefined) throw new Error(`Route path ${pattern} needs the parameter ${parts[i]}`);
    path += (UNRESERVED.test(value) ? value : encodeURIComponent(value)) + parts[i + 1]!;
  }
  return path;
}

// ---- Matching ----

/** A route found for a request: its name and its path parameters (verbatim, percent-decoded). */
export interface RouteTarget {
  name: RouteName;
  params: Record<string, string>;
}

/** One segment of a compiled path: a literal (lower case) or a parameter, in one shape for the matcher. */
interface Segment {
  literal: string | undefined;
  param: string | undefined;
}

interface Compiled {
  name: RouteName;
  method: Method;
  segments: readonly Segment[];
}

/**
 * The routes of one path length, with an index on the segment position whose literals differ most: a path
 * is tried only against the routes whose literal there is its own or that take a parameter there, in the
 * table's order (a filtered run of the same list, so the first match and `allowed` are as a full scan's).
 * Scanning the twenty-odd routes of four segments was the request pipeline's largest own cost per GET.
 */
interface LengthBucket {
  position: number;
  byLiteral: ReadonlyMap<string, readonly Compiled[]>;
  /** The routes with a parameter at `position` (all that a literal no route names there can match). */
  paramOnly: readonly Compiled[];
}

function bucketOf(list: readonly Compiled[]): LengthBucket {
  const length = list[0]!.segments.length;
  let position = 0;
  let most = -1;
  for (let i = 0; i < length; i++) {
    const literals = new Set(
      list.flatMap((c) => {
        const segment = c.segments[i]!;
        return segment.literal !== undefined ? [segment.literal] : [];
      }),
    );
    if (literals.size > most) [position, most] = [i, literals.size];
  }
  const byLiteral = new Map<string, readonly Compiled[]>();
  for (const c of length === 0 ? [] : list) {
    const segment = c.segments[position]!;
    if (segment.literal !== undefined && !byLiteral.has(segment.literal)) {
      byLiteral.set(
        segment.literal,
        list.filter((other) => {
          const at = other.segments[position]!;
          return at.param !== undefined || at.literal === segment.literal;
        }),
      );
    }
  }
  return { position, byLiteral, paramOnly: list.filter((c) => length === 0 || c.segments[position]!.param !== undefined) };
}

/** The table compiled once: routes by their number of segments, each length indexed. */
const BY_LENGTH: ReadonlyMap<number, LengthBucket> = (() => {
  const byLength = new Map<number, Compiled[]>();
  for (const name of ROUTE_NAMES) {
    const { method, path } = ROUTES[name];
    const segments = split(path).map(
      (s): Segment => (s.startsWith(':') ? { literal: undefined, param: s.slice(1) } : { literal: s.toLowerCase(), param: undefined }),
    );
    const list = byLength.get(segments.length) ?? [];
    list.push({ name, method, segments });
    byLength.set(segments.length, list);
  }
  return new Map([...byLength].map(([length, list]) => [length, bucketOf(list)]));
})();

/**
 * The route of a method and path, by the sandbox's path rules: fixed segments in any letter case, parameters
 * verbatim (percent-decoded), empty segments ignored (a trailing slash is tolerated), HEAD served by GET.
 * `allowed` lists the methods of routes whose path matches but not the method (for a 405), when nothing matched.
 * `accept` narrows the candidates (the router's bound routes).
 */
export function matchRoute(method: string, path: string, accept?: (name: RouteName) => boolean): { target?: RouteTarget; allowed: string[] } {
  const parts = split(path);
  const bucket = BY_LENGTH.get(parts.length);
  const allowed: string[] = [];
  if (!bucket) return { allowed };
  const candidates = parts.length === 0 ? bucket.paramOnly : (bucket.byLiteral.get(parts[bucket.position]!.toLowerCase()) ?? bucket.paramOnly);
  for (const candidate of candidates) {
    if (accept !== undefined && !accept(candidate.name)) continue;
    const params = matchSegments(candidate, parts);
    if (!params) continue;
    const m = candidate.method;
    if (m === method || (method === 'HEAD' && m === 'GET')) return { target: { name: candidate.name, params }, allowed };
    allowed.push(m);
  }
  return { allowed };
}

function matchSegments(candidate: Compiled, parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = candidate.segments[i]!;
    const part = parts[i]!;
    if (segment.literal !== undefined) {
      // Paths come in lower case nearly always: compare first, lower-case only on a difference.
      if (segment.literal !== part && segment.literal !== part.toLowerCase()) return undefined;
    } else {
      params[segment.param!] = decodeSegment(part);
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Path segments without empty ones, so `/a/b/` and `/a/b` match alike. */
function split(path: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end < 0) end = path.length;
    if (end > start) parts.push(path.slice(start, end));
    start = end + 1;
  }
  return parts;
}

/** The segments of the API's prefix (`gateway`, `v3`), for patterns written relative to it (faults). */
export const API_SEGMENTS: readonly string[] = split(API);

/**
 * How a path no route matches is answered: like its neighbours. HTML under the hosted pages and outside the
 * API and the admin API (a browser typed it), the envelope under the API and `/__sandbox` and at the root.
 */
export function unmatchedRender(path: string): Render {
  const parts = split(path).map((p) => p.toLowerCase());
  if (parts.length === 0) return 'envelope';
  const hosted = split(HOSTED_BASE);
  if (hosted.every((segment, i) => parts[i] === segment)) return 'page';
  if (parts[0] === API_SEGMENTS[0] || parts[0] === split(SANDBOX)[0]) return 'envelope';
  return 'page';
}
