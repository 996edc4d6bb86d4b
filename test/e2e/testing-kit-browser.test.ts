/**
 * payOnHostedPage in real Chromium against createTestSandbox: on the hosted page itself and inside the
 * browser library's iframe on a merchant's page, for approved, declined (the form comes back with the
 * reason), 3-D Secure, save-card and decline-button outcomes; it resolves back at the returnUrl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox, payOnHostedPage, type TestSandbox } from '../../src/testing/index.js';
import { hasChromium } from '../helpers/browser.js';
import { useChromiumAndMerchant } from './hosted-merchant.js';
import { merchantPage, startSite, type LocalSite } from './library-helpers.js';

describe.skipIf(!hasChromium)('payOnHostedPage', () => {
  const env = useChromiumAndMerchant();
  let sandbox: TestSandbox;
  let shop: LocalSite;
  beforeAll(async () => {
    sandbox = await createTestSandbox({ businessId: 'kit-browser' });
    shop = await startSite();
  });
  afterAll(async () => {
    await shop?.close();
    await sandbox?.close();
  });

  async function link(tokenize?: 'inquire') {
    const created = await sandbox.api.links.create({
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: `kit-${Math.random().toString(36).slice(2)}` },
      link: { returnUrl: `${env.merchant.url}/return`, brandIds: [1010, 1020], ...(tokenize ? { tokenize } : {}) },
    });
    expect(created.result, JSON.stringify(created.body)).toBe(0);
    return created.body.link;
  }

  it('pays on the hosted page and resolves back at the returnUrl with the link id', async () => {
    const page = await env.newPage();
    const made = await link();
    await page.goto(made.redirect.url);
    const result = await payOnHostedPage(page, { outcome: 'approved' });
    expect(result.returned).toBe(true);
    expect(new URL(result.url).searchParams.get('linkId')).toBe(made.linkId);
    expect((await sandbox.api.links.get(made.linkId)).body.link.status).toBe('PAID');
  });

  it('reports a declined card with the form shown again, then the decline button takes the customer back', async () => {
    const page = await env.newPage();
    const made = await link();
    await page.goto(made.redirect.url);
    const declined = await payOnHostedPage(page, { outcome: 'declined' });
    expect(declined).toMatchObject({ returned: false, state: 'form' });
    expect(declined.error).toMatch(/not approved/i);
    const back = await payOnHostedPage(page, { decline: true });
    expect(back.returned).toBe(true);
    expect(back.url).toContain(`linkId=${made.linkId}`);
  });

  it('answers the 3-D Secure challenge and saves the card inside the library iframe on a merchant page', async () => {
    const page = await env.newPage();
    const made = await link('inquire');
    shop.pages.set('/pay', merchantPage(sandbox.url, `new PaymentLink(${JSON.stringify(made.linkId)}, 'link').render();`));
    await page.goto(`${shop.url}/pay`);
    const result = await payOnHostedPage(page, { outcome: '3ds', saveCard: true });
    expect(result.returned, JSON.stringify(result)).toBe(true);
    expect(result.url.startsWith(`${env.merchant.url}/return`)).toBe(true);
    expect((await sandbox.api.links.get(made.linkId)).body.link.status).toBe('PAID');
    const paymentId = new URL(result.url).searchParams.get('id')!;
    const payment = await sandbox.api.payments.get(paymentId);
    expect(payment.result).toBe(0);
    // The card was saved: the payment carries its token, which the API then answers.
    const token = JSON.stringify(payment.body).match(/"token":"([^"]+)"/)?.[1];
    expect(token, JSON.stringify(payment.body)).toBeDefined();
    expect((await sandbox.api.tokens.get(token!)).result).toBe(0);
  });
  it('pays a one-click checkout with a saved card: the first with savedCard true, a chosen one (American Express, 4-digit CVV) by its token', async () => {
    const customerId = `kit-cust-${Math.random().toString(36).slice(2)}`;
    const save = async (number: string) => {
      const saved = await sandbox.api.tokens.create({
        brandId: number.startsWith('3') ? 1030 : 1010,
        card: { number, expiryMonth: '12', expiryYear: '2035', holderName: 'Kit Customer' },
        customer: { customerId },
      });
      expect(saved.result, JSON.stringify(saved.body)).toBe(0);
      return saved.body.token;
    };
    const visa = await save('4111111111111111');
    const amex = await save('378282246310005');
    const oneClick = async () => {
      const created = await sandbox.api.checkouts.create({
        transaction: { amount: 20, currencyCode: 'EUR', trackingCode: `kit-${Math.random().toString(36).slice(2)}` },
        checkout: { returnUrl: `${env.merchant.url}/return`, brandIds: [1010, 1020, 1030], oneClick: { useCustomerTokens: true } },
        customer: { customerId },
      });
      expect(created.result, JSON.stringify(created.body)).toBe(2);
      return created.body.checkout;
    };

    const first = await oneClick();
    const page = await env.newPage();
    await page.goto(first.redirect.url);
    const result = await payOnHostedPage(page, { savedCard: true });
    expect(result, JSON.stringify(result)).toMatchObject({ returned: true, savedCard: visa });
    const paid = await sandbox.api.checkouts.get(first.checkoutId);
    expect(JSON.stringify(paid.body.payments?.[0]?.body), JSON.stringify(paid.body)).toContain(visa);

    const second = await oneClick();
    await page.goto(second.redirect.url);
    const chosen = await payOnHostedPage(page, { savedCard: amex });
    expect(chosen, JSON.stringify(chosen)).toMatchObject({ returned: true, savedCard: amex });
    const paidAmex = await sandbox.api.checkouts.get(second.checkoutId);
    expect(paidAmex.body.payments?.[0]?.result, JSON.stringify(paidAmex.body)).toBe(0);
    expect(JSON.stringify(paidAmex.body.payments?.[0]?.body)).toContain(amex);

    // A checkout that offers no saved card says so instead of paying.
    const plain = await sandbox.api.checkouts.create({
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: `kit-${Math.random().toString(36).slice(2)}` },
      checkout: { returnUrl: `${env.merchant.url}/return`, brandIds: [1010] },
    });
    await page.goto(plain.body.checkout.redirect.url);
    await expect(payOnHostedPage(page, { savedCard: true, timeoutMs: 5000 })).rejects.toThrow(/offers no saved card/);
  });

  it('types a 3-digit CVV for a Diners Club number given by hand (a card starting with 3 is not always American Express)', async () => {
    // Without the page script, nothing shortens the CVV box to the brand's length: the kit must type it right.
    const page = await env.newPage({ javaScriptEnabled: false });
    const created = await sandbox.api.links.create({
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: `kit-${Math.random().toString(36).slice(2)}` },
      link: { returnUrl: `${env.merchant.url}/return`, brandIds: [1060, 1090] },
    });
    expect(created.result, JSON.stringify(created.body)).toBe(0);
    await page.goto(created.body.link.redirect.url);
    const result = await payOnHostedPage(page, { cardNumber: '36227206271667' });
    expect(result, JSON.stringify(result)).toMatchObject({ returned: true });
    expect((await sandbox.api.links.get(created.body.link.linkId)).body.link.status).toBe('PAID');
  });

  it("fills an expiry counted from the sandbox clock's year, so a clock moved years ahead still pays", async () => {
    // Eleven years ahead: the kit's old default (December of this machine's year + 10) had expired by then.
    await sandbox.clock.set(`${new Date().getUTCFullYear() + 11}-06-01T12:00:00Z`, { freeze: true });
    try {
      const page = await env.newPage();
      const made = await link();
      await page.goto(made.redirect.url);
      const result = await payOnHostedPage(page, { outcome: 'approved' });
      expect(result, JSON.stringify(result)).toMatchObject({ returned: true });
      expect((await sandbox.api.links.get(made.linkId)).body.link.status).toBe('PAID');
    } finally {
      await sandbox.clock.reset();
    }
  });

  it('resolves with the returnUrl and its ids when nothing answers there', async () => {
    const page = await env.newPage();
    const created = await sandbox.api.links.create({
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: `kit-${Math.random().toString(36).slice(2)}` },
      // Port 9 (discard) on loopback: nothing listens, the browser shows its own error page.
      link: { returnUrl: 'http://127.0.0.1:9/return', brandIds: [1010] },
    });
    await page.goto(created.body.link.redirect.url);
    const result = await payOnHostedPage(page, { outcome: 'approved' });
    expect(result.returned).toBe(true);
    expect(result.returnUrlUnanswered).toBe(true);
    const url = new URL(result.url);
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:9/return');
    expect(url.searchParams.get('linkId')).toBe(created.body.link.linkId);
    expect(url.searchParams.get('id')).toMatch(/[0-9a-f-]{36}/);
  });
});
