/**
 * The provider's recorded AfterPay error code (issue 29 item 9): the PHP SDK's AfterpayErrorMessageHelper
 * (unit-tested against the provider's answers) reads AfterPay declines under error code 300400800 with fixed
 * reasons such as "Age is under 18". The sandbox answers that code and reason for a customer under 18
 * (docs/api.md, "AfterPay declines"); an adult customer is approved as before.
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'afterpay-codes';

function afterpay(birthDate: string) {
  return {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 50, currencyCode: 'EUR', brandId: 5020, countryCode: 'NL', trackingCode: uniqueCode('afterpay') },
      customer: { birthDate, email: 'john.doe@example.com', familyName: 'Doe', givenName: 'John' },
    },
  };
}

describe("AfterPay declines with the provider's code", () => {
  it('declines a customer under 18: -4, code 300400800, message and detailedMessage "Age is under 18", stored so the GET agrees', async () => {
    const year = new Date().getUTCFullYear() - 10;
    const res = await sb.post('/gateway/v3/payments', afterpay(`${year}-06-15`));
    expect([res.status, res.body.result, res.body.description], res.text).toEqual([400, -4, 'Declined']);
    expect(res.body.body.error).toEqual({ code: 300400800, message: 'Age is under 18', detailedMessage: 'Age is under 18' });
    expect(res.body.body.transaction).toMatchObject({ brandId: 5020, action: 'payment' });
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.transaction.id}?businessId=${BIZ}`);
    expect([read.body.result, read.body.body.error.code], read.text).toEqual([-4, 300400800]);
  });

  it('approves an adult customer, and a payment without a birth date, as before', async () => {
    expect((await sb.post('/gateway/v3/payments', afterpay('1991-11-23'))).body.result).toBe(0);
    const bare = afterpay('x');
    delete (bare.body as Record<string, unknown>).customer;
    expect((await sb.post('/gateway/v3/payments', bare)).body.result).toBe(0);
  });
});
