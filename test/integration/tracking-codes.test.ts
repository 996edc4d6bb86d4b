import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'biz-codes';
const APPROVED = '4111111111111111';
const DECLINED = '4000000000000002';

function card(number: string) {
  return { number, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' };
}

function pay(trackingCode: string, number = APPROVED, businessId = BIZ) {
  return sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode }, card: card(number) },
  });
}

function credit(trackingCode: string, number = APPROVED) {
  return sb.post('/gateway/v3/credits', {
    header: { businessId: BIZ },
    body: { transaction: { amount: 5, currencyCode: 'EUR', trackingCode }, card: card(number) },
  });
}

/** What the creation answered: HTTP status, result and, for a refusal, its code. */
function outcome(answer: { status: number; body: any }) {
  return [answer.status, answer.body.result, answer.body.body?.error?.code];
}

describe('tracking codes: payments and credits are separate namespaces', () => {
  it('takes a credit with the tracking code of an approved payment, and finds each only on its own endpoint', async () => {
    const code = uniqueCode('pc');
    const payment = await pay(code);
    expect(outcome(payment), payment.text).toEqual([200, 0, undefined]);
    const payout = await credit(code);
    expect(outcome(payout), payout.text).toEqual([200, 0, undefined]);
    expect(payout.body.body.transaction.action).toBe('credit');

    const payments = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${code}`);
    expect(payments.body.map((p: any) => p.body.transaction.id)).toEqual([payment.body.body.transaction.id]);
    const read = await sb.get(`/gateway/v3/credits/${payout.body.body.transaction.id}?businessId=${BIZ}`);
    expect(read.body.body.transaction.trackingCode).toBe(code);
  });

  it('takes a payment with the tracking code of an approved credit, and finds each only on its own endpoint', async () => {
    const code = uniqueCode('cp');
    const payout = await credit(code);
    expect(outcome(payout), payout.text).toEqual([200, 0, undefined]);
    const payment = await pay(code);
    expect(outcome(payment), payment.text).toEqual([200, 0, undefined]);

    const payments = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${code}`);
    expect(payments.body.map((p: any) => p.body.transaction.id)).toEqual([payment.body.body.transaction.id]);
    const read = await sb.get(`/gateway/v3/credits/${payout.body.body.transaction.id}?businessId=${BIZ}`);
    expect(read.body.body.transaction.action).toBe('credit');
  });
});

describe('tracking codes within one kind', () => {
  it('refuses a second payment with the code of an approved one (-8, 2001) and stores nothing for it', async () => {
    const code = uniqueCode('pp');
    expect(outcome(await pay(code))).toEqual([200, 0, undefined]);
    const again = await pay(code);
    expect(outcome(again), again.text).toEqual([400, -8, 2001]);
    const payments = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${code}`);
    expect(payments.body).toHaveLength(1);
  });

  it('refuses a second credit with the code of an approved one (-8, 2001)', async () => {
    const code = uniqueCode('cc');
    expect(outcome(await credit(code))).toEqual([200, 0, undefined]);
    const again = await credit(code);
    expect(outcome(again), again.text).toEqual([400, -8, 2001]);
  });

  it('lets a declined payment or credit be tried again under the same code', async () => {
    const code = uniqueCode('retry');
    expect((await pay(code, DECLINED)).body.result).toBeLessThan(0);
    expect(outcome(await pay(code))).toEqual([200, 0, undefined]);
    expect((await credit(code, DECLINED)).body.result).toBeLessThan(0);
    expect(outcome(await credit(code))).toEqual([200, 0, undefined]);
  });

  it("does not let another business's payment hold the code", async () => {
    const code = uniqueCode('biz');
    expect(outcome(await pay(code, APPROVED, 'biz-other'))).toEqual([200, 0, undefined]);
    expect(outcome(await pay(code))).toEqual([200, 0, undefined]);
  });
});
