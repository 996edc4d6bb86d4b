/**
 * Customers paying links and checkouts in real Chromium: typing the card, the banner's test cards, failed
 * attempts, the retry cards, 3-D Secure both ways, the save-card box, the decline button, a browser without
 * JavaScript; each flow follows the redirect to a real local merchant and then reads the API status.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium } from '../helpers/browser.js';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { useChromiumAndMerchant } from './hosted-merchant.js';

const sb = useSandbox();
const YEAR = String(new Date().getUTCFullYear() + 3);

describe.skipIf(!hasChromium)('paying on the hosted pages in Chromium', () => {
  const chromium = useChromiumAndMerchant();

  async function open(url: string, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const page = await chromium.newPage({ javaScriptEnabled: options.javaScriptEnabled ?? true });
    await page.goto(url);
    return page;
  }

  async function newLink(link: Record<string, unknown> = {}) {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link: { returnUrl: `${chromium.merchant.url}/return`, ...link } }));
    expect(created.status).toBe(200);
    return { id: created.body.body.link.linkId as string, url: created.body.body.link.redirect.url as string };
  }

  async function newCheckout(checkout: Record<string, unknown> = {}) {
    const created = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout: { returnUrl: `${chromium.merchant.url}/return`, ...checkout } }));
    expect(created.status).toBe(200);
    return { id: created.body.body.checkout.checkoutId as string, url: created.body.body.checkout.redirect.url as string };
  }

  const linkStatus = async (id: string) => (await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=biz-1`)).body;
  const checkoutStatus = async (id: string) => (await sb.get(`/gateway/v3/checkouts/${id}?businessId=biz-1`)).body;

  async function typeCard(page: Page, number: string, more: { cvv?: string; holderName?: string } = {}): Promise<void> {
    await page.fill('#pl-cardNumber', number);
    await page.fill('#pl-expiryMonth', '12');
    await page.fill('#pl-expiryYear', YEAR);
    await page.fill('#pl-cvv', more.cvv ?? (number.startsWith('3') ? '1234' : '123'));
    await page.fill('#pl-holderName', more.holderName ?? 'Ada Lovelace');
  }

  async function payAndReachMerchant(page: Page): Promise<URLSearchParams> {
    await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.click('#pl-pay')]);
    return new URL(page.url()).searchParams;
  }

  const state = (page: Page) => page.getAttribute('body', 'data-paylink-state');

  it('pays a link with the approve card typed in, highlighting the detected brand, and lands on the merchant', async () => {
    const link = await newLink();
    const page = await open(link.url);
    expect(await state(page)).toBe('form');
    await typeCard(page, '4111111111111111');
    expect(await page.getAttribute('.pl-brand[data-brand-id="1010"]', 'class')).toContain('pl-active');
    expect(await page.textContent('#pl-brand-live')).toBe('VISA detected');
    await page.screenshot({ path: join(artifactsDir(), 'hosted-form.png'), fullPage: true });

    const query = await payAndReachMerchant(page);
    expect(await page.textContent('#merchant')).toBe('Back at the shop');
    const status = await linkStatus(link.id);
    expect(status.description).toBe('Completed');
    expect(status.body.link.status).toBe('PAID');
    expect(query.get('linkId')).toBe(link.id);
    expect(query.get('id')).toBe(status.body.payments[0].body.transaction.id);
    expect(chromium.merchant.returns().at(-1)!.query.get('linkId')).toBe(link.id);

    // The customer comes back: the paid page, no form.
    await page.goto(link.url);
    expect(await state(page)).toBe('paid');
    expect(await page.locator('form').count()).toBe(0);
    await page.screenshot({ path: join(artifactsDir(), 'hosted-result-paid.png'), fullPage: true });
  });

  it('pays a checkout after a declined attempt, showing the reason in the alert region', async () => {
    const checkout = await newCheckout();
    const page = await open(checkout.url);
    await typeCard(page, '4000000000000002');
    await Promise.all([page.waitForLoadState('load'), page.click('#pl-pay')]);
    await page.waitForSelector('#pl-alert:has-text("not approved")');
    expect(await page.textContent('#pl-alert')).toMatch(/2 attempts left/);
    expect(await page.inputValue('#pl-holderName')).toBe('Ada Lovelace');
    expect(await page.inputValue('#pl-cardNumber')).toBe('');
    await page.screenshot({ path: join(artifactsDir(), 'hosted-result-failed-attempt.png'), fullPage: true });
    expect((await checkoutStatus(checkout.id)).result).toBe(2);

    await typeCard(page, '5555555555554444');
    const query = await payAndReachMerchant(page);
    const status = await checkoutStatus(checkout.id);
    expect(status.result).toBe(0);
    expect(status.description).toBe('Completed');
    expect(status.body.payments.map((p: any) => p.result)).toEqual([-4, 0]);
    expect(query.get('checkoutId')).toBe(checkout.id);
    expect(query.get('id')).toBe(status.body.payments[1].body.transaction.id);
  });

  it('declines a link after three attempts with the decline card and sends the customer back', async () => {
    const link = await newLink();
    const page = await open(link.url);
    for (let i = 0; i < 2; i++) {
      await typeCard(page, '4000000000000002');
      await Promise.all([page.waitForLoadState('load'), page.click('#pl-pay')]);
      await page.waitForSelector(`#pl-alert:has-text("${2 - i} attempt")`);
    }
    await typeCard(page, '4000000000000002');
    const query = await payAndReachMerchant(page);
    const status = await linkStatus(link.id);
    expect(status.body.link.status).toBe('DECLINED');
    expect(status.body.payments.map((p: any) => p.result)).toEqual([-4, -4, -4]);
    expect(query.get('id')).toBe(status.body.payments[2].body.transaction.id);
  });

  it('approves each retry card on the second attempt', async () => {
    for (const [number, first] of [
      ['4000000000000101', -3],
      ['4000000000000325', -5],
    ] as const) {
      const checkout = await newCheckout();
      const page = await open(checkout.url);
      await typeCard(page, number);
      await Promise.all([page.waitForLoadState('load'), page.click('#pl-pay')]);
      await page.waitForSelector('#pl-alert:has-text("not approved")');
      await typeCard(page, number);
      await payAndReachMerchant(page);
      const status = await checkoutStatus(checkout.id);
      expect(status.result).toBe(0);
      expect(status.body.payments.map((p: any) => p.result)).toEqual([first, 0]);
      await chromium.closePage();
    }
  });

  it('pays a link through the 3-D Secure page with code 1234, after picking the card from the sandbox banner', async () => {
    const link = await newLink();
    const page = await open(link.url);
    await page.click('#pl-banner summary');
    await page.click('.pl-card-pick[data-number="4000000000003220"]');
    expect(await page.inputValue('#pl-cardNumber')).toBe('4000 0000 0000 3220');
    expect(await page.inputValue('#pl-cvv')).toBe('123');
    await Promise.all([page.waitForURL('**/gateway/v3/web/3ds/**'), page.click('#pl-pay')]);
    expect(await state(page)).toBe('challenge');
    expect((await linkStatus(link.id)).body.link.status).toBe('PENDING');
    await page.screenshot({ path: join(artifactsDir(), 'hosted-3ds.png'), fullPage: true });

    await page.fill('#pl-code', '1234');
    await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.click('#pl-submit')]);
    const status = await linkStatus(link.id);
    expect(status.body.link.status).toBe('PAID');
    expect(status.body.payments.map((p: any) => p.result)).toEqual([0]);
    expect(new URL(page.url()).searchParams.get('id')).toBe(status.body.payments[0].body.transaction.id);
  });

  it('fails 3-D Secure with a wrong code and with cancel (-10), each time back on the form', async () => {
    const checkout = await newCheckout();
    const page = await open(checkout.url);
    for (const how of ['wrong code', 'cancel']) {
      await typeCard(page, '4000000000003220');
      await Promise.all([page.waitForURL('**/gateway/v3/web/3ds/**'), page.click('#pl-pay')]);
      if (how === 'cancel') {
        await page.click('#pl-cancel');
      } else {
        await page.fill('#pl-code', '9999');
        await page.click('#pl-submit');
      }
      // The answer to the challenge post is the card form again (200), with the reason.
      await page.waitForSelector('body[data-paylink-state="form"]');
      expect(await page.textContent('#pl-alert')).toMatch(/not approved/);
    }
    const status = await checkoutStatus(checkout.id);
    expect(status.result).toBe(2);
    expect(status.body.payments.map((p: any) => p.result)).toEqual([-10, -10]);
  });

  it('saves the card when the INQUIRE box is ticked and reads the token from payments[result=0]', async () => {
    const checkout = await newCheckout({ tokenize: 'inquire' });
    const page = await open(checkout.url);
    await typeCard(page, '5555555555554444');
    await page.check('#pl-saveCard');
    await payAndReachMerchant(page);
    const status = await checkoutStatus(checkout.id);
    expect(status.description).toBe('Completed');
    const paid = status.body.payments.find((p: any) => p.result === 0);
    expect(paid.body.token.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(paid.body.token.displayHint).toBe('************4444');
  });

  it('does not save the card when the INQUIRE box is left unticked', async () => {
    const checkout = await newCheckout({ tokenize: 'inquire' });
    const page = await open(checkout.url);
    await typeCard(page, '5555555555554444');
    expect(await page.isChecked('#pl-saveCard')).toBe(false);
    await payAndReachMerchant(page);
    const status = await checkoutStatus(checkout.id);
    expect(status.result).toBe(0);
    expect(status.body.payments[0].body.token).toBeUndefined();
  });

  it('declines on the decline button: the link is DECLINEDBYCUSTOMER and the merchant gets no payment id', async () => {
    const link = await newLink();
    const page = await open(link.url);
    await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.click('#pl-decline')]);
    const query = new URL(page.url()).searchParams;
    expect(query.get('linkId')).toBe(link.id);
    expect(query.has('id')).toBe(false);
    expect((await linkStatus(link.id)).body.link.status).toBe('DECLINEDBYCUSTOMER');
  });

  it('pays with JavaScript turned off: a plain form post and a 303 to the merchant', async () => {
    const link = await newLink();
    const page = await open(link.url, { javaScriptEnabled: false });
    await typeCard(page, '4242424242424242');
    const query = await payAndReachMerchant(page);
    expect(query.get('linkId')).toBe(link.id);
    expect((await linkStatus(link.id)).body.link.status).toBe('PAID');
  });
});
