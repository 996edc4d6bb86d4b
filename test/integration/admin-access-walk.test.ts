import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { allRoutes } from '../../src/sandbox/app.js';
import { accessOf, type BoundRoute as Route } from '../../src/sandbox/http/router.js';

// Every admin API route and dashboard page, taken from the route list itself (a route added later is
// walked too): without the admin token, or with a wrong one, none of them answers anything but 401 or 403.
const ADMIN_ROUTES = allRoutes().filter((route) => accessOf(route) === 'admin');
const TOKEN = 'walk-token-8c1f';

function pathOf(route: Route): string {
  return route.path.replace(/:(\w+)/g, (_all, name: string) => `walk-${name}`);
}

function send(base: string, route: Route, headers: Record<string, string>, query = ''): Promise<number> {
  const url = new URL(pathOf(route) + query, base);
  const body = route.method === 'POST' ? '{}' : undefined;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: route.method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': '2' } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const label = (route: Route): string => `${route.method} ${route.path}`;

describe('every admin and dashboard route refuses a request without the admin token', () => {
  let guarded: RunningSandbox;
  let open: RunningSandbox;

  beforeAll(async () => {
    guarded = await startSandbox({ port: 0, db: ':memory:', adminToken: TOKEN });
    // No token: open on loopback names only; `walk.example` is an allowed Host, not a loopback one.
    open = await startSandbox({ port: 0, db: ':memory:', allowedHosts: ['walk.example'] });
  });
  afterAll(async () => {
    await guarded?.close();
    await open?.close();
  });

  it('walks the dashboard pages and the admin API, from the route list', () => {
    const paths = ADMIN_ROUTES.map(label);
    expect(paths).toEqual(
      expect.arrayContaining(['GET /__sandbox/health', 'POST /__sandbox/reset', 'GET /', 'GET /__sandbox/dashboard/links', 'POST /__sandbox/dashboard/clock']),
    );
    expect(ADMIN_ROUTES.length).toBeGreaterThan(40);
  });

  it('answers 401 to every one of them without a token', async () => {
    const answers = await Promise.all(ADMIN_ROUTES.map(async (route) => [label(route), await send(guarded.url, route, {})] as const));
    expect(answers.filter(([, status]) => status !== 401)).toEqual([]);
  });

  it('answers 401 to every one of them with a wrong token, however it is given', async () => {
    const wrong = 'walk-token-wrong';
    const ways: Array<[Record<string, string>, string]> = [
      [{ authorization: `Bearer ${wrong}` }, ''],
      [{ 'x-paylink-admin-token': wrong }, ''],
      [{}, `?token=${wrong}`],
      [{ cookie: `paylink_admin=${wrong}` }, ''],
    ];
    for (const [headers, query] of ways) {
      const answers = await Promise.all(ADMIN_ROUTES.map(async (route) => [label(route), await send(guarded.url, route, headers, query)] as const));
      expect(
        answers.filter(([, status]) => status !== 401),
        JSON.stringify(headers) + query,
      ).toEqual([]);
    }
  });

  it('answers 403 to every one of them reached by a name that is not loopback when no token is set', async () => {
    const answers = await Promise.all(ADMIN_ROUTES.map(async (route) => [label(route), await send(open.url, route, { host: 'walk.example' })] as const));
    expect(answers.filter(([, status]) => status !== 403)).toEqual([]);
  });

  it('lets the right token through (the walk is not refusing everything)', async () => {
    const health = ADMIN_ROUTES.find((route) => label(route) === 'GET /__sandbox/health')!;
    expect(await send(guarded.url, health, { authorization: `Bearer ${TOKEN}` })).toBe(200);
    expect(await send(open.url, health, {})).toBe(200);
  });
});
