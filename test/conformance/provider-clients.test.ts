/**
 * What the provider's own clients send and expect (docs/api.md, "Compatibility with the provider's
 * clients"): request bodies written the way its SDKs and README build them, and the answers their typed
 * parsing needs. These hold the shapes in CI without the SDKs themselves.
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { card, createCheckout, customerSubmits, expectError, paymentBody, REQUEST_CODE, RETURN_URL } from './client.js';

const sb = useSandbox();

const WHOLE_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('numbers as the clients send them', () => {
  it('takes amounts, brand ids and expiry as numeric strings, the way the PHP README writes a payment', async () => {
    const res = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: 'clients' },
      body: {
        transaction: { amount: '1.00', currencyCode: 'EUR', brandId: '1010', trackingCode: uniqueCode('readme'), storeId: '1' },
        card: { number: '4111111111111111', holderName: 'Ada Lovelace', expiryMonth: '03', expiryYear: '2035' },
      },
    });
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.transaction).toMatchObject({ amount: 1, brandId: 1010, currencyCode: 'EUR' });
    // No CVV was sent: the card answer says it was not presented.
    expect(res.body.body.card.cvvResult).toBe('P');
  });

  it('takes brandIds as strings on a checkout and answers them as integers', async () => {
    const res = await sb.post('/gateway/v3/checkouts', {
      header: { businessId: 'clients' },
      body: {
        transaction: { amount: 60, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode('co') },
        checkout: { brandIds: ['1010', '1020', '1030'], returnUrl: RETURN_URL },
      },
    });
    expect([res.status, res.body.result], res.text).toEqual([200, 2]);
    expect(res.body.body.checkout.brandIds).toEqual([1010, 1020, 1030]);
  });

  it('accepts "5", "5.0" and "5.00" as the same amount and refuses what is not a number', async () => {
    for (const amount of ['5', '5.0', '5.00', ' 5.00 ']) {
      const res = await sb.post('/gateway/v3/payments', paymentBody({ transaction: { amount } }));
      expect([res.status, res.body.body.transaction?.amount], `${amount}: ${res.text}`).toEqual([200, 5]);
    }
    for (const amount of ['abc', '1e400', '', '5,00', '0x10']) {
      expectError(await sb.post('/gateway/v3/payments', paymentBody({ transaction: { amount } })), { result: -1, code: 1002, path: 'body.transaction.amount' });
    }
  });

  it('takes a numeric businessId (the JS SDK README configures businessId: 123456) as its digits', async () => {
    const created = await sb.post('/gateway/v3/payments', { ...paymentBody(), header: { businessId: 123456 } });
    expect(created.status, created.text).toBe(200);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=123456`);
    expect([read.status, read.body.body.id]).toEqual([200, created.body.body.id]);
  });

  it('takes an iDEAL issuerId as a number and no countryCode, and "bank": null on a card payment as absent', async () => {
    const ideal = await sb.post('/gateway/v3/payments', paymentBody({ card: null, transaction: { amount: 1, brandId: 3010 }, bank: { issuerId: 20 } }));
    expect([ideal.status, ideal.body.result], ideal.text).toEqual([200, 2]);
    const withNull = await sb.post('/gateway/v3/payments', { ...paymentBody(), body: { ...paymentBody().body, bank: null } });
    expect([withNull.status, withNull.body.result], withNull.text).toEqual([200, 0]);
  });
});

describe('answers as the provider gave them', () => {
  it('answers the GET of a failed payment with HTTP 200 and the failure in the body; the POST keeps its 400', async () => {
    const created = await sb.post('/gateway/v3/payments', paymentBody({ card: card('4000000000000002') }));
    expect(created.status).toBe(400);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`);
    expect([read.status, read.body.result, read.body.body.error.code]).toEqual([200, -4, 3001]);
  });

  it('answers the GET of bank payments that ended -10 and -2 with HTTP 200 (the iDEAL amount convention)', async () => {
    for (const [amount, result] of [
      [2, -10],
      [5, -2],
    ] as const) {
      const created = await sb.post(
        '/gateway/v3/payments',
        paymentBody({ card: null, transaction: { amount, brandId: 3010 }, bank: { countryCode: 'NL', issuerId: 20 } }),
      );
      const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`);
      expect([read.status, read.body.result], read.text).toEqual([200, result]);
    }
  });

  it('answers the GET of a declined checkout with HTTP 200 and -10 after the decline button', async () => {
    const { checkout } = await createCheckout(sb);
    await customerSubmits(checkout.redirect.url, { button: /decline/i });
    const read = await sb.get(`/gateway/v3/checkouts/${checkout.checkoutId}?businessId=conf-biz`);
    expect([read.status, read.body.result]).toEqual([200, -10]);
  });

  it('gives every error a code, a message and a detailedMessage', async () => {
    const answers = [
      await sb.post('/gateway/v3/payments', paymentBody({ transaction: { amount: 'abc' } })),
      await sb.post('/gateway/v3/payments', paymentBody({ card: card('4000000000000002') })),
      await sb.get('/gateway/v3/credits/00000000-0000-4000-8000-000000000000?businessId=conf-biz'),
      await sb.post('/gateway/v3/paymentlinks', '{not json'),
    ];
    for (const res of answers) {
      const error = res.body.body.error;
      expect(Number.isInteger(error.code), res.text).toBe(true);
      expect(error.message).toBeTypeOf('string');
      expect(error.detailedMessage, res.text).toBe(error.message);
    }
  });

  it('stamps requestTimestamp and every date-time in whole seconds with Z', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', {
      header: { businessId: 'clients' },
      body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('ts') }, link: { brandIds: [1010], returnUrl: RETURN_URL } },
    });
    expect(link.body.header.requestTimestamp).toMatch(WHOLE_SECONDS);
    expect(link.body.body.link.expirationTime).toMatch(WHOLE_SECONDS);
  });

  it('answers a link creation with link.status READY', async () => {
    const res = await sb.post('/gateway/v3/paymentlinks', {
      header: { businessId: 'clients' },
      body: {
        transaction: { amount: '10', currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode('ready') },
        link: { brandIds: ['1010'], returnUrl: RETURN_URL, threeDSecure: false },
      },
    });
    expect([res.status, res.body.body.link.status], res.text).toEqual([200, 'READY']);
  });

  it('echoes the descriptor in body.transaction', async () => {
    const res = await sb.post('/gateway/v3/payments', paymentBody({ transaction: { descriptor: 'SHOP*ORDER 1001' } }));
    expect(res.body.body.transaction.descriptor).toBe('SHOP*ORDER 1001');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=conf-biz`);
    expect(read.body.body.transaction.descriptor).toBe('SHOP*ORDER 1001');
  });

  it('answers payments by trackingCode with a bare JSON array, while links keep their envelope', async () => {
    const trackingCode = uniqueCode('arr');
    const created = await sb.post('/gateway/v3/payments', paymentBody({ transaction: { trackingCode } }));
    const list = await sb.get(`/gateway/v3/payments?businessId=conf-biz&trackingCode=${trackingCode}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);
    const missing = await sb.get(`/gateway/v3/paymentlinks?businessId=conf-biz&trackingCode=${trackingCode}`);
    expect([missing.status, typeof missing.body.result]).toEqual([404, 'number']);
  });
});

describe('follow-ups as the clients send them', () => {
  async function authorize(amount = 10) {
    const res = await sb.post('/gateway/v3/payments', paymentBody({ action: 'authorize', transaction: { amount } }));
    expect(res.body.result, res.text).toBe(0);
    return res.body.body as { id: string; trackingCode: string };
  }

  it("stores the trackingCode sent with a capture as the capture's own, found by a lookup", async () => {
    const auth = await authorize();
    const own = uniqueCode('capture');
    const capture = await sb.post(`/gateway/v3/payments/${auth.id}/capture`, {
      header: { businessId: 'conf-biz' },
      body: { transaction: { amount: '10.00', currencyCode: 'EUR', trackingCode: own } },
    });
    expect([capture.status, capture.body.body.trackingCode], capture.text).toEqual([200, own]);
    const found = await sb.get(`/gateway/v3/payments?businessId=conf-biz&trackingCode=${own}`);
    expect(found.body.map((p: any) => p.body.transaction.action)).toEqual(['capture']);
  });

  it('refunds a capture named by its own id, at most what is left of it', async () => {
    const auth = await authorize(10);
    const first = await sb.post(`/gateway/v3/payments/${auth.id}/capture`, { header: { businessId: 'conf-biz' }, body: { transaction: { amount: 6 } } });
    await sb.post(`/gateway/v3/payments/${auth.id}/capture`, { header: { businessId: 'conf-biz' }, body: { transaction: { amount: 4 } } });
    const refund = await sb.post(`/gateway/v3/payments/${first.body.body.id}/refund`, {
      header: { businessId: 'conf-biz' },
      body: { transaction: { amount: '5', currencyCode: 'EUR' } },
    });
    expect([refund.status, refund.body.body.transaction.parentId], refund.text).toEqual([200, first.body.body.id]);
    expectError(
      await sb.post(`/gateway/v3/payments/${first.body.body.id}/refund`, { header: { businessId: 'conf-biz' }, body: { transaction: { amount: 2 } } }),
      { result: -8, code: 2003 },
    );
    const original = await sb.get(`/gateway/v3/payments/${auth.id}?businessId=conf-biz`);
    expect(original.body.body.transaction).toMatchObject({ capturedAmount: 10, refundedAmount: 5 });
  });

  it("refuses a follow-up in another currency than the payment's", async () => {
    const auth = await authorize();
    expectError(
      await sb.post(`/gateway/v3/payments/${auth.id}/capture`, {
        header: { businessId: 'conf-biz' },
        body: { transaction: { amount: 1, currencyCode: 'USD' } },
      }),
      { result: -1, code: 1002, path: 'body.transaction.currencyCode' },
    );
  });
});

describe('credits (payouts to a card)', () => {
  it('creates a credit, reads it by id and by trackingCode, and keeps it out of the payments endpoints', async () => {
    const trackingCode = uniqueCode('credit');
    const created = await sb.post('/gateway/v3/credits', {
      header: { businessId: 'clients' },
      body: { transaction: { amount: '25.00', currencyCode: 'EUR', trackingCode }, card: card('4111111111111111') },
    });
    expect([created.status, created.body.result, created.body.body.transaction.action], created.text).toEqual([200, 0, 'credit']);
    expect(created.body.header.requestCode).toMatch(REQUEST_CODE);
    expect(created.text).not.toContain('4111111111111111');
    const id = created.body.body.id as string;
    const read = await sb.get(`/gateway/v3/credits/${id}?businessId=clients`);
    expect(read.body).toEqual(created.body);
    // One credit, not a list: the provider's clients read credits by tracking code as a single answer.
    const found = await sb.get(`/gateway/v3/credits?businessId=clients&trackingCode=${trackingCode}`);
    expect([found.status, found.body]).toEqual([200, created.body]);
    expect((await sb.get(`/gateway/v3/payments/${id}?businessId=clients`)).status).toBe(404);
    expect((await sb.get(`/gateway/v3/payments?businessId=clients&trackingCode=${trackingCode}`)).body).toEqual([]);
    expect((await sb.get(`/gateway/v3/credits/${id}?businessId=another`)).status).toBe(404);
  });

  it('declines a credit to the decline card and refuses a refund of a credit', async () => {
    const declined = await sb.post('/gateway/v3/credits', {
      header: { businessId: 'clients' },
      body: { transaction: { amount: 5, currencyCode: 'EUR', trackingCode: uniqueCode('cd') }, card: card('4000000000000002') },
    });
    expect([declined.status, declined.body.result]).toEqual([400, -4]);
    const ok = await sb.post('/gateway/v3/credits', {
      header: { businessId: 'clients' },
      body: { transaction: { amount: 5, currencyCode: 'EUR', trackingCode: uniqueCode('cr') }, card: card('4111111111111111') },
    });
    expectError(await sb.post(`/gateway/v3/payments/${ok.body.body.id}/refund`, { header: { businessId: 'clients' }, body: {} }), { result: -8 });
  });
});
