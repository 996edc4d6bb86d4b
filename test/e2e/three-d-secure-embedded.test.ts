/**
 * The embedded 3DS 2.0 flow of the portal's "3DS 2.0 with Payments API" page in real Chromium: the
 * merchant's own page embeds the provider's 3-D Secure page in an iframe (posting the payment's `redirect`
 * into it, no library), the customer answers the challenge inside it, sized by `challengeWindowSize`, and
 * the result reaches the merchant's page as a message, then its return page opens inside the frame; the
 * shop's page itself never leaves.
 */
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from '../helpers/browser.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { useChromiumAndMerchant } from './hosted-merchant.js';

const sb = useSandbox();
const BIZ = 'embedded-3ds';
const YEAR = String(new Date().getUTCFullYear() + 3);

interface Received {
  origin: string;
  data: unknown;
}

describe.skipIf(!hasChromium)('the embedded 3DS 2.0 flow in Chromium', () => {
  const chromium = useChromiumAndMerchant();

  async function pay(number: string, threeDSecure: Record<string, unknown>, returnUrl: string | undefined) {
    const res = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { brandId: 1010, trackingCode: uniqueCode('embedded'), amount: 12.5, currencyCode: 'EUR', ...(returnUrl ? { returnUrl } : {}) },
        card: { number, cvv: '123', expiryMonth: '12', expiryYear: YEAR },
        threeDSecure,
      },
    });
    expect([res.status, res.body.result], res.text).toEqual([200, 2]);
    return res.body.body as { id: string; redirect: { method: string; url: string; fields: Record<string, string> } };
  }

  /** The shop's page with the payment's redirect posted into its iframe; resolves with the frame on the challenge. */
  async function embed(redirect: unknown): Promise<{ page: Page; frame: Frame }> {
    const page = await chromium.newPage();
    await page.goto(`${chromium.merchant.url}/embed-3ds?redirect=${encodeURIComponent(JSON.stringify(redirect))}`);
    const handle = await page.waitForSelector('iframe[name=tds]');
    const frame = (await handle.contentFrame())!;
    await frame.waitForSelector('body[data-paylink-state="challenge"]');
    return { page, frame };
  }

  const messages = (page: Page) => page.evaluate(() => (window as unknown as { messages: Received[] }).messages);

  it('runs the challenge inside the shop page, posts the result to it and opens the return page in the frame', async () => {
    const returnUrl = `${chromium.merchant.url}/return?order=7`;
    const payment = await pay('4000000000003220', { version: '2', additionalInfo: { challengeWindowSize: '02' } }, returnUrl);
    const { page, frame } = await embed(payment.redirect);

    // Shown at once (not waiting for a library's options) and laid out in the 390 x 400 window asked for.
    expect(await frame.isVisible('#pl-code')).toBe(true);
    expect(await frame.getAttribute('body', 'data-paylink-window')).toBe('02');
    const width = await frame.evaluate(() => document.querySelector('.pl-main')!.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(390);

    await frame.fill('#pl-code', '1234');
    await frame.click('#pl-submit');
    await page.waitForFunction(() => (window as unknown as { messages: Received[] }).messages.length > 0);
    const [received] = await messages(page);
    expect(received!.origin).toBe(new URL(sb.url).origin);
    expect(received!.data).toEqual({
      threeDSecureComplete: {
        paymentId: payment.id,
        result: 0,
        description: 'Ok',
        threeDSecure: { version: '2', enrollmentResult: 'Y', authenticationResult: 'Y', flow: 'CHALLENGE' },
      },
    });
    expect(JSON.stringify(received!.data)).not.toContain('4000000000003220');

    // The frame goes on to the merchant's return page; the shop's page stays where it was.
    await page.waitForFunction(() => {
      const frame = document.getElementById('tds') as HTMLIFrameElement;
      try {
        return frame.contentWindow!.location.pathname === '/return';
      } catch {
        return false;
      }
    });
    const back = chromium.merchant.returns().at(-1)!;
    expect(back.query.get('order')).toBe('7');
    expect(back.query.get('id')).toBe(payment.id);
    expect(new URL(page.url()).pathname).toBe('/embed-3ds');

    const read = await sb.get(`/gateway/v3/payments/${payment.id}?businessId=${BIZ}`);
    expect(read.body.result).toBe(0);
    expect(read.body.body.threeDSecure.authenticationResult).toBe('Y');
  });

  it('sends the result only to the origin of the return address: a shop page on another origin gets nothing', async () => {
    // The return address names localhost, the shop's page is on 127.0.0.1: another origin.
    const returnUrl = `${chromium.merchant.url.replace('127.0.0.1', 'localhost')}/return`;
    const payment = await pay('4000000000003220', { version: '2' }, returnUrl);
    const { page, frame } = await embed(payment.redirect);
    const returnsBefore = chromium.merchant.returns().length;
    await frame.fill('#pl-code', '1234');
    await frame.click('#pl-submit');
    // The frame still reaches the return page, which the page posted after its message.
    await expect.poll(() => chromium.merchant.returns().length).toBe(returnsBefore + 1);
    expect(await messages(page)).toEqual([]);
  });

  it('without a return address, posts the result to the shop and says in the frame how the check ended', async () => {
    const payment = await pay('4000000000001000', { version: '2', additionalInfo: { challengeWindowSize: '01' } }, undefined);
    const { page, frame } = await embed(payment.redirect);
    // The downgrade: the page says the check runs on 3-D Secure 1.0.
    expect(await frame.isVisible('[data-paylink-downgraded]')).toBe(true);
    await frame.fill('#pl-code', '0000');
    await frame.click('#pl-submit');
    await page.waitForFunction(() => (window as unknown as { messages: Received[] }).messages.length > 0);
    const [received] = await messages(page);
    expect(received!.data).toEqual({
      threeDSecureComplete: {
        paymentId: payment.id,
        result: -10,
        description: 'Customer processing error',
        threeDSecure: { version: '1', enrollmentResult: 'Y', authenticationResult: 'N' },
      },
    });
    await frame.waitForSelector('body[data-paylink-state="result"]');
    expect(await frame.textContent('#pl-title')).toBe('3-D Secure check failed');
  });
});
