// Why src/sandbox/http/router.ts exists beside h3: times a route lookup of the sandbox's own router against
// h3's radix3 router adapted to the sandbox's path rules (fixed segments in any letter case, ids verbatim),
// over the sandbox's real route list. Run after `npm run build`: node scripts/bench-router.mjs
import { createRequire } from 'node:module';

const require = createRequire(new URL('../node_modules/h3/package.json', import.meta.url));
const { createRouter } = await import(require.resolve('radix3'));
const { Router } = await import('../dist/sandbox/http/router.js');
const { allRoutes } = await import('../dist/sandbox/app.js');

const routes = allRoutes();
const ours = new Router(routes);
const radix = createRouter();
for (const route of routes) {
  const path = route.path.replace(/[^/:]+/g, (segment) => segment.toLowerCase()).replace(/\/:([a-z]+)/g, (_m, name) => `/:${name}`);
  radix.insert(path, { ...(radix.lookup(path) ?? {}), [route.method]: route });
}
const segmentsOf = new Map(routes.map((route) => [route, route.path.split('/').filter(Boolean)]));

/** h3's router can only match case-sensitively: look up the lower-cased path, then take ids verbatim by position. */
function radixMatch(method, path) {
  const found = radix.lookup(path.toLowerCase());
  const route = found?.[method];
  if (route === undefined) return undefined;
  const parts = path.split('/').filter(Boolean);
  const params = {};
  segmentsOf.get(route).forEach((segment, i) => {
    if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(parts[i]);
  });
  return { route, params };
}

const paths = [
  '/gateway/v3/paymentlinks/01a208ad-c7e0-4000-aa35-8ce46ffaea57',
  '/Gateway/v3/Payments/01a208ad-c7e0-4000-aa35-8ce46ffaea57/capture',
  '/gateway/v3/paymentlinks',
  '/__sandbox/requests',
];
const candidates = [
  ['paylink Router', (method, path) => ours.match(method, path)],
  ['radix3 (h3) with the sandbox path rules', radixMatch],
];
for (const [name, match] of candidates) {
  for (let i = 0; i < 200_000; i++) match('GET', paths[i % paths.length]);
  const n = 2_000_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) match(i % 2 ? 'GET' : 'POST', paths[i % paths.length]);
  console.log(`${name}: ${(Number(process.hrtime.bigint() - start) / n).toFixed(0)} ns per lookup`);
}
