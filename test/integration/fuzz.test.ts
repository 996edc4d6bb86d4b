/**
 * Robustness fuzzing: a bounded, deterministic generator of malformed and edge-case requests against a real
 * sandbox. Every answer must be a clear error (or a success), never a 500: the API and admin routes answer
 * the envelope with a numeric `result` (and `body.error {code, message}` on failures), the page routes HTML.
 * The seed is fixed, so a failure reproduces; the failing case is printed with its request.
 *
 * Exploring locally: FUZZ_SEED=<n> runs another seed, FUZZ_VERBOSE=1 prints the status classes per test,
 * FUZZ_ACCEPTED=1 prints every POST the sandbox accepted (an audit for validation that is too lenient).
 */
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { TEST_CARDS } from '../../src/sandbox/domain/test-cards.js';
import { checkoutRequest, linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'biz-fuzz';
// Fixed, so that every run sends the same requests; FUZZ_SEED explores others locally.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 0x5eed_2026;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
afterAll(() => agent.destroy());

// ---------------------------------------------------------------------------------------------------------
// Seeded PRNG (mulberry32) and helpers.

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Raw HTTP: node:http so that paths, bytes and headers go out exactly as generated.

interface RawResponse {
  status: number;
  contentType: string;
  text: string;
  body: any;
}

interface FuzzRequest {
  method: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

function send(req: FuzzRequest, base = sb.url): Promise<RawResponse> {
  const url = new URL(base);
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const r = httpRequest({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text, body });
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

type Kind = 'api' | 'page' | 'admin' | 'asset';

function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? ''
      : Buffer.isBuffer(req.body)
        ? `<${req.body.length} bytes>`
        : req.body.length > 300
          ? `${req.body.slice(0, 300)}... (${req.body.length} chars)`
          : req.body;
  const path = req.path.length > 200 ? `${req.path.slice(0, 200)}... (${req.path.length} chars)` : req.path;
  return `${req.method} ${path} ${JSON.stringify(req.headers ?? {})} ${body}`;
}

/** The house rules for one answer; returns what is wrong with it, or undefined. */
/**
 * Full card numbers the fuzz sends; no JSON answer (request log included) may contain one. The hosted
 * pages list the test cards on purpose, so HTML is not checked.
 */
const SENT_CARDS = TEST_CARDS.map((card) => card.number);

/** Markup the fuzz puts into values (trackingCode, holderName, issuerId...). */
const INJECTED_MARKUP = ['<script>alert(1)</script>', '<script>x</script>', '<b>'];

/** The test card that asks for -7 and HTTP 500 (docs/test-cards.md): the one 500 allowed. */
const INTERNAL_ERROR_CARD = TEST_CARDS.find((card) => card.outcome === 'internal-error')!.number;

function askedFor500(res: RawResponse, req?: FuzzRequest): boolean {
  // A payment made with that card answers every later read as its creation did.
  if (req?.method === 'GET' && /^\/gateway\/v3\/payments\//i.test(req.path) && res.body?.result === -7) return true;
  const body = req?.body === undefined ? '' : req.body.toString();
  if (!body.includes(INTERNAL_ERROR_CARD)) return false;
  return res.contentType.startsWith('text/html') || res.body?.result === -7;
}

function problemOf(kind: Kind, res: RawResponse, req?: FuzzRequest): string | undefined {
  if (res.status >= 500 && !askedFor500(res, req)) return `status ${res.status}: ${res.text.slice(0, 300)}`;
  const leaked = res.contentType.includes('json') ? SENT_CARDS.find((card) => res.text.includes(card)) : undefined;
  if (leaked) return `the answer contains the card number ${leaked}`;
  // The markup the fuzz sends in values must come back escaped in every page.
  if (res.contentType.startsWith('text/html') && INJECTED_MARKUP.some((markup) => res.text.includes(markup)))
    return 'a page contains unescaped markup from a value';
  if (res.status >= 300 && res.status < 400) return undefined;
  // A HEAD answer has no body to check.
  if (req?.method === 'HEAD') return undefined;
  if (kind === 'page') {
    if (res.contentType.startsWith('text/html')) return undefined;
    // A path no page route matches (another method, another number of segments) is an unknown route:
    // under /gateway that is the envelope, as for any other unknown path there.
    if (req !== undefined && pageRouteShaped(req)) return `page error is ${res.contentType}, not HTML`;
  }
  if (kind === 'asset' && res.status < 400) return undefined;
  // A GET of a payment id the business has not is a bare 404, as the provider answered it (docs/api.md).
  if (res.status === 404 && res.text === '' && req?.method === 'GET' && /^\/+gateway\/+v3\/+payments\/+[^/?]+\/*(\?|$)/i.test(req.path)) return undefined;
  if (res.body === undefined || typeof res.body !== 'object') return `not a JSON envelope: ${res.text.slice(0, 200)}`;
  // The payments lookup by trackingCode answers a bare array of payment envelopes, as the provider did.
  if (Array.isArray(res.body) && res.status === 200 && req?.method === 'GET' && /^\/+gateway\/+v3\/+payments\/*(\?|$)/i.test(req.path)) {
    const bad = res.body.find((entry: any) => typeof entry?.result !== 'number');
    return bad === undefined ? undefined : `a lookup entry with no numeric result: ${JSON.stringify(bad).slice(0, 200)}`;
  }
  if (typeof res.body.result !== 'number') return `no numeric result: ${res.text.slice(0, 200)}`;
  if (res.status >= 400) {
    const error = res.body.body?.error;
    if (typeof error?.code !== 'number' || typeof error?.message !== 'string' || error.message.length === 0) {
      return `no body.error {code, message}: ${res.text.slice(0, 200)}`;
    }
  }
  return undefined;
}

/** Whether a request is a GET or POST of `/gateway/v3/web/{kind}/{id}`, which the page routes answer. */
function pageRouteShaped(req: FuzzRequest): boolean {
  const segments = req.path
    .split('?')[0]!
    .split('/')
    .filter((p) => p.length > 0);
  return (req.method === 'GET' || req.method === 'POST') && segments.length === 5 && /^(paymentlinks|checkouts|3ds|bank)$/i.test(segments[3]!);
}

/** What the fuzz managed to create, to be read back and rendered everywhere afterwards. */
const harvested = { links: new Set<string>(), checkouts: new Set<string>(), payments: new Set<string>(), tokens: new Set<string>() };
function harvest(res: RawResponse): void {
  const b = res.body?.body;
  if (b === undefined || b === null || typeof b !== 'object') return;
  if (typeof b.link?.linkId === 'string') harvested.links.add(b.link.linkId);
  if (typeof b.checkout?.checkoutId === 'string') harvested.checkouts.add(b.checkout.checkoutId);
  if (typeof b.transaction?.id === 'string') harvested.payments.add(b.transaction.id);
  if (typeof b.tokenId === 'string') harvested.tokens.add(b.tokenId);
}

/** Answers by status class since the last {@link takeCounts}, so a test can tell the fuzz reached past parsing. */
let statusCounts: Record<string, number> = {};
function takeCounts(): Record<string, number> {
  const counts = statusCounts;
  statusCounts = {};
  if (process.env.FUZZ_VERBOSE) console.log(expect.getState().currentTestName, counts);
  return counts;
}

/** Sends every request (a few at a time) and collects the answers that break the rules. */
async function run(kind: Kind | ((req: FuzzRequest) => Kind), requests: FuzzRequest[], concurrency = 6, after?: () => Promise<void>): Promise<string[]> {
  const failures: string[] = [];
  let i = 0;
  const worker = async (): Promise<void> => {
    while (i < requests.length) {
      const req = requests[i++]!;
      const res = await send(req);
      harvest(res);
      if (process.env.FUZZ_ACCEPTED && res.status < 300 && req.method === 'POST') console.log('ACCEPTED', describeRequest(req).slice(0, 400));
      const bucket = `${Math.floor(res.status / 100)}xx`;
      statusCounts[bucket] = (statusCounts[bucket] ?? 0) + 1;
      const problem = problemOf(typeof kind === 'function' ? kind(req) : kind, res, req);
      if (problem) failures.push(`${describeRequest(req)}\n    -> ${problem}`);
      if (after) await after();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failures;
}

// ---------------------------------------------------------------------------------------------------------
// Value and body mutators.

const DEEP_ARRAY = '['.repeat(5000) + ']'.repeat(5000);
const DEEP_OBJECT = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);

/** Weird JSON values, as JSON text (some cannot be written by JSON.stringify). */
const WEIRD_VALUES: readonly string[] = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '1e308',
  '-1e308',
  '1e-308',
  '5e-324',
  '1e400',
  '123456789012345678901234567890',
  '9007199254740993',
  '0.1',
  '12.345',
  '999999999.99',
  '1000000000',
  '""',
  '" "',
  '"NaN"',
  '"Infinity"',
  '"-Infinity"',
  '"1e308"',
  '"0x10"',
  '"12.50"',
  '"true"',
  '"null"',
  '"undefined"',
  '"__proto__"',
  '"constructor"',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"😀💳"',
  '"Ä\u0301ẞ"',
  '"<script>alert(1)</script>"',
  '"javascript:alert(1)"',
  '"data:text/html,hi"',
  '"http://"',
  '"https://exa mple.com/"',
  '"%00"',
  '"../../etc/passwd"',
  '"PT"',
  '"P0D"',
  '"P99999999999999999999D"',
  '"PT-1H"',
  '"eur"',
  '"JPY"',
  '"BHD"',
  '"XXX"',
  '0.001',
  '999999999',
  '"P365D"',
  '"P366D"',
  '"PT1M"',
  '"PT0M"',
  JSON.stringify(`https://merchant.example/${'r'.repeat(2030)}`),
  JSON.stringify('t'.repeat(100)),
  JSON.stringify('t'.repeat(101)),
  '"AUTHORIZE"',
  '"inquire"',
  JSON.stringify('x'.repeat(10_000)),
  JSON.stringify('9'.repeat(10_000)),
  '[]',
  '[1010]',
  '[null]',
  '[1010,1010,1010]',
  '[[1010]]',
  '["1010"]',
  '[1e308]',
  '{}',
  '{"a":1}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  DEEP_ARRAY,
  DEEP_OBJECT,
  JSON.stringify(Array.from({ length: 5000 }, (_, i) => i)),
];

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Every path to a value in a JSON document (objects and arrays alike), the root excluded. */
function pathsOf(value: JsonValue, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [];
  const out: string[][] = [];
  for (const key of Object.keys(value)) {
    const path = [...prefix, key];
    out.push(path);
    out.push(...pathsOf((value as Record<string, JsonValue>)[key]!, path));
  }
  return out;
}

// Plain text markers: JSON.stringify would escape control characters, and the replace would then miss.
const PLACEHOLDER_TEXT = '@@fuzz-value@@';
const DUPLICATE_TEXT = '@@fuzz-duplicate@@';

/** The body's JSON text with `path` replaced by a raw JSON text, deleted (`undefined`), or a duplicate key. */
function mutateAt(body: JsonValue, path: string[], raw: string | undefined, duplicate: boolean, weirdFirst = true): string {
  const copy = JSON.parse(JSON.stringify(body)) as JsonValue;
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  const last = path.at(-1)!;
  if (raw === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return JSON.stringify(copy);
  }
  if (duplicate && !Array.isArray(parent)) {
    // The same key twice: the weird value first, then the valid one, or the other way round.
    const valid = JSON.stringify(parent[last]);
    delete parent[last];
    parent[DUPLICATE_TEXT] = 0;
    const text = JSON.stringify(copy);
    const pair = weirdFirst
      ? `${JSON.stringify(last)}:${raw},${JSON.stringify(last)}:${valid}`
      : `${JSON.stringify(last)}:${valid},${JSON.stringify(last)}:${raw}`;
    return replaceOnce(text, `"${DUPLICATE_TEXT}":0`, pair);
  }
  parent[last] = PLACEHOLDER_TEXT;
  return replaceOnce(JSON.stringify(copy), `"${PLACEHOLDER_TEXT}"`, raw);
}

/** `text` with `marker` replaced by `value`; throws when the marker is missing, so a generator bug shows. */
function replaceOnce(text: string, marker: string, value: string): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`fuzz generator: marker ${marker} not found`);
  return text.slice(0, at) + value + text.slice(at + marker.length);
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
  '',
];

/** Whole-body oddities, whatever the endpoint. */
const WHOLE_BODIES: ReadonlyArray<string | Buffer | undefined> = [
  undefined,
  '',
  ' ',
  'null',
  '[]',
  '"a string"',
  '42',
  '{',
  '{"header":',
  '{"header":{"businessId":"biz-fuzz"}',
  "{'header':{}}",
  '{"a":1,}',
  'NaN',
  '\uFEFF{}',
  'amount=10&currencyCode=EUR',
  Buffer.from([0xff, 0xfe, 0xfd, 0x7b, 0x7d]),
  Buffer.concat([Buffer.from('{"header":{"businessId":"'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xed, 0xa0, 0x80]), Buffer.from('"}}')]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xf0, 0x28, 0x8c, 0xbc, 0x22, 0x7d]),
  DEEP_ARRAY,
  DEEP_OBJECT,
  JSON.stringify({ header: { businessId: BIZ }, body: 'x'.repeat(200_000) }),
];

/** `count` malformed versions of a valid JSON body for `method path`. */
function jsonCases(rng: Rng, method: string, path: string | (() => string), valid: () => JsonValue, count: number): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const pathOf = typeof path === 'function' ? path : () => path;
  for (let n = 0; n < count; n++) {
    const body = valid();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    let text: string | Buffer | undefined;
    const roll = rng.int(20);
    if (roll < 2) {
      text = rng.pick(WHOLE_BODIES);
    } else if (roll === 2) {
      // Now and then the valid body itself, so that the endpoint's success path runs amid the noise.
      text = JSON.stringify(body);
    } else {
      const paths = pathsOf(body);
      const target = rng.pick(paths);
      const what = rng.int(4);
      if (what === 0) text = mutateAt(body, target, undefined, false);
      else text = mutateAt(body, target, rng.pick(WEIRD_VALUES), what === 1, rng.chance(0.5));
      // Now and then two mutations at once.
      // (Not on top of the deeply nested values: walking them here would overflow the test's own stack.)
      if (rng.chance(0.2) && typeof text === 'string' && text.length < 100_000 && !text.includes('[[[[') && !text.includes('{"a":{"a":{"a"')) {
        const again = JSON.parse(text) as JsonValue;
        const more = pathsOf(again);
        if (more.length > 0) text = mutateAt(again, rng.pick(more), rng.pick(WEIRD_VALUES), false);
      }
    }
    if (rng.chance(0.1)) headers['content-type'] = rng.pick(WRONG_CONTENT_TYPES);
    if (rng.chance(0.05)) delete headers['content-type'];
    out.push({ method, path: pathOf(), body: text, headers });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Odd ids, paths and queries.

const ODD_IDS: readonly string[] = [
  '%',
  '%%',
  '%zz',
  '%00',
  '%2F',
  '%2e%2e',
  '..',
  '.',
  '%c3%28',
  '%ff%fe',
  '%ed%a0%80',
  'a'.repeat(5000),
  '0'.repeat(36),
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'null',
  'undefined',
  '%F0%9F%98%80',
  "'%20OR%201=1--",
  '%3Cscript%3E',
  '-1',
  '1e308',
  ';',
  ':linkId',
  '*',
];

function oddId(rng: Rng, real: string): string {
  const roll = rng.int(6);
  if (roll === 0) return real.toUpperCase();
  if (roll === 1) return `${real}${rng.pick(['%00', '%20', '.', '%', '/', '//', '/..', '?', '#', ';x'])}`;
  return rng.pick(ODD_IDS);
}

const ODD_QUERIES: readonly string[] = [
  '',
  '?',
  '?businessId',
  '?businessId=',
  `?businessId=${BIZ}&businessId=other`,
  '?businessId=%',
  '?businessId=%zz',
  '?businessId=%00',
  `?businessId=${'b'.repeat(5000)}`,
  '?businessId=%ff%fe',
  '?businessId=__proto__',
  `?businessId=${BIZ}&trackingCode=`,
  `?businessId=${BIZ}&trackingCode=%`,
  `?businessId=${BIZ}&trackingCode=${'t'.repeat(5000)}`,
  `?businessId=${BIZ}&trackingCode=%00`,
  `?businessId=${BIZ}&trackingCode=%ed%a0%80`,
  `?businessId=${BIZ}&trackingCode[]=x`,
  '?&&&=&=',
  `?businessId=${BIZ}#frag`,
];

function getCases(rng: Rng, base: string, realId: string | undefined, count: number): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (let n = 0; n < count; n++) {
    const id = realId === undefined ? undefined : rng.chance(0.3) ? realId : oddId(rng, realId);
    const path = id === undefined ? base : `${base}/${id}`;
    const query = rng.chance(0.5) ? `?businessId=${BIZ}` : rng.pick(ODD_QUERIES);
    const headers: Record<string, string> = {};
    // Some clients send a JSON body with a GET.
    const body = rng.chance(0.1) ? rng.pick(['{}', '{', 'null', '']) : undefined;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (rng.chance(0.1))
      headers.authorization = rng.pick(['Basic', 'Basic %%%', 'Basic ' + Buffer.from('a:b').toString('base64'), 'Bearer x', 'Basic ' + 'A'.repeat(5000)]);
    out.push({ method: rng.pick(['GET', 'GET', 'GET', 'HEAD']), path: `${path}${query}`, body, headers });
  }
  return out;
}

/** Paths that are odd as a whole, on the API, admin and page prefixes. */
function oddPathCases(rng: Rng, count: number): FuzzRequest[] {
  const bases = [
    '/gateway/v3/paymentlinks',
    '/gateway/v3/checkouts',
    '/gateway/v3/payments',
    '/gateway/v3/tokens',
    '/gateway/v3/web/paymentlinks',
    '/gateway/v3/web/checkouts',
    '/gateway/v3/web/3ds',
    '/gateway/v3/web/bank',
    '/gateway/v3/web/assets',
    '/__sandbox/requests',
    '/__sandbox/links',
    '/__sandbox/demo',
    '/paymentlink/1.0.0/paymentlink-library.js',
    '/checkout/x/checkout-library.js',
    '/',
  ];
  const tails = [
    '',
    '/',
    '//',
    '/%',
    '/%00',
    '/..',
    '/../..',
    '/./.',
    '/%2e%2e/%2e%2e',
    `/${'x'.repeat(10_000)}`,
    '/a/b/c/d/e/f',
    '//gateway//v3//',
    '/%c0%ae%c0%ae',
    '/cancel',
    '/capture/x',
    '?%',
    '/\u00e9',
  ];
  const out: FuzzRequest[] = [];
  for (let n = 0; n < count; n++) {
    const base = rng.pick(bases);
    const tail = rng.pick(tails);
    const prefix = rng.pick(['', '', '/', '//', '/./']);
    const path = encodeURI(decodeURIComponentSafe(prefix + base + tail)).length === 0 ? '/' : prefix + base + tail;
    out.push({
      method: rng.pick(['GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH']),
      path: escapeRaw(path),
      body: rng.chance(0.3) ? '{}' : undefined,
      headers: { 'content-type': 'application/json' },
    });
  }
  return out;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Node refuses non-ASCII and spaces in a request path; encode only those, keep every `%` and `.` raw. */
function escapeRaw(path: string): string {
  return path.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
}

// ---------------------------------------------------------------------------------------------------------
// Form bodies for the hosted pages.

const FORM_FIELDS = ['formToken', 'action', 'cardNumber', 'expiryMonth', 'expiryYear', 'cvv', 'holderName', 'saveCard', 'framed', 'code'];
const FORM_VALUES = [
  '',
  'pay',
  'decline',
  'cancel',
  'submit',
  'approve',
  'on',
  '1',
  '1234',
  '4111111111111111',
  '4111 1111 1111 1111',
  '4000000000003220',
  '12',
  '13',
  '00',
  '-1',
  '2035',
  '99999999999999999999',
  '1e308',
  'NaN',
  '%',
  '%zz',
  '%00',
  '%ed%a0%80',
  '<script>x</script>',
  'x'.repeat(10_000),
  '😀',
];

function formCases(rng: Rng, path: () => string, formToken: () => string | undefined, count: number): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (let n = 0; n < count; n++) {
    const roll = rng.int(8);
    let body: string | Buffer | undefined;
    if (roll === 0) {
      body = rng.pick(WHOLE_BODIES);
    } else if (roll === 1) {
      body = 'x=' + 'y'.repeat(70 * 1024);
    } else {
      const parts: string[] = [];
      const token = formToken();
      if (token !== undefined && rng.chance(0.5)) parts.push(`formToken=${token}`);
      const fields = rng.int(6) + 1;
      for (let f = 0; f < fields; f++) {
        const name = rng.chance(0.9) ? rng.pick(FORM_FIELDS) : rng.pick(['', '%', '__proto__', 'a[b]', 'x'.repeat(1000)]);
        const value = rng.pick(FORM_VALUES);
        parts.push(rng.chance(0.8) ? `${name}=${value.includes('%') ? value : encodeURIComponent(value)}` : name);
      }
      body = parts.join(rng.pick(['&', '&', '&&', ';']));
    }
    const headers: Record<string, string> = {
      'content-type': rng.chance(0.85) ? 'application/x-www-form-urlencoded' : rng.pick(WRONG_CONTENT_TYPES.concat('application/json')),
    };
    out.push({ method: 'POST', path: path(), body, headers });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Valid bodies.

function validPayment(action = 'payment', number = '4111111111111111'): JsonValue {
  return {
    action,
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 10.5, currencyCode: 'EUR', trackingCode: uniqueCode('fz'), brandId: 1010, tokenize: 'false' },
      card: { number, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' },
    },
  };
}

function validTokenPayment(token: string): JsonValue {
  return { action: 'payment', header: { businessId: BIZ }, body: { transaction: { amount: 3, currencyCode: 'EUR', trackingCode: uniqueCode('fzt'), token } } };
}

function validBankPayment(): JsonValue {
  return {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 7, currencyCode: 'EUR', trackingCode: uniqueCode('fzb'), brandId: 3010 },
      bank: { countryCode: 'NL', issuerId: 'INGBNL2A' },
    },
  };
}

