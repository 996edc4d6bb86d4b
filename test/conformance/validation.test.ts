import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { checkoutBody, expectError, expectInputError, linkBody, paymentBody, requestJson } from './client.js';

const sb = useSandbox();

type Kind = 'link' | 'checkout';
const PATH: Record<Kind, string> = { link: '/Gateway/v3/Paymentlinks', checkout: '/Gateway/v3/Checkouts' };

function body(kind: Kind, transaction: Record<string, unknown> = {}, resource: Record<string, unknown> = {}) {
  return kind === 'link' ? linkBody({ transaction, link: resource }) : checkoutBody({ transaction, checkout: resource });
}

function without<T extends { body: { transaction: Record<string, unknown> } }>(request: T, field: string): T {
  delete request.body.transaction[field];
  return request;
}

describe.each(['link', 'checkout'] as const)('%s creation: transaction validation (docs/api.md, "Validation")', (kind) => {
  const accepted = kind === 'link' ? 0 : 2;

  it('answers a missing amount with 400, -1, 1004 and "Property not found in request: body.transaction.amount."', async () => {
    const res = await sb.post(PATH[kind], without(body(kind), 'amount'));
    expectError(res, { result: -1, status: 400, code: 1004, message: 'Property not found in request: body.transaction.amount.' });
  });

  it('answers a missing currencyCode with 1004 naming body.transaction.currencyCode', async () => {
    expectInputError(await sb.post(PATH[kind], without(body(kind), 'currencyCode')), 1004, 'body.transaction.currencyCode');
  });

  it.each([0, -5, 'abc', '1e400', '', '12.5.0', 1_000_000_000, 12.345, true])('refuses amount %s with 1002 naming body.transaction.amount', async (amount) => {
    expectInputError(await sb.post(PATH[kind], body(kind, { amount })), 1002, 'body.transaction.amount');
  });

  it('refuses a null amount as a missing one: -1, 1004 naming body.transaction.amount', async () => {
    expectInputError(await sb.post(PATH[kind], body(kind, { amount: null })), 1004, 'body.transaction.amount');
  });

  it.each([
    [999_999_999, 'EUR'],
    [0.01, 'EUR'],
    [12.34, 'EUR'],
    [1500, 'JPY'],
    [1.234, 'BHD'],
  ])('accepts amount %s %s', async (amount, currencyCode) => {
    const res = await sb.post(PATH[kind], body(kind, { amount, currencyCode }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(accepted);
    expect(res.body.body.transaction.amount).toBe(amount);
  });

  it.each([
    [12.5, 'JPY'],
    [1.2345, 'BHD'],
    [0.001, 'EUR'],
  ])('refuses amount %s %s: more decimals than the currency has', async (amount, currencyCode) => {
    expectInputError(await sb.post(PATH[kind], body(kind, { amount, currencyCode })), 1002, 'body.transaction.amount');
  });

  it.each(['ABC', 'EU', 'EURO', '', 978])('refuses currencyCode %j with 1002 naming body.transaction.currencyCode', async (currencyCode) => {
    expectInputError(await sb.post(PATH[kind], body(kind, { currencyCode })), 1002, 'body.transaction.currencyCode');
  });

  it.each(['capture', 'pay', ' ', 1])('refuses authorizationMode %j with 1002', async (authorizationMode) => {
    expectInputError(await sb.post(PATH[kind], body(kind, { authorizationMode })), 1002, 'body.transaction.authorizationMode');
  });

  it('takes an empty authorizationMode as absent (PAYMENT), as null', async () => {
    for (const authorizationMode of ['', null]) {
      const res = await sb.post(PATH[kind], body(kind, { authorizationMode }));
      expect(res.status, res.text).toBe(200);
      expect(res.body.body.transaction.authorizationMode).toBe('PAYMENT');
    }
  });

  it.each(['payment', 'PAYMENT', 'authorize', 'Authorize'])('accepts authorizationMode %s and returns it upper case', async (authorizationMode) => {
    const res = await sb.post(PATH[kind], body(kind, { authorizationMode }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.transaction.authorizationMode).toBe(authorizationMode.toUpperCase());
  });

  it('takes an empty trackingCode (optional here) as absent: no code is echoed', async () => {
    const res = await sb.post(PATH[kind], body(kind, { trackingCode: '' }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.transaction.trackingCode).toBeUndefined();
  });

  it.each([
    ['x'.repeat(101), '101 characters'],
    [42, 'a number'],
    ['a\u0007b', 'a control character'],
  ])('refuses trackingCode %#: %s', async (trackingCode, _label) => {
    expectInputError(await sb.post(PATH[kind], body(kind, { trackingCode })), 1002, 'body.transaction.trackingCode');
  });

  it('accepts a trackingCode of 100 characters', async () => {
    const trackingCode = `${kind}-${Date.now()}-`.padEnd(100, 'y');
    const res = await sb.post(PATH[kind], body(kind, { trackingCode }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.transaction.trackingCode).toBe(trackingCode);
  });

  const resource = kind === 'link' ? 'body.link' : 'body.checkout';

  it.each([
    [[], ''],
    [[9999], '[0]'],
    [[1010, 42], '[1]'],
    ['1010', ''],
    [['abc'], '[0]'],
    [['9999'], '[0]'],
    [1010, ''],
  ])('refuses brandIds %j with 1002 naming brandIds%s', async (brandIds, index) => {
    expectInputError(await sb.post(PATH[kind], body(kind, {}, { brandIds })), 1002, `${resource}.brandIds${index}`);
  });

  it('accepts every known brand id', async () => {
    const brandIds = [1010, 1011, 1013, 1015, 1020, 1023, 1030, 1040, 1050, 1060, 1090, 1210, 3010];
    const res = await sb.post(PATH[kind], body(kind, {}, { brandIds }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.body[kind].brandIds).toEqual(brandIds);
  });

  it.each([
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://merchant.example/return',
    '/relative/return',
    'merchant.example/return',
    `https://merchant.example/${'a'.repeat(2049 - 'https://merchant.example/'.length)}`,
    42,
  ])('refuses returnUrl %# with 1002 naming returnUrl', async (returnUrl) => {
    expectInputError(await sb.post(PATH[kind], body(kind, {}, { returnUrl })), 1002, `${resource}.returnUrl`);
  });

  it('accepts an http returnUrl of exactly 2048 characters', async () => {
    const returnUrl = `http://merchant.example/${'a'.repeat(2048 - 'http://merchant.example/'.length)}`;
    expect(returnUrl).toHaveLength(2048);
    const res = await sb.post(PATH[kind], body(kind, {}, { returnUrl }));
    expect(res.status, res.text).toBe(200);
  });

  it('answers a missing header.businessId with 400, 1004 naming header.businessId', async () => {
    const request = body(kind) as { header: Record<string, unknown> };
    delete request.header.businessId;
    expectInputError(await sb.post(PATH[kind], request), 1004, 'header.businessId');
  });

  it('answers an empty header.businessId with 400, -1 naming header.businessId', async () => {
    const request = body(kind) as { header: Record<string, unknown> };
    request.header.businessId = '';
    expectError(await sb.post(PATH[kind], request), { result: -1, status: 400, path: 'header.businessId' });
  });

  it.each([
    ['malformed JSON', '{"header": {"businessId": "x"}, "body": '],
    ['an array', '[]'],
    ['a string', '"hello"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('answers %s as a body with 400, -1 (never a 500)', async (_name, raw) => {
    const res = await sb.post(PATH[kind], raw);
    expectError(res, { result: -1, status: 400 });
  });

  it.each([
    ['header', (r: any) => (r.header = 'biz')],
    ['body', (r: any) => (r.body = [])],
    ['body.transaction', (r: any) => (r.body.transaction = 'tx')],
    [`${resource}`, (r: any) => (r.body[kind] = 5)],
    ['header.businessId', (r: any) => (r.header.businessId = 7.5)],
  ])('answers a wrong type at %s with 400, -1 naming it', async (path, mutate) => {
    const request = body(kind);
    mutate(request);
    const res = await sb.post(PATH[kind], request);
    expectError(res, { result: -1, status: 400, path });
  });

  it('creates nothing on an input error', async () => {
    const trackingCode = `noop-${kind}-${Date.now()}`;
    await sb.post(PATH[kind], body(kind, { trackingCode, amount: -1 }));
    const res = await sb.post(PATH[kind], body(kind, { trackingCode }));
    expect(res.status, res.text).toBe(200);
  });
});

describe('payment link duration (docs/api.md, "Validation")', () => {
  it.each(['P0D', 'P366D', 'P1W', '1D', 'P1.5D', 'PT0H', 'PT0M', 'P', 'p1d x', 5])(
    'refuses duration %j with 1002 naming body.link.duration',
    async (duration) => {
      expectInputError(await sb.post(PATH.link, linkBody({ link: { duration } })), 1002, 'body.link.duration');
    },
  );

  it.each(['P1D', 'P365D', 'PT1H', 'PT90M', 'PT1M'])('accepts duration %s', async (duration) => {
    const res = await sb.post(PATH.link, linkBody({ link: { duration } }));
    expect(res.status, res.text).toBe(200);
  });
});

describe('checkout tokenize (docs/api.md, "Validation")', () => {
  it.each(['maybe', 'yes', ' ', 1])('refuses tokenize %j with 1002 naming body.checkout.tokenize', async (tokenize) => {
    expectInputError(await sb.post(PATH.checkout, checkoutBody({ checkout: { tokenize } })), 1002, 'body.checkout.tokenize');
  });

  it.each([
    ['false', 'FALSE'],
    ['False', 'FALSE'],
    ['true', 'TRUE'],
    ['True', 'TRUE'],
    ['TRUE', 'TRUE'],
    ['inquire', 'INQUIRE'],
    ['InQuIrE', 'INQUIRE'],
  ])('accepts tokenize %s and returns %s', async (tokenize, expected) => {
    const res = await sb.post(PATH.checkout, checkoutBody({ checkout: { tokenize } }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.checkout.tokenize).toBe(expected);
  });
});

describe('GET parameters (docs/api.md, "Authentication and isolation")', () => {
  it.each([
    '/gateway/v3/paymentlinks/00000000-0000-4000-8000-000000000000',
    '/Gateway/v3/Checkouts/00000000-0000-4000-8000-000000000000',
    '/gateway/v3/payments/00000000-0000-4000-8000-000000000000',
  ])('answers GET %s without businessId with 400, 1004 naming businessId', async (path) => {
    expectInputError(await sb.get(path), 1004, 'businessId');
  });

  it('answers a payment lookup by trackingCode without trackingCode with -1, 1004', async () => {
    expectInputError(await sb.get('/gateway/v3/payments?businessId=conf-biz'), 1004, 'trackingCode');
  });
});

describe('direct payment validation (docs/test-cards.md, "Direct payments")', () => {
  it('requires a trackingCode for payments (1004, body.transaction.trackingCode)', async () => {
    const request = paymentBody();
    delete (request.body.transaction as Record<string, unknown>).trackingCode;
    expectInputError(await sb.post('/gateway/v3/payments', request), 1004, 'body.transaction.trackingCode');
  });

  it('refuses an unknown top-level action with 1002 naming action', async () => {
    expectInputError(await sb.post('/gateway/v3/payments', paymentBody({ action: 'steal' })), 1002, 'action');
  });

  it('refuses a missing amount with 1004 naming body.transaction.amount', async () => {
    const request = paymentBody();
    delete (request.body.transaction as Record<string, unknown>).amount;
    expectInputError(await sb.post('/gateway/v3/payments', request), 1004, 'body.transaction.amount');
  });

  it('refuses a payment with neither card nor token (-1, 1004 naming body.card)', async () => {
    expectInputError(await sb.post('/gateway/v3/payments', paymentBody({ card: null })), 1004, 'body.card');
  });

  it('answers malformed JSON with 400, -1', async () => {
    const res = await requestJson(`${sb.url}/gateway/v3/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":' });
    expectError(res, { result: -1, status: 400 });
  });
});
