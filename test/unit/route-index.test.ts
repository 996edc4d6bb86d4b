/**
 * The route table's index (domain/routes.ts, `matchRoute`) only narrows which routes are tried: for every
 * route, in any letter case, with and without the right method, it answers what a scan of the whole table in
 * order answers (the first match, and the methods of a 405 in the table's order).
 */
import { describe, expect, it } from 'vitest';
import { matchRoute, ROUTE_NAMES, ROUTES, type RouteName } from '../../src/sandbox/domain/routes.js';

const segmentsOf = (path: string) => path.split('/').filter((s) => s.length > 0);

/** The whole table in order, as matching scanned it before the index. */
function scan(method: string, path: string): { name?: RouteName; allowed: string[] } {
  const parts = segmentsOf(path);
  const allowed: string[] = [];
  for (const name of ROUTE_NAMES) {
    const route = ROUTES[name];
    const segments = segmentsOf(route.path);
    if (segments.length !== parts.length) continue;
    if (!segments.every((s, i) => s.startsWith(':') || s.toLowerCase() === parts[i]!.toLowerCase())) continue;
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { name, allowed };
    allowed.push(route.method);
  }
  return { allowed };
}

/** Paths to try: each route's with its parameters filled in (also by a literal of another route). */
const paths = [
  '/',
  '/nowhere',
  '/gateway/v3/nowhere/x',
  ...ROUTE_NAMES.flatMap((name) => {
    const filled = ROUTES[name].path.replace(/:[^/]+/g, 'abc-123');
    const literal = ROUTES[name].path.replace(/:[^/]+/g, 'cancel');
    return [filled, filled.toUpperCase(), literal, `${filled}/`];
  }),
];

describe('the route index', () => {
  it('matches as a scan of the whole table does, for every method', () => {
    for (const path of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'PUT']) {
        const expected = scan(method, path);
        const { target, allowed } = matchRoute(method, path);
        expect(target?.name, `${method} ${path}`).toBe(expected.name);
        if (!target) expect(allowed, `${method} ${path}`).toEqual(expected.allowed);
      }
    }
  });
});
