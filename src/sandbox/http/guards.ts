/**
 * Who may use which route: HTTP Basic credentials of the API, the admin token of `/__sandbox/` and the
 * dashboard, the Host check against DNS rebinding, and the cross-site checks of state-changing browser
 * requests. The app's access stage applies them by the route's declared access (http/router.ts); the
 * hosted pages that post forms call `refuseCrossSite` themselves.
 */
import type { H3Event } from 'h3';
import { timingSafeEqual } from 'node:crypto';
import type { SandboxConfig } from '../config.js';
import { forbidden, misdirectedRequest, unauthorized } from '../errors.js';
import { providerHost } from '../domain/provider-hosts.js';

/** What the guards read of a sandbox: where it is reached, and its credentials, token and allowed hosts. */
export interface GuardFacts {
  readonly baseUrl: string;
  readonly listenUrl: string;
  readonly config: Pick<SandboxConfig, 'credentials' | 'adminToken' | 'allowedHosts'>;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks HTTP Basic credentials when the sandbox has any configured; returns the business ids they own,
 * or undefined when credentials are off (any business is allowed).
 */
export function authenticate(sandbox: Pick<GuardFacts, 'config'>, authorization: string | undefined): Set<string> | undefined {
  const credentials = sandbox.config.credentials;
  if (!credentials || credentials.length === 0) return undefined;
  if (!authorization || !/^basic /i.test(authorization)) throw unauthorized();
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized();
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const match = credentials.find((c) => safeEqual(c.username, username) && safeEqual(c.password, password));
  if (!match) throw unauthorized();
  return new Set(match.businessIds);
}

/** 403 when the credentials do not own `businessId`. */
export function authorize(owned: Set<string> | undefined, businessId: string): void {
  if (owned !== undefined && !owned.has(businessId) && !owned.has('*')) throw forbidden();
}

/**
 * Throws 401 unless the request carries the admin token (when one is configured): as a bearer token, an
 * `x-paylink-admin-token` header, or a `token` query parameter (for the dashboard opened in a browser).
 */
export function checkAdminAccess(
  sandbox: { readonly baseUrl: string; readonly config: Pick<SandboxConfig, 'adminToken'> },
  event: H3Event,
  query: URLSearchParams,
): void {
  if (event.method !== 'GET' && event.method !== 'HEAD') refuseCrossSite(sandbox, event);
  const expected = sandbox.config.adminToken;
  if (expected === undefined) {
    // Open without a token only under a loopback name: a site whose name was rebound to 127.0.0.1 (DNS
    // rebinding) reaches the sandbox with its own Host, and could otherwise read the log or reset it.
    if (!loopbackHost(event.node.req.headers.host)) throw forbidden();
    return;
  }
  const headers = event.node.req.headers;
  const bearer = /^bearer (.+)$/i.exec(headers.authorization ?? '')?.[1];
  const header = headers['x-paylink-admin-token'];
  const given = bearer ?? (typeof header === 'string' ? header : undefined) ?? query.get('token') ?? cookieToken(headers.cookie);
  if (!given || !safeEqual(expected, given)) throw unauthorized();
}

/**
 * 403 for a state-changing request a browser sends from another site or origin (CSRF): on loopback the
 * admin endpoints need no token, so any page the developer visits could otherwise post a text/plain form
 * to `/__sandbox/reset`. Scripts and the CLI send neither header and pass; the sandbox's own pages (and its
 * public URL behind a proxy or tunnel) pass; `Origin: null` does not.
 */
export function refuseCrossSite(sandbox: { readonly baseUrl: string }, event: H3Event): void {
  refuseOtherOrigins(sandbox, event);
}

/**
 * The same check for a state-changing API request: a page elsewhere must not refund or cancel through a
 * developer's sandbox (a text/plain form, or a fetch without CORS, is still sent). Merchants' servers and
 * the CLI send no Origin.
 */
export const refuseCrossOrigin = refuseCrossSite;

/**
 * 421 unless the Host header names a host this sandbox is reached by: a loopback name, an IP address
 * (the bound one or any other: DNS rebinding needs a name), the public URL's host, or one of the
 * `allowedHosts` (`example.test`, or `.example.test` for it and its subdomains). This is what dev servers
 * do against DNS rebinding: a page of `evil.example` whose name was rebound to 127.0.0.1 reaches the
 * sandbox with `Host: evil.example` and is refused before any route runs.
 */
export class HostCheck {
  /** Verdicts by Host header, for the base URL they were made under (a tunnel may change it). */
  private verdicts = new Map<string, boolean>();
  private baseUrl: string | undefined;

  constructor(private readonly sandbox: GuardFacts) {}

  check(host: string | undefined): void {
    if (host === undefined || host === '') return;
    if (this.baseUrl !== this.sandbox.baseUrl) {
      this.baseUrl = this.sandbox.baseUrl;
      this.verdicts = new Map();
    }
    let allowed = this.verdicts.get(host);
    if (allowed === undefined) {
      allowed = hostAllowed(this.sandbox, host);
      // Bounded: a client sending a new Host each time must not grow the map.
      if (this.verdicts.size >= 64) this.verdicts.clear();
      this.verdicts.set(host, allowed);
    }
    if (!allowed) throw misdirectedRequest(host);
  }
}

function hostAllowed(sandbox: GuardFacts, host: string): boolean {
  const name = hostName(host);
  if (name === undefined) return false;
  if (name === 'localhost' || name.endsWith('.localhost') || /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.startsWith('[')) return true;
  // Hosts mode (docs/drop-in.md): the provider's names, which no page can rebind to this machine.
  if (providerHost(name) !== undefined) return true;
  for (const url of [sandbox.baseUrl, sandbox.listenUrl]) {
    try {
      if (new URL(url).hostname.toLowerCase() === name) return true;
    } catch {
      // not a URL: nothing to compare
    }
  }
  for (const entry of sandbox.config.allowedHosts ?? []) {
    const allowed = entry.trim().toLowerCase();
    if (allowed === name || (allowed.startsWith('.') && (name === allowed.slice(1) || name.endsWith(allowed)))) return true;
  }
  return false;
}

/** The name of a Host header, lower case, without the port (`[::1]` keeps its brackets); undefined if malformed. */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : undefined;
}

/**
 * 403 unless the request comes from no browser page or from the sandbox's own origin (its host or public
 * URL). `Origin: null` is refused: a browser sends it from an opaque origin (a sandboxed iframe, a `data:`
 * or `file:` page, a redirect across sites), which is another site as far as the sandbox knows; the
 * sandbox's own pages always send their real origin.
 */
function refuseOtherOrigins(sandbox: { readonly baseUrl: string }, event: H3Event): void {
  const headers = event.node.req.headers;
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw forbidden();
  const origin = headers.origin;
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw forbidden();
  }
  if (host !== headers.host && origin !== new URL(sandbox.baseUrl).origin) throw forbidden();
}

/** Whether a Host header names this machine's loopback (`localhost`, `127.x.x.x`, `[::1]`); absent counts. */
function loopbackHost(host: string | undefined): boolean {
  if (host === undefined || host === '') return true;
  const name = host.toLowerCase().replace(/:\d*$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

function cookieToken(cookie: string | undefined): string | undefined {
  const match = /(?:^|;\s*)paylink_admin=([^;]+)/.exec(cookie ?? '');
  if (match === null) return undefined;
  // The dashboard writes the token URI-encoded, so any configured token makes a valid cookie.
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}