function validToken(): JsonValue {
  return {
    header: { businessId: BIZ },
    body: {
      brandId: 1010,
      card: { holderName: 'Ada Lovelace', number: '4111111111111111', expiryMonth: '12', expiryYear: '2035' },
      customer: { email: 'ada@example.com' },
    },
  };
}

function validLink(): JsonValue {
  const l = linkRequest({ businessId: BIZ }) as unknown as { body: { link: Record<string, unknown> } } & JsonValue;
  l.body.link.tokenize = 'false';
  return l;
}

function validCheckout(): JsonValue {
  return checkoutRequest({ businessId: BIZ }) as unknown as JsonValue;
}

async function created(path: string, body: JsonValue): Promise<any> {
  const res = await sb.post(path, body);
  expect(res.status, res.text).toBeLessThan(300);
  return res.body;
}

// ---------------------------------------------------------------------------------------------------------

describe('fuzzing every endpoint with malformed and edge-case requests', () => {
  const rng = new Rng(SEED);
  // Made before the fuzz run, read back after it.
  const before: { linkId: string; checkoutId: string; paymentId: string; token: string; link?: any; checkout?: any; payment?: any; tokenBody?: any } = {
    linkId: '',
    checkoutId: '',
    paymentId: '',
    token: '',
  };
  // Targets the fuzz may change (cancel, capture, pay).
  const targets = { linkId: '', checkoutId: '', authId: '', secureId: '', bankId: '' };

  const read = async () => ({
    link: (await sb.get(`/gateway/v3/paymentlinks/${before.linkId}?businessId=${BIZ}`)).body,
    checkout: (await sb.get(`/gateway/v3/checkouts/${before.checkoutId}?businessId=${BIZ}`)).body,
    payment: (await sb.get(`/gateway/v3/payments/${before.paymentId}?businessId=${BIZ}`)).body,
    tokenBody: (await sb.get(`/gateway/v3/tokens/${before.token}?businessId=${BIZ}`)).body,
  });

  beforeAll(async () => {
    before.linkId = (await created('/gateway/v3/paymentlinks', validLink())).body.link.linkId;
    before.checkoutId = (await created('/gateway/v3/checkouts', validCheckout())).body.checkout.checkoutId;
    before.paymentId = (await created('/gateway/v3/payments', validPayment())).body.transaction.id;
    before.token = (await created('/gateway/v3/tokens', validToken())).body.token;
    Object.assign(before, await read());
    targets.linkId = (await created('/gateway/v3/paymentlinks', validLink())).body.link.linkId;
    targets.checkoutId = (await created('/gateway/v3/checkouts', validCheckout())).body.checkout.checkoutId;
    targets.authId = (await created('/gateway/v3/payments', validPayment('authorize'))).body.transaction.id;
    targets.secureId = (await created('/gateway/v3/payments', validPayment('payment', '4000000000003220'))).body.transaction.id;
    targets.bankId = (await created('/gateway/v3/payments', validBankPayment())).body.transaction.id;
  });

  // Clean, and the fuzz reached both sides: some requests were refused and some went through (so the
  // mutations are not all stopped at the JSON parser).
  const expectClean = (failures: string[]) => {
    const counts = takeCounts();
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect(counts['4xx'] ?? 0, JSON.stringify(counts)).toBeGreaterThan(0);
    expect((counts['2xx'] ?? 0) + (counts['3xx'] ?? 0), JSON.stringify(counts)).toBeGreaterThan(0);
  };

  it('POST /paymentlinks answers every malformed body with an input error envelope, never a 500', async () => {
    expectClean(await run('api', jsonCases(rng, 'POST', '/gateway/v3/paymentlinks', validLink, 300)));
  });

  it('POST /checkouts answers every malformed body with an input error envelope, never a 500', async () => {
    expectClean(await run('api', jsonCases(rng, 'POST', '/gateway/v3/checkouts', validCheckout, 300)));
  });

  it('POST /payments answers every malformed card, token and bank payment with an envelope, never a 500', async () => {
    const cases = [
      ...jsonCases(
        rng,
        'POST',
        '/gateway/v3/payments',
        () => validPayment(rng.pick(['payment', 'authorize']), rng.chance(0.5) ? '4111111111111111' : rng.pick(SENT_CARDS)),
        250,
      ),
      ...jsonCases(rng, 'POST', '/gateway/v3/payments', () => validTokenPayment(before.token), 100),
      ...jsonCases(rng, 'POST', '/gateway/v3/payments', validBankPayment, 100),
    ];
    expectClean(await run('api', cases));
  });

  it('POST /tokens answers every malformed body with an envelope, never a 500', async () => {
    expectClean(await run('api', jsonCases(rng, 'POST', '/gateway/v3/tokens', validToken, 250)));
  });

  it('capture, cancel and refund answer every malformed body and odd id with an envelope, never a 500', async () => {
    const valid = (): JsonValue => ({ header: { businessId: BIZ }, body: { transaction: { amount: 1 } } });
    const cases: FuzzRequest[] = [];
    for (const action of ['capture', 'cancel', 'refund']) {
      cases.push(
        ...jsonCases(rng, 'POST', () => `/gateway/v3/payments/${rng.chance(0.8) ? targets.authId : oddId(rng, targets.authId)}/${action}`, valid, 120),
      );
    }
    expectClean(await run('api', cases));
  });

  it('POST /paymentlinks/{id}/cancel answers every malformed body and odd id with an envelope, never a 500', async () => {
    const valid = (): JsonValue => ({ header: { businessId: BIZ } });
    const cases = jsonCases(rng, 'POST', () => `/gateway/v3/paymentlinks/${rng.chance(0.7) ? targets.linkId : oddId(rng, targets.linkId)}/cancel`, valid, 200);
    expectClean(await run('api', cases));
  });

  it('every GET of the API answers odd ids, queries and bodies with an envelope, never a 500', async () => {
    const cases = [
      ...getCases(rng, '/gateway/v3/paymentlinks', before.linkId, 120),
      ...getCases(rng, '/gateway/v3/paymentlinks', undefined, 60),
      ...getCases(rng, '/gateway/v3/checkouts', before.checkoutId, 120),
      ...getCases(rng, '/gateway/v3/checkouts', undefined, 60),
      ...getCases(rng, '/gateway/v3/payments', before.paymentId, 120),
      ...getCases(rng, '/gateway/v3/payments', targets.bankId, 60),
      ...getCases(rng, '/gateway/v3/payments', undefined, 60),
      ...getCases(rng, '/gateway/v3/tokens', before.token, 120),
    ];
    // HEAD answers carry no body: only the status is checked for them.
    const failures = await run('api', cases);
    expectClean(failures);
  });

  it('the hosted forms of links and checkouts answer every malformed POST with HTML or a redirect, never a 500', async () => {
    const token = async (path: string): Promise<string | undefined> => {
      const page = await sb.get(path);
      return /name="formToken" value="([^"]+)"/.exec(page.text)?.[1];
    };
    const linkPage = `/gateway/v3/web/paymentlinks/${targets.linkId}`;
    const checkoutPage = `/gateway/v3/web/checkouts/${targets.checkoutId}`;
    const linkToken = await token(linkPage);
    const checkoutToken = await token(checkoutPage);
    const cases = [
      ...formCases(
        rng,
        () => (rng.chance(0.8) ? linkPage : `/gateway/v3/web/paymentlinks/${oddId(rng, targets.linkId)}`),
        () => linkToken,
        200,
      ),
      ...formCases(
        rng,
        () => (rng.chance(0.8) ? checkoutPage : `/gateway/v3/web/checkouts/${oddId(rng, targets.checkoutId)}`),
        () => checkoutToken,
        200,
      ),
      ...getCases(rng, '/gateway/v3/web/paymentlinks', targets.linkId, 40),
      ...getCases(rng, '/gateway/v3/web/checkouts', targets.checkoutId, 40),
    ];
    expectClean(await run('page', cases));
  });

  it('the hosted forms of fresh links and checkouts take every test card and malformed card fields without a 500', async () => {
    const cards = [
      ...SENT_CARDS,
      '4111 1111 1111 1111',
      '4111-1111-1111-1111',
      '4111111111111112',
      '4012888888881881',
      '',
      '0',
      '4'.repeat(19),
      '4'.repeat(200),
      '٤١١١١١١١١١١١١١١١',
      '4111111111111111\u0000',
    ];
    const months = ['12', '1', '01', '0', '13', '-1', '', 'ab', '1e1', '12.0', '٠٣', '9'.repeat(50)];
    const years = ['2035', '35', '2020', '1999', '0', '', '99999', '2035.5', 'NaN', '9'.repeat(50)];
    const cvvs = ['123', '1234', '12', '', 'abc', '9'.repeat(50)];
    const names = ['Ada Lovelace', '', ' ', '<script>alert(1)</script>', 'x'.repeat(5000), '\u0000', '😀'];
    const requests: Array<() => Promise<FuzzRequest>> = [];
    for (let n = 0; n < 150; n++) {
      const isLink = rng.chance(0.5);
      const tokenize = rng.pick(['false', 'true', 'inquire']);
      const brandIds = rng.pick([[1010], [1010, 1020, 1030], [1020], [1010, 1011, 1013, 1015, 1020, 1023, 1030, 1040, 1050, 1060, 1090, 1210]]);
      const fields: string[] = [];
      if (rng.chance(0.95)) fields.push(`cardNumber=${encodeURIComponent(rng.chance(0.7) ? rng.pick(SENT_CARDS) : rng.pick(cards))}`);
      if (rng.chance(0.95)) fields.push(`expiryMonth=${encodeURIComponent(rng.chance(0.7) ? '12' : rng.pick(months))}`);
      if (rng.chance(0.95)) fields.push(`expiryYear=${encodeURIComponent(rng.chance(0.7) ? '2035' : rng.pick(years))}`);
      if (rng.chance(0.95)) fields.push(`cvv=${encodeURIComponent(rng.chance(0.7) ? '123' : rng.pick(cvvs))}`);
      if (rng.chance(0.95)) fields.push(`holderName=${encodeURIComponent(rng.chance(0.7) ? 'Ada Lovelace' : rng.pick(names))}`);
      if (rng.chance(0.3)) fields.push(`saveCard=${rng.pick(['on', 'off', '', '1'])}`);
      if (rng.chance(0.2)) fields.push(`action=${rng.pick(['pay', 'decline', 'x', ''])}`);
      if (rng.chance(0.3)) fields.push(`framed=${rng.pick(['1', '0', 'x'])}`);
      const attempts = rng.int(3) + 1;
      requests.push(async () => {
        const created = isLink
          ? await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: BIZ, link: { tokenize, brandIds } }))
          : await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ, checkout: { tokenize, brandIds } }));
        const id = isLink ? created.body.body.link.linkId : created.body.body.checkout.checkoutId;
        const page = `/gateway/v3/web/${isLink ? 'paymentlinks' : 'checkouts'}/${id}`;
        // Earlier attempts with the approve-on-retry cards, so that the fuzzed one may be a second or third.
        for (let a = 1; a < attempts; a++) {
          const token = /name="formToken" value="([^"]+)"/.exec((await sb.get(page)).text)?.[1] ?? '';
          await send({
            method: 'POST',
            path: page,
            body: `formToken=${token}&cardNumber=4000000000000002&expiryMonth=12&expiryYear=2035&cvv=123&holderName=A`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
        }
        const token = /name="formToken" value="([^"]+)"/.exec((await sb.get(page)).text)?.[1] ?? 'none';
        return {
          method: 'POST',
          path: page,
          body: [`formToken=${token}`, ...fields].join('&'),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        };
      });
    }
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < requests.length) {
          const req = await requests[next++]!();
          const res = await send(req);
          harvest(res);
          const bucket = `${Math.floor(res.status / 100)}xx`;
          statusCounts[bucket] = (statusCounts[bucket] ?? 0) + 1;
          const problem = problemOf('page', res, req);
          if (problem) failures.push(`${describeRequest(req)}\n    -> ${problem}`);
        }
      }),
    );
    // A refused card re-shows the form (2xx), a payment that ends the page redirects (3xx).
    const counts = takeCounts();
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect([(counts['2xx'] ?? 0) > 0, (counts['3xx'] ?? 0) > 0], JSON.stringify(counts)).toEqual([true, true]);
  });

  it('the challenge and bank pages of fresh payments take every code, button and odd field without a 500', async () => {
    const codes = ['1234', '0000', '', ' 1234', '1234 ', '12345', 'abcd', '%', 'x'.repeat(5000), '١٢٣٤'];
    const makers: Array<() => Promise<FuzzRequest>> = [];
    for (let n = 0; n < 80; n++) {
      const bank = rng.chance(0.4);
      const action = bank ? rng.pick(['approve', 'cancel', 'x', '']) : rng.pick(['submit', 'cancel', 'x', '']);
      const code = rng.pick(codes);
      const framed = rng.pick(['1', '0', '']);
      const withToken = rng.chance(0.85);
      const amount = rng.pick([1, 2, 3, 4, 5, 7, 12.34]);
      const mode = rng.pick(['payment', 'authorize']);
      // Everything random is drawn above, in order; the async part below draws nothing (determinism).
      makers.push(async () => {
        const body = bank
          ? {
              ...(validBankPayment() as object),
              body: {
                transaction: { amount, currencyCode: 'EUR', trackingCode: uniqueCode('fzb'), brandId: 3010 },
                bank: { countryCode: 'NL', issuerId: 'INGBNL2A' },
              },
            }
          : validPayment(mode, '4000000000003220');
        const created = await sb.post('/gateway/v3/payments', body);
        const id = created.body.body.transaction.id as string;
        const page = `/gateway/v3/web/${bank ? 'bank' : '3ds'}/${id}`;
        const token = bank ? undefined : /name="formToken" value="([^"]+)"/.exec((await sb.get(page)).text)?.[1];
        const fields = [`action=${action}`, `code=${encodeURIComponent(code)}`, `framed=${framed}`];
        if (token !== undefined && withToken) fields.unshift(`formToken=${token}`);
        return { method: 'POST', path: page, body: fields.join('&'), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
      });
    }
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < makers.length) {
          const req = await makers[next++]!();
          const res = await send(req);
          const bucket = `${Math.floor(res.status / 100)}xx`;
          statusCounts[bucket] = (statusCounts[bucket] ?? 0) + 1;
          const problem = problemOf('page', res, req);
          if (problem) failures.push(`${describeRequest(req)}\n    -> ${problem}`);
          // The settled payment reads back as an envelope.
          const id = req.path.split('/').at(-1)!;
          const read = await send({ method: 'GET', path: `/gateway/v3/payments/${id}?businessId=${BIZ}` });
          const readProblem = problemOf('api', read);
          if (readProblem) failures.push(`GET payment ${id} after ${describeRequest(req)}\n    -> ${readProblem}`);
        }
      }),
    );
    const counts = takeCounts();
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect((counts['2xx'] ?? 0) + (counts['3xx'] ?? 0), JSON.stringify(counts)).toBeGreaterThan(0);
  });

  it('the 3-D Secure and bank pages answer every malformed POST and odd id with HTML or a redirect, never a 500', async () => {
    const securePage = `/gateway/v3/web/3ds/${targets.secureId}`;
    const secureToken = /name="formToken" value="([^"]+)"/.exec((await sb.get(securePage)).text)?.[1];
    const bankPage = `/gateway/v3/web/bank/${targets.bankId}`;
    const cases = [
      ...formCases(
        rng,
        () => (rng.chance(0.8) ? securePage : `/gateway/v3/web/3ds/${oddId(rng, targets.secureId)}`),
        () => secureToken,
        200,
      ),
      ...formCases(
        rng,
        () => (rng.chance(0.8) ? bankPage : `/gateway/v3/web/bank/${oddId(rng, targets.bankId)}`),
        () => undefined,
        150,
      ),
      ...getCases(rng, '/gateway/v3/web/3ds', targets.secureId, 40),
      ...getCases(rng, '/gateway/v3/web/bank', targets.bankId, 40),
    ];
    expectClean(await run('page', cases));
  });

  it('the admin endpoints answer odd filters and pages with an envelope, never a 500', async () => {
    const filters = ['status', 'method', 'since', 'limit', 'path', 'businessId', 'wait', 'page', 'pageSize', 'token'];
    const values = [
      '',
      '0',
      '-1',
      '1',
      '1.5',
      '1e308',
      '-0',
      'NaN',
      'Infinity',
      '9007199254740993',
      '4xx',
      '5XX',
      '200',
      '999',
      'GET',
      'get',
      'G E T',
      '%',
      '%00',
      '%zz',
      '%ed%a0%80',
      'x'.repeat(5000),
      '/gateway/%',
      '__proto__',
    ];
    const bases = [
      '/__sandbox/requests',
      '/__sandbox/links',
      '/__sandbox/checkouts',
      '/__sandbox/payments',
      '/__sandbox/tokens',
      '/__sandbox/health',
      '/__sandbox/clock',
    ];
    const cases: FuzzRequest[] = [];
    for (let n = 0; n < 300; n++) {
      const parts: string[] = [];
      for (let f = rng.int(4); f >= 0; f--) {
        const name = rng.pick(filters);
        let value = rng.pick(values);
        // A follower's wait holds the answer: keep it at zero.
        if (name === 'wait') value = rng.pick(['0', '', 'x', '-1', '31', '1e308']);
        parts.push(`${name}=${value}`);
      }
      cases.push({ method: 'GET', path: escapeRaw(`${rng.pick(bases)}?${parts.join('&')}`) });
    }
    // `wait` above 0 only answers after the wait when `since` is given too; those are all refused or immediate.
    const safe = cases.filter((c) => !/wait=(?:[1-9]|30)(?:&|$)/.test(c.path) || !/since=/.test(c.path));
    expectClean(await run('admin', safe));
  });

  it('POST /__sandbox/clock answers every malformed body with an envelope, never a 500, and the clock keeps working', async () => {
    const valid = (): JsonValue =>
      rng.pick([{ advance: '31m' }, { set: '2031-05-01T10:00:00Z', freeze: true }, { freeze: false }, { reset: true }, { advance: 60000, freeze: true }]);
    const cases = jsonCases(rng, 'POST', '/__sandbox/clock', valid, 250);
    const extra: FuzzRequest[] = ['1e308', '-1e308', '8.64e15', '8.64e15', '"999999999d"', '"P99999999W"', '"-999999999w"', '"99999999999999999999ms"'].flatMap(
      (v) => [
        { method: 'POST', path: '/__sandbox/clock', body: `{"advance":${v}}`, headers: { 'content-type': 'application/json' } },
        { method: 'POST', path: '/__sandbox/clock', body: `{"set":${v}}`, headers: { 'content-type': 'application/json' } },
      ],
    );
    const reset = async () => {
      await send({ method: 'POST', path: '/__sandbox/clock', body: '{"reset":true}', headers: { 'content-type': 'application/json' } });
    };
    // One at a time, each followed by a reset, so that the rest of the run sees a sane clock.
    const broken: string[] = [];
    const failures = await run('admin', [...cases, ...extra], 1, async () => {
      const clock = await send({ method: 'GET', path: '/__sandbox/clock' });
      const problem = problemOf('admin', clock);
      if (problem) broken.push(`GET /__sandbox/clock after a change -> ${problem}`);
      await reset();
    });
    await reset();
    expectClean([...failures, ...broken]);
  });

  it('odd paths and methods anywhere answer an envelope or an HTML page (HTML where a page route matches), never a 500', async () => {
    // 'page': HTML, or (for what no page route matches) a valid envelope; anything else fails.
    expectClean(await run('page', oddPathCases(rng, 400)));
  });

  it('the dashboard pages answer odd pages, filters, ids and form posts with HTML or a redirect, never a 500', async () => {
    const base = '/__sandbox/dashboard';
    const values = ['', '0', '-1', '2', '1e308', 'NaN', '%', '%00', '%zz', '%ed%a0%80', 'x'.repeat(3000), '4xx', '999', '__proto__', '<b>'];
    const cases: FuzzRequest[] = [];
    for (let n = 0; n < 200; n++) {
      const list = rng.pick(['', '/links', '/checkouts', '/payments', '/tokens', '/requests']);
      const query = Array.from(
        { length: rng.int(3) + 1 },
        () => `${rng.pick(['page', 'businessId', 'path', 'status', 'before', 'token'])}=${rng.pick(values)}`,
      ).join('&');
      cases.push({ method: 'GET', path: escapeRaw(`${base}${list}?${query}`) });
    }
    const ids: Record<string, string> = { links: before.linkId, checkouts: before.checkoutId, payments: before.paymentId, tokens: before.token };
    for (let n = 0; n < 120; n++) {
      const kind = rng.pick(['links', 'checkouts', 'payments', 'tokens']);
      cases.push({ method: 'GET', path: `${base}/${kind}/${rng.chance(0.3) ? ids[kind]! : oddId(rng, ids[kind]!)}` });
    }
    const origin = { origin: sb.url };
    const postPath = (): string => {
      const which = rng.int(4);
      if (which === 0) return `${base}/clock`;
      if (which === 1) return `${base}/links/${rng.chance(0.5) ? targets.linkId : oddId(rng, targets.linkId)}/copy`;
      if (which === 2) return `${base}/links/${rng.chance(0.5) ? targets.linkId : oddId(rng, targets.linkId)}/pay`;
      return `${base}/checkouts/${rng.chance(0.5) ? targets.checkoutId : oddId(rng, targets.checkoutId)}/pay`;
    };
    const formBodies = [
      'advance=31m',
      'advance=1e308',
      'advance=999999999d',
      'advance=',
      'advance=%',
      'reset=1',
      'back=//evil.example&advance=1m',
      'outcome=approved',
      'outcome=declined',
      'outcome=decline-button',
      'outcome=__proto__',
      'outcome=',
      'outcome=%zz',
      `outcome=${'x'.repeat(3000)}`,
    ];
    for (let n = 0; n < 120; n++) {
      cases.push({
        method: 'POST',
        path: postPath(),
        body: rng.pick(formBodies),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(rng.chance(0.8) ? origin : { origin: rng.pick(['null', 'http://evil.example', '%', '']) }),
        },
      });
    }
    const reset = async () => {
      await send({ method: 'POST', path: '/__sandbox/clock', body: '{"reset":true}', headers: { 'content-type': 'application/json' } });
    };
    const failures = await run('page', cases, 1, async () => {
      if (rng.chance(0.1)) await reset();
    });
    await reset();
    expectClean(failures);
  });

  it('everything the fuzz created reads back and renders (API, hosted page, dashboard) without a 500', async () => {
    expect(harvested.links.size + harvested.checkouts.size + harvested.payments.size + harvested.tokens.size).toBeGreaterThan(50);
    // Markup in every free-text value, for sure (the fuzz may or may not have got one through).
    const markup = INJECTED_MARKUP[0]!;
    harvest(
      await send({
        method: 'POST',
        path: '/gateway/v3/paymentlinks',
        body: JSON.stringify(linkRequest({ businessId: BIZ, transaction: { trackingCode: markup } })),
        headers: { 'content-type': 'application/json' },
      }),
    );
    harvest(
      await send({
        method: 'POST',
        path: '/gateway/v3/checkouts',
        body: JSON.stringify(checkoutRequest({ businessId: BIZ, transaction: { trackingCode: markup } })),
        headers: { 'content-type': 'application/json' },
      }),
    );
    const bank = {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 7, currencyCode: 'EUR', trackingCode: `${markup}b`, brandId: 3010 },
        bank: { countryCode: 'NL', issuerId: INJECTED_MARKUP[1] },
      },
    };
    const bankRes = await send({ method: 'POST', path: '/gateway/v3/payments', body: JSON.stringify(bank), headers: { 'content-type': 'application/json' } });
    expect(bankRes.status, bankRes.text).toBeLessThan(300);
    harvest(bankRes);
    const card = {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 1, currencyCode: 'EUR', trackingCode: `${markup}c`, tokenize: 'true' },
        card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: INJECTED_MARKUP[2] },
      },
    };
    const cardRes = await send({ method: 'POST', path: '/gateway/v3/payments', body: JSON.stringify(card), headers: { 'content-type': 'application/json' } });
    expect(cardRes.status, cardRes.text).toBeLessThan(300);
    harvest(cardRes);
    if (typeof cardRes.body.body.token?.token === 'string') harvested.tokens.add(cardRes.body.body.token.token);
    const pages: FuzzRequest[] = [{ method: 'GET', path: `/gateway/v3/web/bank/${bankRes.body.body.transaction.id}` }];
    const cases: FuzzRequest[] = [];
    const api: FuzzRequest[] = [];
    for (const id of harvested.links) {
      api.push({ method: 'GET', path: `/gateway/v3/paymentlinks/${id}?businessId=${BIZ}` });
      cases.push({ method: 'GET', path: `/gateway/v3/web/paymentlinks/${id}` }, { method: 'GET', path: `/__sandbox/dashboard/links/${id}` });
    }
    for (const id of harvested.checkouts) {
      api.push({ method: 'GET', path: `/gateway/v3/checkouts/${id}?businessId=${BIZ}` });
      cases.push({ method: 'GET', path: `/gateway/v3/web/checkouts/${id}` }, { method: 'GET', path: `/__sandbox/dashboard/checkouts/${id}` });
    }
    for (const id of harvested.payments) {
      api.push({ method: 'GET', path: `/gateway/v3/payments/${id}?businessId=${BIZ}` });
      cases.push({ method: 'GET', path: `/__sandbox/dashboard/payments/${id}` });
    }
    for (const id of harvested.tokens) {
      api.push({ method: 'GET', path: `/gateway/v3/tokens/${id}?businessId=${BIZ}` });
      cases.push({ method: 'GET', path: `/__sandbox/dashboard/tokens/${id}` });
    }
    for (const list of ['links', 'checkouts', 'payments', 'tokens', 'requests']) {
      for (let page = 1; page <= 4; page++) cases.push({ method: 'GET', path: `/__sandbox/dashboard/${list}?page=${page}` });
    }
    cases.push({ method: 'GET', path: '/' }, { method: 'GET', path: '/__sandbox/dashboard' });
    const admin: FuzzRequest[] = [];
    for (let since = 0; since < 12_000; since += 1000) admin.push({ method: 'GET', path: `/__sandbox/requests?since=${since}&limit=1000` });
    for (const list of ['links', 'checkouts', 'payments', 'tokens']) admin.push({ method: 'GET', path: `/__sandbox/${list}?pageSize=200` });
    cases.push(...pages);
    const failures = [...(await run('api', api)), ...(await run('page', cases)), ...(await run('admin', admin, 2))];
    takeCounts();
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
  });

  it('the same creation sent twenty times at once gives one success per trackingCode and clear refusals, never a 500', async () => {
    const cases: FuzzRequest[] = [];
    const link = JSON.stringify(validLink());
    const checkout = JSON.stringify(validCheckout());
    const payment = JSON.stringify(validPayment());
    for (let n = 0; n < 20; n++) {
      cases.push({ method: 'POST', path: '/gateway/v3/paymentlinks', body: link, headers: { 'content-type': 'application/json' } });
      cases.push({ method: 'POST', path: '/gateway/v3/checkouts', body: checkout, headers: { 'content-type': 'application/json' } });
      cases.push({ method: 'POST', path: '/gateway/v3/payments', body: payment, headers: { 'content-type': 'application/json' } });
    }
    const results = await Promise.all(cases.map(async (req) => ({ req, res: await send(req) })));
    const failures = results.flatMap(({ req, res }) => {
      const problem = problemOf('api', res, req);
      return problem ? [`${describeRequest(req)}\n    -> ${problem}`] : [];
    });
    expect(failures, failures.slice(0, 5).join('\n')).toEqual([]);
    for (const path of ['/gateway/v3/paymentlinks', '/gateway/v3/checkouts', '/gateway/v3/payments']) {
      const ok = results.filter(({ req, res }) => req.path === path && res.status < 300);
      const refused = results.filter(({ req, res }) => req.path === path && res.status >= 400);
      expect([path, ok.length, refused.length, refused.every(({ res }) => res.body.result === -8)]).toEqual([path, 1, 19, true]);
    }
  });

  it('data created before the fuzz run reads back unchanged after it', async () => {
    const after = await read();
    expect(after.link.body).toEqual(before.link.body);
    expect(after.link.result).toBe(before.link.result);
    expect(after.checkout.body).toEqual(before.checkout.body);
    expect(after.checkout.result).toBe(before.checkout.result);
    expect(after.payment).toEqual(before.payment);
    expect(after.tokenBody.body).toEqual(before.tokenBody.body);
    expect(after.link.body.link.status).toBe('READY');
  });
});

