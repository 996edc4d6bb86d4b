/**
 * A one-click checkout in real Chromium (the portal's "One-Click Checkout"): the customer sees the saved
 * cards of their customer id beside the card form (brand and last four digits only), picks one, types only
 * its security code and lands on the merchant; the checkout is paid with that token.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium } from '../helpers/browser.js';
import { checkoutRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { useChromiumAndMerchant } from './hosted-merchant.js';

const sb = useSandbox();
const YEAR = String(new Date().getUTCFullYear() + 3);

describe.skipIf(!hasChromium)('a one-click checkout in Chromium', () => {
  const chromium = useChromiumAndMerchant();

  async function saveToken(number: string, customerId: string): Promise<string> {
    const res = await sb.post('/gateway/v3/tokens', {
      header: { businessId: 'biz-1' },
      body: { card: { number, cvv: '123', expiryMonth: '12', expiryYear: YEAR }, customer: { customerId } },
    });
    expect(res.body.result, res.text).toBe(0);
    return res.body.body.token as string;
  }

  it("offers the customer's saved cards with the CVV only, and paying with the second one makes a token payment", async () => {
    const customerId = uniqueCode('e2e-cust');
    await saveToken('4111111111111111', customerId);
    const mastercard = await saveToken('5555555555554444', customerId);
    const request = checkoutRequest({ checkout: { returnUrl: `${chromium.merchant.url}/return`, brandIds: [1010, 1020], useCustomerTokens: true } });
    Object.assign(request.body, { customer: { customerId } });
    const created = await sb.post('/gateway/v3/checkouts', request);
    expect(created.body.result, created.text).toBe(2);
    const { checkoutId, redirect } = created.body.body.checkout as { checkoutId: string; redirect: { url: string } };

    const page = await chromium.newPage({ javaScriptEnabled: true });
    await page.goto(redirect.url);
    expect(await page.getAttribute('body', 'data-paylink-state')).toBe('form');
    const labels = await page.locator('#pl-saved-form label.pl-check').allTextContents();
    expect(labels.map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      expect.stringMatching(/^VISA •••• 1111 /),
      expect.stringMatching(/^MasterCard •••• 4444 /),
    ]);
    // The new-card form is still there beside them.
    expect(await page.locator('#pl-card-form #pl-cardNumber').count()).toBe(1);
    await page.screenshot({ path: join(artifactsDir(), 'hosted-one-click.png'), fullPage: true });

    await page.check(`#pl-saved-form input[value="${mastercard}"]`);
    await page.fill('#pl-savedCvv', '123');
    await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.click('#pl-pay-saved')]);
    expect(new URL(page.url()).searchParams.get('checkoutId')).toBe(checkoutId);

    const status = await sb.get(`/gateway/v3/checkouts/${checkoutId}?businessId=biz-1`);
    expect(status.body.description).toBe('Completed');
    expect(status.body.body.payments[0].body.token.token).toBe(mastercard);
    expect(status.body.body.payments[0].body.card.lastFourDigits).toBe('4444');
  });
});
