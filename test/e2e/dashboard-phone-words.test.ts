/**
 * Issue 31, item 17: on a phone the dashboard's detail values broke mid-word (`word-break: break-all`): a
 * value wraps between words, and only a word longer than the line (an id, a URL) is cut.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
let browser: Browser;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.runIf(hasChromium)('the dashboard on a phone', () => {
  it('wraps detail values between words, never cutting a word that fits on a line', async () => {
    const declined = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: 'phone-words' },
      body: {
        transaction: { amount: 1234567.5, currencyCode: 'EUR', trackingCode: uniqueCode('words') },
        card: { number: '4000000000000002', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Augusta Ada King Countess of Lovelace' },
      },
    });
    const id = declined.body.body.id as string;
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      await page.goto(`${sb.url}/__sandbox/dashboard/payments/${id}`);
      expect(await page.textContent('.fields')).toContain('1,234,567.50 EUR');
      const cut = await page.evaluate(() => {
        const found: string[] = [];
        for (const dd of Array.from(document.querySelectorAll('.fields dd'))) {
          const width = dd.getBoundingClientRect().width;
          const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? '';
            const re = /\S+/g;
            for (let m = re.exec(text); m; m = re.exec(text)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
              const wide = rects.reduce((sum, r) => sum + r.width, 0);
              if (rects.length > 1 && wide < width) found.push(m[0]);
            }
          }
        }
        return found;
      });
      expect(cut, `words cut at a line's end: ${cut.join(', ')}`).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