describe('fuzzing credentials and the admin token on a sandbox that requires them', () => {
  const rng = new Rng(SEED + 1);
  const dir = mkdtempSync(join(tmpdir(), 'paylink-fuzz-'));
  let locked: RunningSandbox;
  const basic = (text: string) => `Basic ${Buffer.from(text, 'utf8').toString('base64')}`;
  beforeAll(async () => {
    locked = await startSandbox({
      port: 0,
      db: join(dir, 'sandbox.db'),
      credentials: [{ username: 'merchant', password: 's3cret:with:colons', businessIds: [BIZ] }],
      adminToken: 'fuzz-admin-token',
    });
  });
  afterAll(async () => {
    await locked?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every odd Authorization header with 401, 403 or the answer itself, as an envelope, never a 500', async () => {
    const authorizations = [
      '',
      'Basic',
      'Basic ',
      'basic ' + Buffer.from('merchant:s3cret:with:colons').toString('base64'),
      'BASIC    ' + Buffer.from('merchant:s3cret:with:colons').toString('base64'),
      basic('merchant:s3cret:with:colons'),
      basic('merchant:wrong'),
      basic('merchant'),
      basic(':'),
      basic('merchant:s3cret:with:colons\u0000'),
      basic('m\u00e9rchant:\u{1F4B3}'),
      'Basic %%%%',
      'Basic ' + 'A'.repeat(6000),
      'Basic =',
      'Bearer fuzz-admin-token',
      'Digest username="merchant"',
    ];
    const bodies = [JSON.stringify(validLink()), JSON.stringify({ ...(validLink() as object), header: { businessId: 'someone-else' } }), '{', ''];
    const failures: string[] = [];
    for (let n = 0; n < 200; n++) {
      const authorization = rng.pick(authorizations);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization !== '') headers.authorization = authorization;
      const req: FuzzRequest = rng.chance(0.5)
        ? { method: 'POST', path: '/gateway/v3/paymentlinks', body: rng.pick(bodies), headers }
        : { method: 'GET', path: `/gateway/v3/paymentlinks/${rng.pick(ODD_IDS)}?businessId=${rng.pick([BIZ, 'someone-else', ''])}`, headers };
      const res = await send(req, locked.url);
      const problem = problemOf('api', res, req);
      if (problem) failures.push(`${describeRequest(req)}\n    -> ${problem}`);
      if (res.status === 401 && res.body.result !== -6) failures.push(`${describeRequest(req)}\n    -> 401 with result ${res.body.result}`);
    }
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect(locked.sandbox.unexpectedErrors.splice(0)).toEqual([]);
  });

  it('answers every odd admin token (header, bearer, cookie, query) with 401 or the answer, never a 500', async () => {
    const tokens = ['', 'fuzz-admin-token', 'FUZZ-ADMIN-TOKEN', 'fuzz-admin-token ', '%', '%00', 'x'.repeat(5000), '\u00e9'];
    const paths = [
      '/__sandbox/health',
      '/__sandbox/clock',
      '/__sandbox/requests?limit=5',
      '/__sandbox/links',
      '/__sandbox/dashboard',
      '/__sandbox/dashboard/links',
      '/__sandbox/dashboard/requests',
    ];
    const failures: string[] = [];
    for (let n = 0; n < 200; n++) {
      const token = rng.pick(tokens);
      const how = rng.int(4);
      const headers: Record<string, string> = {};
      let path = rng.pick(paths);
      if (how === 0) headers.authorization = `Bearer ${token}`;
      else if (how === 1) headers['x-paylink-admin-token'] = token;
      else if (how === 2) headers.cookie = `a=b; paylink_admin=${token}; c`;
      else path += `${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
      const req: FuzzRequest = {
        method: 'GET',
        path: escapeRaw(path),
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, escapeRaw(v)])),
      };
      const res = await send(req, locked.url);
      const problem = problemOf(path.startsWith('/__sandbox/dashboard') ? 'page' : 'admin', res, req);
      if (problem) failures.push(`${describeRequest(req)}\n    -> ${problem}`);
    }
    expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    expect(locked.sandbox.unexpectedErrors.splice(0)).toEqual([]);
  });
});

describe('connections that misbehave', () => {
  /** Writes raw bytes on a fresh socket, then closes it after `holdMs`; resolves with whatever came back. */
  function rawExchange(bytes: string | Buffer, holdMs: number, end = false): Promise<string> {
    const url = new URL(sb.url);
    return new Promise((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.write(bytes);
      if (end) socket.end();
      // The client's own behaviour, not a wait for an event: it goes away `holdMs` after sending (mid-body, or
      // while its long poll waits), or gives up then on a server that keeps the connection open.
      setTimeout(() => socket.destroy(), holdMs);
    });
  }

  const stillAnswers = async () => {
    const res = await send({ method: 'GET', path: '/__sandbox/health' });
    expect(res.status).toBe(200);
  };

  it('survives clients that go away in the middle of a JSON body, a form body and a chunked body', async () => {
    const head = (path: string, type: string, length: string) => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\n${length}\r\n`;
    await Promise.all([
      rawExchange(`${head('/gateway/v3/paymentlinks', 'application/json', 'Content-Length: 500')}{"header":{"busi`, 50),
      rawExchange(`${head('/gateway/v3/payments', 'application/json', 'Transfer-Encoding: chunked')}5\r\n{"hea\r\n`, 50),
      rawExchange(`${head(`/gateway/v3/web/paymentlinks/${'0'.repeat(36)}`, 'application/x-www-form-urlencoded', 'Content-Length: 900')}cardNumber=41`, 50),
      rawExchange(`${head('/__sandbox/clock', 'application/json', 'Content-Length: 50')}{"adv`, 50, true),
    ]);
    await stillAnswers();
  });

  it('answers a chunked JSON body over 1 MiB with 413 and an envelope', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const parts = [
      `POST /gateway/v3/paymentlinks HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
    ];
    for (let i = 0; i < 20; i++) parts.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    parts.push('0\r\n\r\n');
    const answer = await rawExchange(parts.join(''), 2000);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toMatch(/"result":-1/);
    await stillAnswers();
  });

  it('survives a request log follower that goes away while it waits', async () => {
    const last = (await send({ method: 'GET', path: '/__sandbox/requests?limit=1' })).body.body.lastSeq as number;
    await rawExchange(`GET /__sandbox/requests?since=${last + 1000}&wait=1 HTTP/1.1\r\nHost: localhost\r\n\r\n`, 100);
    // The follower's wait (1 s) ends with nobody to answer: a request after it still answers.
    const ended = (await send({ method: 'GET', path: `/__sandbox/requests?since=${last + 1000}&wait=1` })).status;
    expect(ended).toBe(200);
    await stillAnswers();
  });
});

describe('found by fuzzing', () => {
  const json = { 'content-type': 'application/json' };
  const resetClock = () => send({ method: 'POST', path: '/__sandbox/clock', body: '{"reset":true}', headers: json });

  it('refuses a clock advance past the dates the sandbox can write (1e308 ms) with 1002 on advance, and keeps answering', async () => {
    const res = await send({ method: 'POST', path: '/__sandbox/clock', body: '{"advance":1e308}', headers: json });
    await resetClock();
    expect([res.status, res.body?.result, res.body?.body?.error?.code]).toEqual([400, -1, 1002]);
    expect(res.body.body.error.message).toContain('advance');
  });

  it('refuses a clock set to an instant the sandbox cannot write (1e308, 8.64e15 + 1) with 1002 on set', async () => {
    for (const value of ['1e308', '8640000000000001', '-1e308']) {
      const res = await send({ method: 'POST', path: '/__sandbox/clock', body: `{"set":${value}}`, headers: json });
      await resetClock();
      expect([value, res.status, res.body?.result, res.body?.body?.error?.code]).toEqual([value, 400, -1, 1002]);
    }
  });

  it('answers a dashboard list page for page=1e308 with an HTML page instead of a SQLite datatype mismatch 500', async () => {
    for (const list of ['links', 'checkouts', 'payments', 'tokens']) {
      const res = await send({ method: 'GET', path: `/__sandbox/dashboard/${list}?page=1e308` });
      expect([list, res.status, res.contentType]).toEqual([list, 200, 'text/html; charset=utf-8']);
    }
  });

  it('refuses amounts too small for the currency that JavaScript writes with an exponent (1e-7, 5e-324 EUR) with 1002', async () => {
    for (const amount of ['1e-7', '5e-324', '0.0000001']) {
      const payment = JSON.stringify(validPayment()).replace('"amount":10.5', `"amount":${amount}`);
      const link = JSON.stringify(validLink()).replace('"amount":12.5', `"amount":${amount}`);
      for (const [path, body] of [
        ['/gateway/v3/payments', payment],
        ['/gateway/v3/paymentlinks', link],
      ] as const) {
        const res = await send({ method: 'POST', path, body, headers: json });
        expect([path, amount, res.status, res.body?.result, res.body?.body?.error?.code]).toEqual([path, amount, 400, -1, 1002]);
        expect(res.body.body.error.message).toContain('body.transaction.amount');
      }
    }
  });

  it('answers an id too long for the HTTP parser (URL over 16 KB) with 431 and an envelope, not a bare status line', async () => {
    const res = await send({ method: 'GET', path: `/gateway/v3/paymentlinks/${'a'.repeat(20_000)}?businessId=biz-fuzz` });
    expect([res.status, res.contentType, res.body?.result, res.body?.body?.error?.code]).toEqual([431, 'application/json; charset=utf-8', -1, 1007]);
    expect(res.body.body.error.message).toMatch(/16 KB/);
    expect(res.body.header.requestCode).toMatch(/^\d+\.[0-9a-f-]{36}$/);
  });

  it('answers a request that is not valid HTTP with 400 and an envelope', async () => {
    const url = new URL(sb.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write('GET /gateway/v3/paymentlinks HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n');
      // A cap, not a wait: the answer ends when the sandbox closes the connection after the 400.
      setTimeout(() => socket.destroy(), 1000);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect([body.result, body.body.error.code]).toEqual([-1, 1007]);
  });

  it('leaves the clock where it was after a refused huge advance, so other requests still answer', async () => {
    await send({ method: 'POST', path: '/__sandbox/clock', body: '{"set":"2031-05-01T10:00:00Z","freeze":true}', headers: json });
    await send({ method: 'POST', path: '/__sandbox/clock', body: '{"advance":"999999999d"}', headers: json });
    const clock = await send({ method: 'GET', path: '/__sandbox/clock' });
    const link = await send({ method: 'GET', path: '/gateway/v3/paymentlinks/nope?businessId=biz-fuzz' });
    await resetClock();
    expect([clock.status, clock.body?.body?.now]).toEqual([200, '2031-05-01T10:00:00.000Z']);
    expect([link.status, typeof link.body?.result, link.body?.body?.error?.code]).toEqual([404, 'number', 1404]);
  });
});
