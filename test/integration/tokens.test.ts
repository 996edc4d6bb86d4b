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
  const refusals: Array<[string, unknown, number, number, string?]> = [
    ['a missing card', { header: { businessId: BIZ }, body: {} }, -1, 1004, 'body.card'],
    ['a holder name that is not text', tokenRequest({ holderName: 42 }), -1, 1002, 'body.card.holderName'],
    ['a bad expiry month', tokenRequest({ expiryMonth: '0' }), -1, 1002, 'body.card.expiryMonth'],
    ['a brandId that is not the card brand', tokenRequest({}, BIZ, { brandId: 1030 }), -1, 1002, 'body.brandId'],
    ['a bank brandId', tokenRequest({}, BIZ, { brandId: 3010 }), -1, 1002, 'body.brandId'],
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
    expect(res.body.body).toMatchObject({
      token,
      tokenId: token,
      brandId: 1030,
      displayHint: '***********0005',
      expiryMonth: '10',
      expiryYear: '2034',
      holderName: 'Grace Hopper',
    });
    expect(res.text).not.toContain('378282246310005');
    expect(res.body.body.fingerprint).toBeUndefined();
  });
});

describe('paying with a token', () => {
  it('tokenizes a payment, pays again with the token, then refunds that payment', async () => {
    const first = await sb.post('/gateway/v3/payments', payWith({ card: { number: '5555555555554444' }, tokenize: true }));
    expect(first.body.result).toBe(0);
    const token = first.body.body.token.token as string;
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(first.body.body.token.displayHint).toBe('************4444');

    const second = await sb.post('/gateway/v3/payments', payWith({ token, amount: 12.34 }));
    expect([second.status, second.body.result]).toEqual([200, 0]);
    expect(second.body.body.token.token).toBe(token);
    expect(second.body.body.transaction.brandId).toBe(1020);
    expect(second.body.body.card).toMatchObject({ lastFourDigits: '4444', cvvResult: 'P', holderName: 'Grace Hopper' });

    const refund = await sb.post(`/gateway/v3/payments/${second.body.body.id}/refund`, {
      header: { businessId: BIZ },
      body: { transaction: { amount: 12.34 } },
    });
    expect(refund.body.result).toBe(0);
    expect(refund.body.body.transaction).toMatchObject({ action: 'refund', parentId: second.body.body.id, amount: 12.34 });
  });

  it('does not tokenize a declined payment', async () => {
    const res = await sb.post('/gateway/v3/payments', payWith({ card: { number: '4000000000000002' }, tokenize: true }));
    expect(res.body.result).toBe(-4);
    expect(res.body.body.token).toBeUndefined();
  });

  it('refuses a token whose brand is not the brandId the payment names', async () => {
    const created = await sb.post('/gateway/v3/tokens', tokenRequest());
    const body = payWith({ token: created.body.body.token });
    (body.body.transaction as Record<string, unknown>).brandId = 1020;
    const res = await sb.post('/gateway/v3/payments', body);
    expect([res.body.result, res.body.body.error.code]).toEqual([-1, 1002]);
  });
});
