import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/sandbox/app.js';
import { API_BASE, matchRoute, pathOf, pathOfId, ROUTE_NAMES, ROUTES, unmatchedRender, type RouteName } from '../../src/sandbox/domain/routes.js';
import { bindRoutes, Router } from '../../src/sandbox/http/router.js';

/** A value for each parameter of a route's pattern, with characters that need encoding. */
function sampleParams(name: RouteName): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [, key] of ROUTES[name].path.matchAll(/:([A-Za-z]+)/g)) params[key!] = `${key} /?#$&`;
  return params;
}

describe('route table', () => {
  it('binds every route of the table to exactly one handler', () => {
    const bound = allRoutes().map((r) => r.name);
    expect([...bound].sort()).toEqual([...ROUTE_NAMES].sort());
    expect(() => new Router([...allRoutes(), allRoutes()[0]!])).toThrow(/bound twice/);
    expect(() =>
      bindRoutes([
        { route: 'links.get', handler: () => null },
        { route: 'links.get', handler: () => null },
      ]),
    ).toThrow(/bound twice/);
  });

  it('matches the path pathOf builds back to the same route and parameters', () => {
    for (const name of ROUTE_NAMES) {
      const params = sampleParams(name);
      const { target } = matchRoute(ROUTES[name].method, pathOf(name, params));
      expect(target, name).toEqual({ name, params });
    }
  });

  it('encodes each parameter as encodeURIComponent does, whatever its characters', () => {
    const literal = `${API_BASE}/paymentlinks/`;
    for (let code = 0; code < 0x3000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // a lone surrogate: both throw
      const id = `a${String.fromCharCode(code)}b`;
      expect(pathOf('links.get', { linkId: id })).toBe(literal + encodeURIComponent(id));
    }
    expect(pathOf('links.get', { linkId: '01a21828-27fb-4000-a0b1-c5e61b234c6b' })).toBe(`${literal}01a21828-27fb-4000-a0b1-c5e61b234c6b`);
    expect(() => pathOf('links.get', { linkId: '\ud800' })).toThrow(URIError);
  });

  it('matches fixed segments in any letter case, ids verbatim, a trailing slash, HEAD as GET, and lists the methods of a known path', () => {
    expect(matchRoute('GET', '/Gateway/V3/PaymentLinks/AbC/').target).toEqual({ name: 'links.get', params: { linkId: 'AbC' } });
    expect(matchRoute('HEAD', pathOfId('payments.get', 'p1')).target?.name).toBe('payments.get');
    expect(matchRoute('POST', pathOfId('payments.get', 'p1'))).toEqual({ allowed: ['GET'] });
    expect(pathOf('links.list')).toBe(`${API_BASE}/paymentlinks`);
  });

  it('declares who may call each route and how it answers', () => {
    expect(ROUTES['links.create']).toMatchObject({ access: 'merchant', render: 'envelope' });
    expect(ROUTES['hosted.link']).toMatchObject({ access: 'public', render: 'page' });
    expect(ROUTES['admin.requests']).toMatchObject({ access: 'admin', render: 'envelope' });
    expect(ROUTES['dashboard.requests']).toMatchObject({ access: 'admin', render: 'page' });
    for (const name of ROUTE_NAMES) {
      if (ROUTES[name].path.startsWith('/__sandbox/')) expect(ROUTES[name].access, name).toBe('admin');
    }
  });

  it('answers unmatched paths like their neighbours', () => {
    expect(unmatchedRender('/')).toBe('envelope');
    expect(unmatchedRender('/gateway/v3/nope')).toBe('envelope');
    expect(unmatchedRender('/__sandbox/nope')).toBe('envelope');
    expect(unmatchedRender('//Gateway//v3/WEB/nope')).toBe('page');
    expect(unmatchedRender('/nope')).toBe('page');
  });

  it('spells the API prefix in src only in the route table', () => {
    const found = execFileSync('grep', ['-rln', '/gateway/v3', 'src'], { cwd: new URL('../..', import.meta.url), encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(found).toEqual(['src/sandbox/domain/routes.ts']);
  });
});
