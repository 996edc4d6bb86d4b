/**
 * The bank and wallet simulator pages (iDEAL, Sofort, Giropay, EPS; PayPal) in real Chromium at 1280 and
 * 390 px (issue 23, item 13): they wear the hosted pages' stylesheet and frame (the sandbox banner, the
 * panel with the merchant and amount, the Pay button's look on *Approve payment*), fit the width, and the
 * settled page says how it ended. Screenshots go to test-artifacts/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium, launchChromium } from '../helpers/browser.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'bank-pages';
let browser: Browser;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function createPayment(brandId: number): Promise<{ id: string; url: string }> {
  const res = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 24.95, currencyCode: 'EUR', brandId, trackingCode: uniqueCode('bank-page') },
      ...(brandId === 4010 ? {} : { bank: { issuerId: 'INGBNL2A' } }),
    },
  });
  expect([res.status, res.body.result], res.text).toEqual([200, 2]);
  return { id: res.body.body.transaction.id, url: res.body.body.redirect.url };
}

/** What the page looks like, read from computed styles. */
async function looks(page: Page) {
  return page.evaluate(() => {
    const style = (selector: string) => {
      const el = document.querySelector(selector);
      return el ? getComputedStyle(el) : undefined;
    };
    return {
      stylesheets: Array.from(document.styleSheets).map((sheet) => sheet.href ?? 'inline'),
      inlineStyles: document.querySelectorAll('style').length,
      bodyFont: style('body')?.fontFamily,
      bodyBackground: style('body')?.backgroundColor,
      panelBackground: style('.pl-panel')?.backgroundColor,
      panelPadding: style('.pl-panel')?.paddingTop,
      approveBackground: style('#pl-approve')?.backgroundColor,
      approveColor: style('#pl-approve')?.color,
      approveWidth: document.querySelector('#pl-approve')?.getBoundingClientRect().width,
      panelWidth: document.querySelector('.pl-panel')?.getBoundingClientRect().width,
      banner: document.querySelector('#pl-banner')?.textContent?.trim(),
      amount: document.querySelector('#pl-amount')?.textContent?.trim(),
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    };
  });
}

describe.runIf(hasChromium)('the bank and wallet simulator pages', () => {
  const pages = [
    { brandId: 3010, name: 'iDEAL', file: 'bank-page' },
    { brandId: 4010, name: 'PayPal', file: 'wallet-page' },
  ];
  for (const { brandId, name, file } of pages) {
    for (const width of [1280, 390]) {
      it(`shows the ${name} page in the hosted pages' look at ${width} px, then its settled page`, async () => {
        const payment = await createPayment(brandId);
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        try {
          await page.goto(payment.url);
          expect(await page.getAttribute('body', 'data-paylink-state')).toBe('form');
          const seen = await looks(page);
          // The hosted pages' own stylesheet, not a copy inlined in the page.
          expect(
            seen.stylesheets.some((href) => href.endsWith('/gateway/v3/web/assets/hosted.css')),
            seen.stylesheets.join(', '),
          ).toBe(true);
          expect(seen.inlineStyles).toBe(0);
          expect(seen.bodyFont).toContain('Source Sans Pro');
          expect(seen.bodyBackground).toBe('rgb(246, 247, 251)');
          expect(seen.panelBackground).toBe('rgb(255, 255, 255)');
          expect(seen.panelPadding).toBe('24px');
          expect([seen.approveBackground, seen.approveColor]).toEqual(['rgb(142, 192, 63)', 'rgb(255, 255, 255)']);
          // The buttons span the panel, as the card form's Pay button does.
          expect(seen.approveWidth!).toBeGreaterThan(seen.panelWidth! - 60);
          expect(seen.banner).toContain(brandId === 4010 ? 'no real wallet is involved' : 'no real bank is involved');
          expect(seen.amount).toBe('24.95 EUR');
          expect(seen.scrollWidth, `page ${seen.scrollWidth} px wide in ${seen.innerWidth} px`).toBeLessThanOrEqual(seen.innerWidth);
          await page.screenshot({ path: join(artifactsDir(), `${file}-${width}.png`), fullPage: true });

          await page.click('#pl-fail');
          await page.waitForFunction(() => document.body.getAttribute('data-paylink-state') === 'result');
          expect(await page.textContent('#pl-title')).toContain(`${name}: payment not completed`);
          expect(await page.textContent('#pl-message')).toContain('result -2');
          const settled = await looks(page);
          expect(settled.scrollWidth).toBeLessThanOrEqual(settled.innerWidth);
          await page.screenshot({ path: join(artifactsDir(), `${file}-settled-${width}.png`), fullPage: true });
        } finally {
          await context.close();
        }
        const read = await sb.get(`/gateway/v3/payments/${payment.id}?businessId=${BIZ}`);
        expect([read.body.result, read.body.body.error.code]).toEqual([-2, 3006]);
      });
    }
  }
});
