/**
 * The hosted page's own behaviour in real Chromium: inline validation, keyboard use, escaping of hostile
 * values, and the iframe protocol with a merchant page embedding it (options from the parent only,
 * `{ready}`, `{height}`, `{error}`, `{redirect}`).
 */
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium } from '../helpers/browser.js';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { useChromiumAndMerchant } from './hosted-merchant.js';

const sb = useSandbox();
const YEAR = String(new Date().getUTCFullYear() + 3);

describe.skipIf(!hasChromium)('the hosted page in Chromium', () => {
  const chromium = useChromiumAndMerchant();
  let dialogs: string[] = [];
  let cspErrors: string[] = [];

  async function newPage(): Promise<Page> {
    const page = await chromium.newPage();
    dialogs = [];
    cspErrors = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    return page;
  }

  async function newLink(link: Record<string, unknown> = {}) {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link: { returnUrl: `${chromium.merchant.url}/return`, ...link } }));
    expect(created.status).toBe(200);
    return { id: created.body.body.link.linkId as string, url: created.body.body.link.redirect.url as string };
  }

  const linkStatus = async (id: string) => (await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=biz-1`)).body;

  describe('inline validation', () => {
    it('catches a Luhn-invalid number, a past expiry and a wrong CVV before anything is sent', async () => {
      const link = await newLink();
      const page = await newPage();
      await page.goto(link.url);
      await page.fill('#pl-cardNumber', '4111111111111112');
      await page.fill('#pl-expiryMonth', '01');
      await page.fill('#pl-expiryYear', '2020');
      await page.fill('#pl-cvv', '12');
      await page.fill('#pl-holderName', 'Ada');
      await page.click('#pl-pay');
      expect(await page.textContent('#pl-error-cardNumber')).toMatch(/not valid/);
      expect(await page.getAttribute('#pl-cardNumber', 'aria-invalid')).toBe('true');
      expect(await page.textContent('#pl-error-expiryMonth')).toBe('This card has expired.');
      expect(await page.textContent('#pl-error-cvv')).toBe('Enter the 3-digit security code.');
      expect(await page.textContent('#pl-alert')).toMatch(/not valid.*expired/);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('pl-cardNumber');
      expect(await page.getAttribute('body', 'data-paylink-state')).toBe('form');
      expect((await linkStatus(link.id)).description).toBe('Ok');
      expect(cspErrors).toEqual([]);
    });

    it('names a brand the link does not offer, and asks 4 CVV digits for American Express', async () => {
      const visaOnly = await newLink({ brandIds: [1010] });
      const page = await newPage();
      await page.goto(visaOnly.url);
      await page.fill('#pl-cardNumber', '378282246310005');
      await page.locator('#pl-cardNumber').blur();
      expect(await page.textContent('#pl-error-cardNumber')).toBe('American Express cards are not accepted here. Accepted: VISA.');

      const amex = await newLink({ brandIds: [1010, 1030] });
      await page.goto(amex.url);
      await page.fill('#pl-cardNumber', '3782 8224 6310 005');
      expect(await page.getAttribute('.pl-brand[data-brand-id="1030"]', 'class')).toContain('pl-active');
      expect(await page.getAttribute('.pl-brand[data-brand-id="1010"]', 'class')).not.toContain('pl-active');
      expect(await page.getAttribute('#pl-cvv', 'maxlength')).toBe('4');
      await page.fill('#pl-cvv', '123');
      await page.locator('#pl-cvv').blur();
      expect(await page.textContent('#pl-error-cvv')).toBe('Enter the 4-digit security code.');
      await page.fill('#pl-cvv', '1234');
      await page.locator('#pl-cvv').blur();
      expect(await page.textContent('#pl-error-cvv')).toBe('');
    });

    it('can be filled and sent with the keyboard alone', async () => {
      const link = await newLink();
      const page = await newPage();
      await page.goto(link.url);
      // The sandbox badge opens its card list from the keyboard too.
      await page.focus('#pl-banner summary');
      await page.keyboard.press('Enter');
      await page.focus('.pl-card-pick[data-number="5555555555554444"]');
      await page.keyboard.press('Enter');
      expect(await page.inputValue('#pl-cardNumber')).toBe('5555 5555 5555 4444');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('pl-pay');
      await page.focus('#pl-cardNumber');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('4242424242424242');
      await page.keyboard.press('Tab');
      await page.keyboard.type('11');
      await page.keyboard.press('Tab');
      await page.keyboard.type(YEAR);
      await page.keyboard.press('Tab');
      await page.keyboard.type('321');
      await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.keyboard.press('Enter')]);
      const status = await linkStatus(link.id);
      expect(status.body.link.status).toBe('PAID');
      expect(status.body.payments[0].body.card.lastFourDigits).toBe('4242');
      expect(status.body.payments[0].body.card.expiryMonth).toBe('11');
    });
  });

  describe('hostile values', () => {
    it('shows a holder name with markup as text and runs none of it', async () => {
      const link = await newLink();
      const page = await newPage();
      await page.goto(link.url);
      const attack = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
      await page.fill('#pl-cardNumber', '4000000000000002');
      await page.fill('#pl-expiryMonth', '12');
      await page.fill('#pl-expiryYear', YEAR);
      await page.fill('#pl-cvv', '123');
      await page.fill('#pl-holderName', attack);
      await page.click('#pl-pay');
      await page.waitForSelector('#pl-alert:has-text("not approved")');
      expect(await page.inputValue('#pl-holderName')).toBe(attack);
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(dialogs).toEqual([]);
    });

    it('keeps a returnUrl with markup inert on the pages and in the redirect', async () => {
      const link = await newLink({ returnUrl: `${chromium.merchant.url}/return?q="><script>alert(1)</script>` });
      const page = await newPage();
      await page.goto(link.url);
      await Promise.all([page.waitForURL(`${chromium.merchant.url}/return**`), page.click('#pl-decline')]);
      const query = new URL(page.url()).searchParams;
      expect(query.get('q')).toBe('"><script>alert(1)</script>');
      expect(query.get('linkId')).toBe(link.id);
      await page.goto(link.url);
      expect(await page.getAttribute('body', 'data-paylink-state')).toBe('declinedbycustomer');
      const href = await page.getAttribute('#pl-return', 'href');
      expect(new URL(href!).searchParams.get('q')).toBe('"><script>alert(1)</script>');
      expect(dialogs).toEqual([]);
    });
  });

  describe('inside a merchant iframe', () => {
    const options = (more: Record<string, unknown> = {}) => ({
      styles: {
        autoHeight: true,
        imageUrl: `${chromium.merchant.url}/logo.png`,
        generalStyles: {
          fontFamily: 'Georgia, serif',
          fontFamilyUrl: `${chromium.merchant.url}/font.css`,
          backgroundColor: '#fdf6e3',
          primaryThemeColor: '#6c71c4',
        },
        formStyles: { borderRadius: '9px', fontSize: '15px' },
        paymentButtonStyles: { backgroundColor: 'rgb(200, 0, 0)', fontColor: '#ffff00', borderRadius: '12px' },
      },
      showDeclineButton: false,
      ...more,
    });

    async function embed(url: string, opts: unknown): Promise<{ page: Page; frame: Frame }> {
      const page = await newPage();
      const src = `${chromium.merchant.url}/embed?src=${encodeURIComponent(url)}&options=${encodeURIComponent(JSON.stringify(opts))}`;
      await page.goto(src);
      await page.waitForFunction(() => (window as any).messages.some((m: any) => m && m.ready === true));
      const frame = page.frames().find((f) => f.url().startsWith(sb.url))!;
      return { page, frame };
    }

    const messages = (page: Page) => page.evaluate(() => (window as any).messages as any[]);

    it('applies the options as CSS custom properties, logo, font and hidden decline button, then posts ready and height', async () => {
      const link = await newLink();
      const { page, frame } = await embed(link.url, options());
      const pay = frame.locator('#pl-pay');
      expect(await pay.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(200, 0, 0)');
      expect(await pay.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 0)');
      expect(await pay.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('12px');
      expect(await frame.evaluate(() => getComputedStyle(document.body).fontFamily)).toBe('Georgia, serif');
      expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(253, 246, 227)');
      expect(await frame.locator('#pl-cardNumber').evaluate((el) => getComputedStyle(el).borderRadius)).toBe('9px');
      expect(await frame.getAttribute('#pl-font', 'href')).toBe(`${chromium.merchant.url}/font.css`);
      expect(await frame.getAttribute('#pl-logo', 'src')).toBe(`${chromium.merchant.url}/logo.png`);
      expect(await frame.locator('#pl-logo').isVisible()).toBe(true);
      expect(await frame.locator('#pl-decline').isVisible()).toBe(false);
      const heights = (await messages(page)).filter((m) => m.height);
      expect(heights.length).toBeGreaterThan(0);
      expect(heights[0].height).toMatch(/^\d+px$/);
      expect(cspErrors).toEqual([]);
      await page.screenshot({ path: join(artifactsDir(), 'hosted-framed-styled.png'), fullPage: true });
    });

    it('posts a new height when the form grows', async () => {
      const link = await newLink();
      const { page, frame } = await embed(link.url, options());
      const before = (await messages(page)).filter((m) => m.height).length;
      await frame.click('#pl-pay');
      await page.waitForFunction((n) => (window as any).messages.filter((m: any) => m.height).length > n, before);
      const heights = (await messages(page)).filter((m) => m.height).map((m) => parseInt(m.height, 10));
      expect(heights.at(-1)!).toBeGreaterThan(heights[0]!);
    });

    it('ignores options posted by a window other than its parent', async () => {
      const link = await newLink();
      const { page, frame } = await embed(link.url, options());
      // A listener the test adds in the frame after the page's own: once it has the sibling's message, the
      // page's listener has had it too (and ignored it).
      await frame.evaluate(() => {
        (window as any).fromSibling = false;
        window.addEventListener('message', (e) => {
          if (e.data && e.data.showDeclineButton === true) (window as any).fromSibling = true;
        });
      });
      await page.evaluate(() => {
        const sibling = document.createElement('iframe');
        sibling.srcdoc = `<script>parent.frames[0].postMessage({ styles: { paymentButtonStyles: { backgroundColor: 'rgb(0, 0, 200)' } }, showDeclineButton: true }, '*');<\/script>`;
        document.body.appendChild(sibling);
      });
      await frame.waitForFunction(() => (window as any).fromSibling === true);
      const pay = frame.locator('#pl-pay');
      expect(await pay.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(200, 0, 0)');
      expect(await frame.locator('#pl-decline').isVisible()).toBe(false);
      // The same message from the parent is taken.
      await page.evaluate(() => {
        const f = document.getElementById('pay') as HTMLIFrameElement;
        f.contentWindow!.postMessage({ styles: { paymentButtonStyles: { backgroundColor: 'rgb(0, 0, 200)' } } }, '*');
      });
      await frame.waitForFunction(() => getComputedStyle(document.getElementById('pl-pay')!).backgroundColor === 'rgb(0, 0, 200)');
    });

    it('hands the return URL to the parent with {redirect} instead of navigating', async () => {
      const link = await newLink();
      const { page, frame } = await embed(link.url, options());
      await frame.fill('#pl-cardNumber', '4111111111111111');
      await frame.fill('#pl-expiryMonth', '12');
      await frame.fill('#pl-expiryYear', YEAR);
      await frame.fill('#pl-cvv', '123');
      await frame.fill('#pl-holderName', 'Ada Lovelace');
      await frame.click('#pl-pay');
      await page.waitForFunction(() => (window as any).messages.some((m: any) => m && m.redirect));
      const redirect = (await messages(page)).find((m) => m.redirect).redirect as string;
      const status = await linkStatus(link.id);
      expect(status.body.link.status).toBe('PAID');
      expect(redirect).toBe(`${chromium.merchant.url}/return?linkId=${link.id}&id=${status.body.payments[0].body.transaction.id}`);
      expect(page.url()).toContain('/embed');
      expect(await frame.getAttribute('body', 'data-paylink-state')).toBe('result');
    });

    it('goes through 3-D Secure inside the frame and still ends with {redirect}', async () => {
      const created = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout: { returnUrl: `${chromium.merchant.url}/return` } }));
      const checkoutId = created.body.body.checkout.checkoutId as string;
      const { page, frame } = await embed(created.body.body.checkout.redirect.url, options());
      // A frame 640 px wide or less starts with the test-card banner closed, as a phone does: open it.
      if (!(await frame.evaluate(() => (document.getElementById('pl-banner') as HTMLDetailsElement).open))) await frame.click('#pl-banner summary');
      await frame.click('.pl-card-pick[data-number="4000000000003220"]');
      await frame.click('#pl-pay');
      await frame.waitForSelector('body[data-paylink-state="challenge"]');
      await frame.fill('#pl-code', '1234');
      await frame.click('#pl-submit');
      await page.waitForFunction(() => (window as any).messages.some((m: any) => m && m.redirect));
      const redirect = (await messages(page)).find((m) => m.redirect).redirect as string;
      expect(new URL(redirect).searchParams.get('checkoutId')).toBe(checkoutId);
      expect((await sb.get(`/gateway/v3/checkouts/${checkoutId}?businessId=biz-1`)).body.result).toBe(0);
    });

    it('posts {error} with code, message and state for a link that can no longer be paid', async () => {
      const link = await newLink();
      await sb.post(`/gateway/v3/paymentlinks/${link.id}/cancel`, { header: { businessId: 'biz-1' } });
      const { page } = await embed(link.url, options());
      await page.waitForFunction(() => (window as any).messages.some((m: any) => m && m.error));
      const error = (await messages(page)).find((m) => m.error).error;
      expect(error).toEqual({ code: 2002, message: 'This payment link was cancelled.', state: 'CANCELLED' });
    });

    it('posts {error} for an unknown link id', async () => {
      const { page } = await embed(`${sb.url}/gateway/v3/web/paymentlinks/unknown-id`, options());
      await page.waitForFunction(() => (window as any).messages.some((m: any) => m && m.error));
      const error = (await messages(page)).find((m) => m.error).error;
      expect(error.state).toBe('NOTFOUND');
      expect(error.code).toBe(1404);
    });
  });
});
