import { describe, expect, it } from 'vitest';
import { checkoutRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// The provider answered date-times in whole seconds (docs/api.md, "Compatibility").
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function createCheckout(patch: Parameters<typeof checkoutRequest>[0] = {}) {
  const res = await sb.post('/gateway/v3/checkouts', checkoutRequest(patch));
  expect(res.status, res.text).toBe(200);
  return res;
}

describe('creating a checkout (docs/api.md)', () => {
  it('answers 200, result 2 Pending, with body.checkout {checkoutId, redirect, brandIds, expirationTime 30 minutes ahead, tokenize} and the transaction', async () => {
    const trackingCode = uniqueCode();
    const res = await sb.post(
      '/Gateway/v3/Checkouts',
      checkoutRequest({ transaction: { amount: 20, currencyCode: 'Eur', authorizationMode: 'PAYMENT', trackingCode }, checkout: { tokenize: 'inquire' } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(2);
    expect(res.body.description).toBe('Pending');
    expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
    const checkout = res.body.body.checkout;
    expect(Object.keys(checkout).sort()).toEqual(['brandIds', 'checkoutId', 'expirationTime', 'redirect', 'tokenize']);
    expect(checkout.checkoutId).toMatch(UUID);
    expect(checkout.redirect).toEqual({ method: 'GET', url: `${sb.url}/gateway/v3/web/checkouts/${checkout.checkoutId}` });
    expect(checkout.brandIds).toEqual([1010, 1020, 1030]);
    expect(checkout.tokenize).toBe('INQUIRE');
    const validity = Date.parse(checkout.expirationTime) - Date.parse(res.body.header.requestTimestamp);
    expect(Math.abs(validity - 30 * 60_000)).toBeLessThan(1000);
    expect(res.body.body.transaction).toEqual({ amount: 20, currencyCode: 'EUR', authorizationMode: 'PAYMENT', trackingCode });
  });
});

describe('reading a checkout (docs/api.md)', () => {
  it('answers a fresh checkout with HTTP 200, result 2 Pending, the checkout and the transaction, and no payments', async () => {
    const created = await createCheckout();
    const checkoutId = created.body.body.checkout.checkoutId;
    const res = await sb.get(`/Gateway/v3/Checkouts/${checkoutId}?businessId=biz-1`);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(2);
    expect(res.body.description).toBe('Pending');
    expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
    expect(res.body.body.checkout).toEqual(created.body.body.checkout);
    expect(res.body.body.transaction).toEqual(created.body.body.transaction);
    expect(res.body.body).not.toHaveProperty('payments');
  });

  it('finds a checkout by trackingCode', async () => {
    const trackingCode = uniqueCode('co');
    const created = await createCheckout({ transaction: { trackingCode } });
    const res = await sb.get(`/gateway/v3/checkouts?businessId=biz-1&trackingCode=${encodeURIComponent(trackingCode)}`);
    expect(res.status).toBe(200);
    expect(res.body.body.checkout.checkoutId).toBe(created.body.body.checkout.checkoutId);
  });

  it('answers an unknown checkout id and a missing businessId with envelopes (404, 400)', async () => {
    const unknown = await sb.get('/gateway/v3/checkouts/00000000-0000-4000-8000-000000000000?businessId=biz-1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.body.error.code).toBe(1404);
    expect(unknown.body.header.requestCode).toMatch(/^\d+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const created = await createCheckout();
    const missing = await sb.get(`/gateway/v3/checkouts/${created.body.body.checkout.checkoutId}`);
    expect(missing.status).toBe(400);
    expect(missing.body.body.error).toEqual({
      code: 1004,
      message: 'Property not found in request: businessId.',
      detailedMessage: 'Property not found in request: businessId.',
    });
  });

  it('does not show a checkout id to the link endpoint, nor a link id to the checkout endpoint', async () => {
    const checkout = await createCheckout();
    const asLink = await sb.get(`/gateway/v3/paymentlinks/${checkout.body.body.checkout.checkoutId}?businessId=biz-1`);
    expect(asLink.status).toBe(404);
  });
});
