import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, useSandbox, type JsonResponse } from '../helpers/sandbox.js';

const sb = useSandbox();

const REQUEST_CODE = /^\d+\.[0-9a-f-]{36}$/;
// The provider answered date-times in whole seconds (docs/api.md, "Compatibility").
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Asserts the 400 input-error envelope naming `path` with code 1004 (missing) or 1002 (invalid). */
function expectInputError(res: JsonResponse, code: 1002 | 1004 | 1005, path?: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.result).toBe(-1);
  expect(res.body.description).toBe('Input error');
  expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
  expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
  expect(res.body.body.error.code).toBe(code);
  if (path !== undefined) {
    const prefix = code === 1004 ? `Property not found in request: ${path}.` : `Invalid property value: ${path}.`;
    expect(res.body.body.error.message.startsWith(prefix), res.body.body.error.message).toBe(true);
  }
}

type Patch = { transaction?: Record<string, unknown>; link?: Record<string, unknown> };

/** A link request with one field replaced; `undefined` removes it. */
function linkWith(patch: Patch) {
  const request = linkRequest(patch as never);
  for (const part of ['transaction', 'link'] as const) {
    for (const [key, value] of Object.entries(patch[part] ?? {})) {
      if (value === undefined) delete (request.body[part] as Record<string, unknown>)[key];
    }
  }
  return request;
}

const invalidLinkFields: Array<[string, Patch, string]> = [
  // amount
  ['a huge amount', { transaction: { amount: 1e308 } }, 'body.transaction.amount'],
  ['a tiny amount in exponent notation', { transaction: { amount: 1e-7 } }, 'body.transaction.amount'],
  ['a "NaN" amount', { transaction: { amount: 'NaN' } }, 'body.transaction.amount'],
  // duration
  ['duration PT9000H (over 365 days)', { link: { duration: 'PT9000H' } }, 'body.link.duration'],
  ['duration P1DT1H', { link: { duration: 'P1DT1H' } }, 'body.link.duration'],
  // returnUrl
  ['an empty returnUrl', { link: { returnUrl: '' } }, 'body.link.returnUrl'],
  // tokenize and threeDSecure
  ['tokenize maybe', { link: { tokenize: 'maybe' } }, 'body.link.tokenize'],
  ['a numeric tokenize', { link: { tokenize: 1 } }, 'body.link.tokenize'],
  ['threeDSecure as a string', { link: { threeDSecure: 'yes' } }, 'body.link.threeDSecure'],
];

const missingLinkFields: Array<[string, Patch, string]> = [['returnUrl', { link: { returnUrl: undefined } }, 'body.link.returnUrl']];

describe('link validation (docs/api.md, "Validation")', () => {
  it.each(invalidLinkFields)('refuses %s with 400, -1, 1002 naming the field', async (_name, patch, path) => {
    expectInputError(await sb.post('/gateway/v3/paymentlinks', linkWith(patch)), 1002, path);
  });

  it.each(missingLinkFields)('refuses a missing %s with 400, -1, 1004 naming the field', async (_name, patch, path) => {
    expectInputError(await sb.post('/gateway/v3/paymentlinks', linkWith(patch)), 1004, path);
  });

  it('names the amount first when both amount and currencyCode are missing', async () => {
    const res = await sb.post('/gateway/v3/paymentlinks', linkWith({ transaction: { amount: undefined, currencyCode: undefined } }));
    expectInputError(res, 1004, 'body.transaction.amount');
  });

  it('accepts the boundary values the conformance suite does not cover (lower-case currency, 12.1, an https returnUrl of 2048 characters, localhost)', async () => {
    const cases: Patch[] = [
      { transaction: { amount: 1.234, currencyCode: 'bhd' } },
      { transaction: { amount: 12.1 } },
      { link: { returnUrl: `https://merchant.example/${'a'.repeat(2048 - 'https://merchant.example/'.length)}` } },
      { link: { returnUrl: 'http://localhost:3000/return?order=1#top' } },
    ];
    for (const patch of cases) {
      const res = await sb.post('/gateway/v3/paymentlinks', linkWith(patch));
      expect(res.status, `${JSON.stringify(patch).slice(0, 120)}: ${res.text}`).toBe(200);
    }
  });

  it('refuses a missing or wrongly typed body part naming it', async () => {
    const base = linkRequest();
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: base.header }), 1004, 'body');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: base.header, body: [] }), 1002, 'body');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: base.header, body: 'x' }), 1002, 'body');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: base.header, body: { link: base.body.link } }), 1004, 'body.transaction');
    expectInputError(
      await sb.post('/gateway/v3/paymentlinks', { header: base.header, body: { transaction: 5, link: base.body.link } }),
      1002,
      'body.transaction',
    );
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: base.header, body: { transaction: base.body.transaction } }), 1004, 'body.link');
    expectInputError(
      await sb.post('/gateway/v3/paymentlinks', { header: base.header, body: { transaction: base.body.transaction, link: [1] } }),
      1002,
      'body.link',
    );
  });

  it('refuses a missing or wrongly typed header.businessId', async () => {
    const base = linkRequest();
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { body: base.body }), 1004, 'header.businessId');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: {}, body: base.body }), 1004, 'header.businessId');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: { businessId: '' }, body: base.body }), 1004, 'header.businessId');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: { businessId: 4.2 }, body: base.body }), 1002, 'header.businessId');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: { businessId: 'b'.repeat(101) }, body: base.body }), 1002, 'header.businessId');
    expectInputError(await sb.post('/gateway/v3/paymentlinks', { header: 'biz-1', body: base.body }), 1002, 'header');
  });

  it('refuses a GET without businessId with 1004 naming businessId', async () => {
    expectInputError(await sb.get('/gateway/v3/paymentlinks/some-id'), 1004, 'businessId');
    expectInputError(await sb.get('/gateway/v3/paymentlinks/some-id?businessId='), 1004, 'businessId');
  });
});

