/**
 * The dashboard shows the flows the provider's portal documents (issue 29, "Done when"): a payment's 3DS 2.0
 * results, a SEPA Direct Debit's account with its IBAN masked, a one-click checkout's offer (what it asked for,
 * its customer id, the saved cards its form offers) and the customer id a token is keyed by. Pages over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { checkoutRequest, sepaDebitRequest, threeDSecure2PaymentRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'dash-portal';

async function page(path: string): Promise<string> {
  const res = await fetch(sb.url + path);
  expect(res.status).toBe(200);
  return res.text();
}

describe('dashboard: the portal flows', () => {
  it("a payment's 3DS 2.0 results", async () => {
    const res = await sb.post('/gateway/v3/payments', threeDSecure2PaymentRequest(BIZ, 'dash-3ds2'));
    expect(res.body.result, res.text).toBe(0);
    const html = await page(`/__sandbox/dashboard/payments/${res.body.body.id}`);
    expect(html).toContain('3-D Secure');
    expect(html).toContain('version 2, flow FRICTIONLESS, enrolled Y, authentication Y');
  });

  it("a SEPA Direct Debit's account, its IBAN masked", async () => {
    const res = await sb.post('/gateway/v3/payments', sepaDebitRequest(BIZ, 'dash-sepa', 'payment', 25));
    expect(res.body.result, res.text).toBe(0);
    const html = await page(`/__sandbox/dashboard/payments/${res.body.body.transaction.id}`);
    expect(html).toContain('Ada Lovelace DE89 ···· 3000');
    expect(html).not.toContain('370400440532');
  });

  it("a one-click checkout's offer and the customer id of its token", async () => {
    const customerId = uniqueCode('dash-cust');
    const saved = await sb.post('/gateway/v3/tokens', {
      header: { businessId: BIZ },
      body: { card: { number: '5555555555554444', expiryMonth: '12', expiryYear: '2035' }, customer: { customerId } },
    });
    const token = saved.body.body.token as string;
    const request = checkoutRequest({
      businessId: BIZ,
      checkout: { returnUrl: 'http://127.0.0.1:9/r', oneClick: { useCustomerTokens: true, requireCvv: false } },
    });
    Object.assign(request.body, { customer: { customerId } });
    const created = await sb.post('/gateway/v3/checkouts', request);
    expect(created.body.result, created.text).toBe(2);

    const checkout = await page(`/__sandbox/dashboard/checkouts/${created.body.body.checkout.checkoutId}`);
    expect(checkout).toContain(`the saved cards of customer ${customerId} (no CVV asked)`);
    expect(checkout).toContain('Saved cards offered (1)');
    expect(checkout).toContain(`href="/__sandbox/dashboard/tokens/${token}"`);

    const tokenPage = await page(`/__sandbox/dashboard/tokens/${token}`);
    expect(tokenPage).toContain('Customer id');
    expect(tokenPage).toContain(customerId);
  });
});
