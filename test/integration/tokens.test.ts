import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'biz-tok';

function tokenRequest(card: Record<string, unknown> = {}, businessId = BIZ, extra: Record<string, unknown> = {}) {
  return {
    header: { businessId },
    body: { brandId: 1010, card: { holderName: 'Grace Hopper', number: '4111111111111111', expiryMonth: '10', expiryYear: '2034', ...card }, ...extra },
  };
}

function payWith(patch: { token?: string; card?: Record<string, unknown>; tokenize?: boolean; businessId?: string; amount?: number }) {
  const body: Record<string, unknown> = {
    transaction: { amount: patch.amount ?? 25, currencyCode: 'EUR', trackingCode: uniqueCode('tok'), token: patch.token, tokenize: patch.tokenize },
  };
  if (patch.card) body.card = { cvv: '123', expiryMonth: '10', expiryYear: '2034', holderName: 'Grace Hopper', ...patch.card };
  return { action: 'payment', header: { businessId: patch.businessId ?? BIZ }, body };
}

describe('POST /gateway/v3/tokens', () => {
  it('answers 200 Ok with tokenId, token (the same value) and a masked displayHint', async () => {
    const res = await sb.post('/gateway/v3/tokens', tokenRequest());
    expect([res.status, res.body.result, res.body.description]).toEqual([200, 0, 'Ok']);
    expect(res.body.body.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body.body.tokenId).toBe(res.body.body.token);
    expect(res.body.body.displayHint).toBe('************1111');
    expect(res.text).not.toContain('4111111111111111');
  });

  it('gives the same token for the same business, number and expiry, and another one otherwise', async () => {
    const a = await sb.post('/gateway/v3/tokens', tokenRequest());
    const b = await sb.post('/gateway/v3/tokens', tokenRequest({ holderName: 'G. Hopper', number: '4111 1111 1111 1111', expiryMonth: 10, expiryYear: 34 }));
    expect(b.body.body.token).toBe(a.body.body.token);
    const otherExpiry = await sb.post('/gateway/v3/tokens', tokenRequest({ expiryYear: '2035' }));
    expect(otherExpiry.body.body.token).not.toBe(a.body.body.token);
    const otherBusiness = await sb.post('/gateway/v3/tokens', tokenRequest({}, 'biz-tok-2'));
    expect(otherBusiness.body.body.token).not.toBe(a.body.body.token);
  });

  it('echoes a trackingCode sent with the token request', async () => {
    const code = uniqueCode('tk');
    const res = await sb.post('/gateway/v3/tokens', tokenRequest({ number: '5555555555554444' }, BIZ, { brandId: 1020, trackingCode: code }));
    expect(res.body.body.trackingCode).toBe(code);
  });

  const refusals: Array<[string, unknown, number, number, string?]> = [
    ['a Luhn-invalid number', tokenRequest({ number: '4111111111111112' }), -1, 1002, 'body.card.number'],
    ['a missing card', { header: { businessId: BIZ }, body: {} }, -1, 1004, 'body.card'],
    ['a missing holder name', tokenRequest({ holderName: undefined }), -1, 1004, 'body.card.holderName'],
    ['a bad expiry month', tokenRequest({ expiryMonth: '0' }), -1, 1002, 'body.card.expiryMonth'],
    ['a brandId that is not the card brand', tokenRequest({}, BIZ, { brandId: 1030 }), -1, 1002, 'body.brandId'],
    ['a bank brandId', tokenRequest({}, BIZ, { brandId: 3010 }), -1, 1002, 'body.brandId'],
    ['a number outside the test cards', tokenRequest({ number: '4012888888881881' }), -4, 3005],
    ['an expired card', tokenRequest({ expiryYear: '2021' }), -4, 3003],
  ];
  for (const [name, body, result, code, path] of refusals) {
    it(`refuses ${name} with ${result} (${code})`, async () => {
      const res = await sb.post('/gateway/v3/tokens', body);
      expect([res.status, res.body.result, res.body.body.error.code]).toEqual([400, result, code]);
      if (path) expect(res.body.body.error.message).toContain(`${path}.`);
    });
  }
});

