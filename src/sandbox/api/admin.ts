/**
 * Sandbox-only endpoints under `/__sandbox/` (reset, clock, request log, dashboard data). Open on loopback;
 * behind the admin token when the sandbox listens beyond loopback or has a public URL.
 */
import type { H3Event } from 'h3';
import { timingSafeEqual } from 'node:crypto';
import type { Sandbox } from '../context.js';
import { envelope } from '../envelope.js';
import { forbidden, invalidValue, RESULTS, unauthorized } from '../errors.js';
import type { Route, RouteRequest } from '../router.js';
import { changeClock, clockView } from '../admin/clock.js';
import { requestLogOf, type RequestFilter } from '../admin/request-log.js';
import { resetSandbox } from '../admin/reset.js';
import { listRecords, RESOURCE_TABLES, type ResourceTable } from '../admin/browse.js';
import { checkoutState, linkStatus } from '../domain/lifecycle.js';
import type { CheckoutRecord, LinkRecord, TokenRecord } from '../domain/records.js';

function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Throws 401 unless the request carries the admin token (when one is configured): as a bearer token, an
 * `x-paylink-admin-token` header, or a `token` query parameter (for the dashboard opened in a browser).
 */
export function checkAdminAccess(sandbox: Sandbox, event: H3Event, query: URLSearchParams): void {
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
  if (!tokenMatches(expected, given)) throw unauthorized();
}

/**
 * 403 for a state-changing request a browser sends from another site or origin (CSRF): on loopback the
 * admin endpoints need no token, so any page the developer visits could otherwise post a text/plain form
 * to `/__sandbox/reset`. Scripts and the CLI send neither header and pass; the sandbox's own pages (and its
 * public URL behind a proxy or tunnel) pass.
 */
export function refuseCrossSite(sandbox: Sandbox, event: H3Event): void {
  const headers = event.node.req.headers;
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw forbidden();
  const origin = headers.origin;
  if (origin === undefined || origin === 'null') return;
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

/** Longest a follower's request waits for new rows (`wait` is capped to it). */
const MAX_WAIT_SECONDS = 30;

function optionalInteger(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw invalidValue(name, `Use a whole number from ${min} to ${max}.`);
  return value;
}

/** The filters of `GET /__sandbox/requests`, validated. */
export function requestFilterOf(query: URLSearchParams): RequestFilter {
  const status = query.get('status') || undefined;
  if (status !== undefined && !/^([1-5]\d\d|[1-5]xx)$/i.test(status)) throw invalidValue('status', 'Use a status such as 402 or a class such as 4xx.');
  const method = query.get('method') || undefined;
  if (method !== undefined && !/^[a-z]+$/i.test(method)) throw invalidValue('method');
  return {
    path: query.get('path') || undefined,
    status,
    businessId: query.get('businessId') || undefined,
    method,
    since: optionalInteger(query, 'since', 0, Number.MAX_SAFE_INTEGER),
    limit: optionalInteger(query, 'limit', 1, 1000),
  };
}

async function listRequests({ sandbox, query }: RouteRequest) {
  const log = requestLogOf(sandbox);
  const filter = requestFilterOf(query);
  const wait = optionalInteger(query, 'wait', 0, MAX_WAIT_SECONDS);
  const requests = wait !== undefined && filter.since !== undefined ? await log.follow({ ...filter, since: filter.since }, wait * 1000) : log.list(filter);
  // `lastSeq` lets a follower start after what it already saw, even when the filter matched nothing.
  const lastSeq = filter.since !== undefined && requests.length > 0 ? requests.at(-1)!.seq : Math.max(log.lastSeq(), filter.since ?? 0);
  return envelope(sandbox, RESULTS.ok, { requests, lastSeq });
}

async function postClock(req: RouteRequest) {
  const body = await req.json();
  return envelope(req.sandbox, RESULTS.ok, await changeClock(req.sandbox, body));
}

/**
 * Dashboard data: one page of a resource table, newest first, with the state each has now (links'
 * `status`, checkouts' `state`, both following the sandbox clock). Token fingerprints stay internal.
 */
function listResource(table: ResourceTable) {
  return ({ sandbox, query }: RouteRequest) => {
    const page = optionalInteger(query, 'page', 1, 1_000_000);
    const pageSize = optionalInteger(query, 'pageSize', 1, 200);
    const paged = listRecords(sandbox, table, { page, pageSize, businessId: query.get('businessId') || undefined });
    const now = sandbox.clock.now();
    const items = paged.items.map((record) => {
      if (table === 'links') return { ...record, status: linkStatus(record as LinkRecord, now) };
      if (table === 'checkouts') return { ...record, state: checkoutState(record as CheckoutRecord, now) };
      if (table === 'tokens') {
        const { fingerprint: _internal, ...rest } = record as TokenRecord;
        return rest;
      }
      return record;
    });
    return envelope(sandbox, RESULTS.ok, { ...paged, items });
  };
}

export const adminRoutes: Route[] = [
  ...RESOURCE_TABLES.map((table): Route => ({ method: 'GET', path: `/__sandbox/${table}`, kind: 'admin', handler: listResource(table) })),
  {
    method: 'GET',
    path: '/__sandbox/health',
    kind: 'admin',
    handler: ({ sandbox }) => envelope(sandbox, RESULTS.ok, { status: 'up', baseUrl: sandbox.baseUrl }),
  },
  { method: 'GET', path: '/__sandbox/clock', kind: 'admin', handler: ({ sandbox }) => envelope(sandbox, RESULTS.ok, clockView(sandbox)) },
  { method: 'POST', path: '/__sandbox/clock', kind: 'admin', handler: postClock },
  {
    method: 'POST',
    path: '/__sandbox/reset',
    kind: 'admin',
    handler: async ({ sandbox }) => envelope(sandbox, RESULTS.ok, await resetSandbox(sandbox)),
  },
  { method: 'GET', path: '/__sandbox/requests', kind: 'admin', handler: listRequests },
];
