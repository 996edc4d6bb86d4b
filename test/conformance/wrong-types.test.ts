/**
 * docs/api.md, "Validation": "Malformed JSON, a body that is not an object, a wrong type anywhere: 400, -1, never
 * a 500", and every failure names the field's path. One test per field and wrong value.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { ISO_Z_SECONDS, checkoutBody, expectError, linkBody, paymentBody } from './client.js';

const sb = useSandbox();

const NOT_STRING = [{}, [], true, 123];
const NOT_NUMBER = [{}, [], true, 'abc'];
const NOT_OBJECT = ['x', 5, [], true];

function setPath(target: Record<string, any>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = node[part];
  node[parts[parts.length - 1]!] = value;
}

/**
 * A wrong type is an invalid value: 400, -1, 1002, whole-second requestTimestamp, and a message starting
 * "Invalid property value: <path>." (an element of a list is named by its index, as brandIds[0]).
 */
function expectWrongType(res: Parameters<typeof expectError>[0], path: string, value: unknown): void {
  expectError(res, { result: -1, status: 400, code: 1002, path });
  expect(res.body.header.requestTimestamp).toMatch(ISO_Z_SECONDS);
  const named = Array.isArray(value) && value.length > 0 && path.endsWith('brandIds') ? `${path}[0]` : path;
  const prefix = `Invalid property value: ${named}.`;
  expect(res.body.body.error.message.startsWith(prefix), res.body.body.error.message).toBe(true);
}

function cases(fields: Record<string, unknown[]>): Array<[string, string, unknown]> {
  return Object.entries(fields).flatMap(([path, values]) => values.map((value) => [path, JSON.stringify(value), value] as [string, string, unknown]));
}

/** An identifier may be a whole number (the provider's JS SDK sends `businessId: 123456`), not a fraction. */
const NOT_IDENTIFIER = [{}, [], true, 12.5, -3];

const TRANSACTION = {
  'header.businessId': NOT_IDENTIFIER,
  'body.transaction.amount': NOT_NUMBER,
  'body.transaction.currencyCode': NOT_STRING,
  'body.transaction.authorizationMode': NOT_STRING,
  'body.transaction.trackingCode': NOT_STRING,
};

describe('wrong types in a link creation', () => {
  it.each(
    cases({
      ...TRANSACTION,
      'body.link': NOT_OBJECT,
      'body.link.duration': NOT_STRING,
      'body.link.brandIds': [{}, true, 'x', [{}], [null], [true], ['x'], [1010.5]],
      'body.link.returnUrl': NOT_STRING,
    }),
  )('answers %s = %s with 400, -1, 1002 naming the path', async (path, _shown, value) => {
    const request = linkBody();
    setPath(request, path, value);
    expectWrongType(await sb.post('/Gateway/v3/Paymentlinks', request), path, value);
  });
});

describe('wrong types in a checkout creation', () => {
  it.each(
    cases({
      ...TRANSACTION,
      'body.checkout': NOT_OBJECT,
      'body.checkout.brandIds': [{}, true, 'x', [{}], [null]],
      'body.checkout.returnUrl': NOT_STRING,
      'body.checkout.tokenize': [{}, [], 5],
    }),
  )('answers %s = %s with 400, -1, 1002 naming the path', async (path, _shown, value) => {
    const request = checkoutBody();
    setPath(request, path, value);
    expectWrongType(await sb.post('/Gateway/v3/Checkouts', request), path, value);
  });
});

describe('wrong types in a direct payment', () => {
  it.each(
    cases({
      action: NOT_STRING,
      'header.businessId': NOT_IDENTIFIER,
      'body.transaction': NOT_OBJECT,
      'body.transaction.amount': NOT_NUMBER,
      'body.transaction.currencyCode': NOT_STRING,
      'body.transaction.trackingCode': NOT_STRING,
      'body.transaction.brandId': [{}, [], true, 'x', 1010.5],
      'body.transaction.tokenize': [{}, [], 5],
      'body.card': NOT_OBJECT,
      'body.card.number': [{}, [], true, 4111111111111111],
      'body.card.cvv': [{}, [], true],
      'body.card.expiryMonth': [{}, [], true, 'ab', 13, 0],
      'body.card.expiryYear': [{}, [], true, 'abcd'],
      'body.card.holderName': [{}, [], true, 5],
    }),
  )('answers %s = %s with 400, -1 naming the path', async (path, _shown, value) => {
    const request = paymentBody();
    setPath(request, path, value);
    expectError(await sb.post('/gateway/v3/payments', request), { result: -1, status: 400, path });
  });

  it.each([{}, [], true, 5])('answers body.transaction.token = %j (no card) with 400, -1 naming the path', async (token) => {
    const request = paymentBody({ card: null, transaction: { token } });
    expectError(await sb.post('/gateway/v3/payments', request), { result: -1, status: 400, path: 'body.transaction.token' });
  });
});

describe('wrong types in a token creation', () => {
  const tokenRequest = () => ({
    header: { businessId: 'conf-biz' },
    body: { brandId: 1010, card: { holderName: 'Ada Lovelace', number: '4111111111111111', expiryMonth: '10', expiryYear: '2034' } },
  });

  it.each(
    cases({
      'header.businessId': NOT_IDENTIFIER,
      body: NOT_OBJECT,
      'body.brandId': [{}, [], true, 'x'],
      'body.card': NOT_OBJECT,
      'body.card.number': [{}, [], true, 4111111111111111],
      'body.card.expiryMonth': [{}, [], true, 13],
      'body.card.expiryYear': [{}, [], true],
      'body.card.holderName': [{}, [], true],
    }),
  )('answers %s = %s with 400, -1 naming the path', async (path, _shown, value) => {
    const request = tokenRequest();
    setPath(request, path, value);
    expectError(await sb.post('/gateway/v3/tokens', request), { result: -1, status: 400, path });
  });
});

describe('wrong types in capture, cancel and refund', () => {
  it.each(['capture', 'refund'])('answers %s with body.transaction.amount "abc" with 400, -1', async (operation) => {
    const payment = await sb.post('/gateway/v3/payments', paymentBody({ action: operation === 'capture' ? 'authorize' : 'payment' }));
    const res = await sb.post(`/gateway/v3/payments/${payment.body.body.id}/${operation}`, {
      header: { businessId: 'conf-biz' },
      body: { transaction: { amount: 'abc' } },
    });
    expectError(res, { result: -1, status: 400, path: 'body.transaction.amount' });
  });

  it.each([
    '[]',
    '"x"',
    '{"header": 5}',
    '{"header": {"businessId": "conf-biz"}, "body": "x"}',
    '{"header": {"businessId": "conf-biz"}, "body": {"transaction": 7}}',
  ])('answers a refund with the body %s with 400, -1', async (raw) => {
    const payment = await sb.post('/gateway/v3/payments', paymentBody());
    const res = await sb.post(`/gateway/v3/payments/${payment.body.body.id}/refund`, raw);
    expectError(res, { result: -1, status: 400 });
  });

  it('answers a link cancel with a body that is not an object with 400, -1', async () => {
    const created = await sb.post('/Gateway/v3/Paymentlinks', linkBody());
    const res = await sb.post(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}/cancel`, '[1]');
    expectError(res, { result: -1, status: 400 });
    expect((await sb.get(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=conf-biz`)).body.body.link.status).toBe('READY');
  });
});
