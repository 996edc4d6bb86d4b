/**
 * Cards outside the sandbox's test-card table, as the provider's staging treated them in recorded suites
 * (docs/test-cards.md, "Cards outside the table"): etrias' functional suite paid with 4444333322221111 and
 * staging answered 2 Pending with a 3-D Secure redirect carrying fields; the portal's tokenization example
 * card 4916934502308682 is a VISA number like it. A number of no brand the sandbox knows stays 3005.
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { expectError, FUTURE } from './client.js';

const sb = useSandbox();
const BIZ = 'staging-cards';

function payment(number: string, action = 'payment') {
  return {
    action,
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 5.5, currencyCode: 'EUR', brandId: 1010, storeId: 1, trackingCode: uniqueCode('staging'), returnUrl: 'https://localhost' },
      card: { number, cvv: '123', holderName: 'John Doe', ...FUTURE },
    },
  };
}

describe('a Luhn-valid card of a known brand outside the test-card table', () => {
  it("answers as etrias' recorded staging run did: 2 Pending, action payment, a redirect with non-empty fields", async () => {
    const res = await sb.post('/gateway/v3/payments', payment('4444333322221111'));
    expect([res.status, res.body.result], res.text).toEqual([200, 2]);
    expect(res.body.body.transaction.action).toBe('payment');
    expect(res.body.body.redirect.url).toEqual(expect.any(String));
    expect(Object.keys(res.body.body.redirect.fields ?? {})).not.toHaveLength(0);
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.transaction.id}?businessId=${BIZ}`);
    expect(read.body.result, read.text).toBe(2);
    expect(read.text).not.toContain('4444333322221111');
  });

  it('refuses to capture that pending authorization, as staging did ("needs at least one successful previous transaction")', async () => {
    const auth = await sb.post('/gateway/v3/payments', payment('4444333322221111', 'authorize'));
    expect(auth.body.result, auth.text).toBe(2);
    const capture = await sb.post(`/gateway/v3/payments/${auth.body.body.transaction.id}/capture`, {
      header: { businessId: BIZ },
      body: { transaction: { amount: 5.5, currencyCode: 'EUR', trackingCode: uniqueCode('staging-cap') } },
    });
    expect(capture.body.result, capture.text).toBeLessThan(0);
  });

  it("takes the portal's tokenization example card 4916934502308682 into a token", async () => {
    const res = await sb.post('/gateway/v3/tokens', { header: { businessId: BIZ }, body: { brandId: 1010, card: { number: '4916934502308682', ...FUTURE } } });
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.displayHint).toMatch(/8682$/);
  });

  it('still declines a Luhn-valid number of no brand the sandbox knows: -4, 3005', async () => {
    const body = payment('9000000000000001');
    delete (body.body.transaction as Record<string, unknown>).brandId;
    expectError(await sb.post('/gateway/v3/payments', body), { result: -4, code: 3005 });
  });
});