describe('GET /gateway/v3/tokens/{token} (sandbox extension)', () => {
  it('answers brand, displayHint, expiry and holder but never the number', async () => {
    const created = await sb.post('/gateway/v3/tokens', tokenRequest({ number: '378282246310005' }, BIZ, { brandId: 1030 }));
    const token = created.body.body.token as string;
    const res = await sb.get(`/gateway/v3/tokens/${token}?businessId=${BIZ}`);
    expect(res.status).toBe(200);
    expect(res.body.body).toMatchObject({ token, tokenId: token, brandId: 1030, displayHint: '***********0005', expiryMonth: '10', expiryYear: '2034', holderName: 'Grace Hopper' });
    expect(res.text).not.toContain('378282246310005');
    expect(res.body.body.fingerprint).toBeUndefined();
  });

  it('answers 404 for a token of another business', async () => {
    const created = await sb.post('/gateway/v3/tokens', tokenRequest());
    const res = await sb.get(`/gateway/v3/tokens/${created.body.body.token}?businessId=someone-else`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Grace');
  });
});

describe('paying with a token', () => {
  it('tokenizes a payment, pays again with the token, then refunds that payment', async () => {
    const first = await sb.post('/gateway/v3/payments', payWith({ card: { number: '5555555555554444' }, tokenize: true }));
    expect(first.body.result).toBe(0);
    const token = first.body.body.token.token as string;
    expect(first.body.body.token.displayHint).toBe('************4444');

    const second = await sb.post('/gateway/v3/payments', payWith({ token, amount: 12.34 }));
    expect([second.status, second.body.result]).toEqual([200, 0]);
    expect(second.body.body.token.token).toBe(token);
    expect(second.body.body.transaction.brandId).toBe(1020);
    expect(second.body.body.card).toMatchObject({ lastFourDigits: '4444', cvvResult: 'P', holderName: 'Grace Hopper' });

    const refund = await sb.post(`/gateway/v3/payments/${second.body.body.id}/refund`, { header: { businessId: BIZ }, body: { transaction: { amount: 12.34 } } });
    expect(refund.body.result).toBe(0);
    expect(refund.body.body.transaction).toMatchObject({ action: 'refund', parentId: second.body.body.id, amount: 12.34 });
  });

  it('gives the token made by a payment back from POST /tokens for the same card', async () => {
    const paid = await sb.post('/gateway/v3/payments', payWith({ card: { number: '4242424242424242', expiryYear: '2033' }, tokenize: true }));
    const made = await sb.post('/gateway/v3/tokens', tokenRequest({ number: '4242424242424242', expiryYear: '2033' }));
    expect(made.body.body.token).toBe(paid.body.body.token.token);
  });

  it('does not tokenize a declined payment', async () => {
    const res = await sb.post('/gateway/v3/payments', payWith({ card: { number: '4000000000000002' }, tokenize: true }));
    expect(res.body.result).toBe(-4);
    expect(res.body.body.token).toBeUndefined();
  });

  it('replays the behaviour of the card: a token of the decline card declines', async () => {
    const created = await sb.post('/gateway/v3/tokens', tokenRequest({ number: '4000000000000002' }));
    const res = await sb.post('/gateway/v3/payments', payWith({ token: created.body.body.token }));
    expect([res.status, res.body.result, res.body.body.error.code]).toEqual([400, -4, 3001]);
  });

  it('refuses a token of another business as unknown, with -1 naming body.transaction.token', async () => {
    const created = await sb.post('/gateway/v3/tokens', tokenRequest({}, 'biz-tok-owner'));
    const res = await sb.post('/gateway/v3/payments', payWith({ token: created.body.body.token }));
    expect([res.status, res.body.result, res.body.body.error.code]).toEqual([400, -1, 1002]);
    expect(res.body.body.error.message).toContain('body.transaction.token.');
  });

  it('refuses a token whose brand is not the brandId the payment names', async () => {
    const created = await sb.post('/gateway/v3/tokens', tokenRequest());
    const body = payWith({ token: created.body.body.token });
    (body.body.transaction as Record<string, unknown>).brandId = 1020;
    const res = await sb.post('/gateway/v3/payments', body);
    expect([res.body.result, res.body.body.error.code]).toEqual([-1, 1002]);
  });
});
