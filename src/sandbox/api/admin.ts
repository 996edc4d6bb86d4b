/**
 * Sandbox-only endpoints under `/__sandbox/` (reset, clock, request log, dashboard data). Open on loopback;
 * behind the admin token when the sandbox listens beyond loopback or has a public URL.
 */
import type { H3Event } from 'h3';
import { timingSafeEqual } from 'node:crypto';
import type { Sandbox } from '../context.js';
import { envelope } from '../envelope.js';
import { RESULTS, unauthorized } from '../errors.js';
import type { Route } from '../router.js';

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
  const expected = sandbox.config.adminToken;
  if (expected === undefined) return;
  const headers = event.node.req.headers;
  const bearer = /^bearer (.+)$/i.exec(headers.authorization ?? '')?.[1];
  const header = headers['x-paylink-admin-token'];
  const given = bearer ?? (typeof header === 'string' ? header : undefined) ?? query.get('token') ?? cookieToken(headers.cookie);
  if (!tokenMatches(expected, given)) throw unauthorized();
}

function cookieToken(cookie: string | undefined): string | undefined {
  const match = /(?:^|;\s*)paylink_admin=([^;]+)/.exec(cookie ?? '');
  return match?.[1];
}

export const adminRoutes: Route[] = [
  {
    method: 'GET',
    path: '/__sandbox/health',
    kind: 'admin',
    handler: ({ sandbox }) => envelope(sandbox, RESULTS.ok, { status: 'up', baseUrl: sandbox.baseUrl }),
  },
];
