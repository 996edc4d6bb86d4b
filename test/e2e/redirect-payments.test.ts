/**
 * A card-brand redirect payment in real Chromium (docs/api.md, "Redirect payments"): the merchant creates a
 * payment with a brandId and a returnUrl and no card, the customer follows `redirect.url` to the hosted card
 * form of that payment, picks a test card from the banner, passes 3-D Secure, and lands on the merchant's
 * returnUrl with `id=<paymentId>`; the API then shows the same payment approved.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { useChromiumAndMerchant } from './hosted-merchant.js';

const sb = useSandbox();
const BIZ = 'redirect-e2e';

describe.skipIf(!hasChromium)('card redirect payments in Chromium', () => {
  const chromium = useChromiumAndMerchant();

  async function createPayment(): Promise<{ id: string; url: string }> {
    const res = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: {
          amount: '24.95',
          currencyCode: 'EUR',
          brandId: 1010,
          trackingCode: uniqueCode('e2e-rp'),
          returnUrl: `${chromium.merchant.url}/return?order=9`,
        },
      },
    });
    expect([res.status, res.body.result, res.body.body.redirect.method], res.text).toEqual([200, 2, 'GET']);
    return { id: res.body.body.id, url: res.body.body.redirect.url };
  }

  const state = (page: Page) => page.getAttribute('body', 'data-paylink-state');
  const read = async (id: string) => (await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`)).body;

  it('pays on the card form with the banner 3-D Secure card and code 1234, and lands on the returnUrl with the id', async () => {
    const payment = await createPayment();
    const page = await chromium.newPage();
    await page.goto(payment.url);
    expect(await state(page)).toBe('form');
    expect(await page.textContent('#pl-pay')).toContain('24.95');
    // The form offers the one brand the merchant asked for.
    expect(await page.$$eval('.pl-brand', (items) => items.map((item) => item.getAttribute('data-brand-id')))).toEqual(['1010']);
    await page.click('#pl-banner summary');
    await page.click('.pl-card-pick[data-number="4000000000003220"]');
    await Promise.all([page.waitForURL('**/gateway/v3/web/3ds/**'), page.click('#pl-pay')]);
    expect(await state(page)).toBe('challenge');
    expect((await read(payment.id)).result).toBe(2);

    await page.fill('#pl-code', '1234');
    await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.click('#pl-submit')]);
    const back = new URL(page.url()).searchParams;
    expect([back.get('order'), back.get('id')]).toEqual(['9', payment.id]);
    const status = await read(payment.id);
    expect([status.result, status.body.id, status.body.card.lastFourDigits]).toEqual([0, payment.id, '3220']);
  });

  it('ends the payment as -10 when the customer presses decline, back on the returnUrl', async () => {
    const payment = await createPayment();
    const page = await chromium.newPage();
    await page.goto(payment.url);
    await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.click('#pl-decline')]);
    expect(new URL(page.url()).searchParams.get('id')).toBe(payment.id);
    expect((await read(payment.id)).result).toBe(-10);
    // Going back to the form shows how the payment ended instead of a second attempt.
    await page.goto(payment.url);
    expect(await state(page)).toBe('declined');
  });
});