describe('checkout validation', () => {
  it.each([
    ['brandIds', { brandIds: undefined }, 'body.checkout.brandIds', 1004],
    ['returnUrl', { returnUrl: undefined }, 'body.checkout.returnUrl', 1004],
  ] as const)('refuses a bad %s (%j) naming %s', async (_name, checkout, path, code) => {
    const request = checkoutRequest({ checkout: checkout as Record<string, unknown> });
    for (const [key, value] of Object.entries(checkout)) if (value === undefined) delete (request.body.checkout as Record<string, unknown>)[key];
    expectInputError(await sb.post('/gateway/v3/checkouts', request), code, path);
  });

  it('refuses a missing body.checkout with 1004 naming it', async () => {
    const base = checkoutRequest();
    expectInputError(await sb.post('/gateway/v3/checkouts', { header: base.header, body: { transaction: base.body.transaction } }), 1004, 'body.checkout');
  });
});

describe('malformed input never produces a 500', () => {
  const raw = (body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    fetch(`${sb.url}/gateway/v3/paymentlinks`, { method: 'POST', headers, body }).then(async (r) => {
      const text = await r.text();
      return { status: r.status, headers: r.headers, text, body: JSON.parse(text) } as JsonResponse;
    });

  it.each([
    ['malformed JSON', '{"header": {"businessId": "biz-1"}, '],
    ['a single quote JSON', "{'header': {}}"],
    ['an empty body', ''],
    ['whitespace only', '   \n'],
    ['a JSON array', '[{"header": {"businessId": "biz-1"}}]'],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['a NaN literal', '{"header": {"businessId": "biz-1"}, "body": {"transaction": {"amount": NaN}}}'],
    ['an Infinity literal', '{"body": {"transaction": {"amount": Infinity}}}'],
    ['trailing garbage', '{"header": {"businessId": "biz-1"}} x'],
    ['a byte-order mark and binary garbage', Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe, 0x00, 0x7b])],
  ])('answers %s with 400, -1, code 1005', async (_name, body) => {
    expectInputError(await raw(body as BodyInit), 1005);
  });

  it('answers a number that overflows to Infinity with 1002 on the field', async () => {
    const text = JSON.stringify(linkRequest()).replace('"amount":12.5', '"amount":1e400');
    expect(text).toContain('1e400');
    expectInputError(await raw(text), 1002, 'body.transaction.amount');
  });

  it('answers a 20-digit amount with 1002 on the field', async () => {
    const text = JSON.stringify(linkRequest()).replace('"amount":12.5', '"amount":12345678901234567890');
    expectInputError(await raw(text), 1002, 'body.transaction.amount');
  });

  it('reads JSON whatever the content type says', async () => {
    const res = await raw(JSON.stringify(linkRequest()), { 'content-type': 'text/plain' });
    expect(res.status).toBe(200);
  });

  it('answers a body over 1 MiB with 413 and an envelope (declared length)', async () => {
    const big = JSON.stringify({ ...linkRequest(), padding: 'x'.repeat(1024 * 1024 + 10) });
    const res = await raw(big);
    expect(res.status).toBe(413);
    expect(res.body.result).toBe(-1);
    expect(res.body.body.error.code).toBe(1006);
    expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
  });

  it('answers a chunked body over 1 MiB with 413 and an envelope', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"padding": "'));
        if (sent >= 20) {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
          return;
        }
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${sb.url}/gateway/v3/paymentlinks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const body = JSON.parse(await response.text());
    expect(response.status).toBe(413);
    expect(body.body.error.code).toBe(1006);
  });

  it('accepts a body just under 1 MiB', async () => {
    const request = { ...linkRequest(), padding: '' };
    request.padding = 'x'.repeat(1024 * 1024 - JSON.stringify(request).length);
    const text = JSON.stringify(request);
    expect(Buffer.byteLength(text)).toBe(1024 * 1024);
    expect((await raw(text)).status).toBe(200);
  });

  it('answers deeply nested JSON with an input error, not a crash', async () => {
    const depth = 100_000;
    const text = `{"header": {"businessId": "biz-1"}, "body": {"transaction": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const res = await raw(text);
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(-1);
  });

  it('ignores a __proto__ key in the body and keeps answering', async () => {
    const text = JSON.stringify(linkRequest()).replace('{"header"', '{"__proto__": {"polluted": true}, "header"');
    const res = await raw(text);
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers an unknown API path with a 404 envelope and an unknown page with a 404', async () => {
    const api = await sb.get('/gateway/v3/unknown/thing');
    expect(api.status).toBe(404);
    expect(api.body.header.requestCode).toMatch(REQUEST_CODE);
    const page = await fetch(`${sb.url}/no/such/page`);
    expect(page.status).toBe(404);
    await page.text();
  });
});
