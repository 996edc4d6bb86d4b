/**
 * The pages on a phone, 390 px wide, in real Chromium (issue 23, item 14): the test-card banner starts
 * collapsed on one line that says how to open it, so the card form is near the top; every text colour meets
 * WCAG AA (4.5:1 against the background it is drawn on, computed from the page's own styles) except the
 * Pay button's documented defaults (#ffffff on #8ec03f, which merchants restyle); dashboard tables keep
 * each row's id and status inside the viewport. Screenshots go to test-artifacts/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium, launchChromium } from '../helpers/browser.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'phone';
const PHONE = { width: 390, height: 844 };
let browser: Browser;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function createLink(): Promise<string> {
  const created = await sb.post('/gateway/v3/paymentlinks', {
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 12.5, currencyCode: 'EUR', trackingCode: uniqueCode('phone') },
      link: { brandIds: [1010, 1020], returnUrl: 'http://127.0.0.1:9/return' },
    },
  });
  return created.body.body.link.linkId as string;
}

async function createBankPayment(brandId: number): Promise<string> {
  const res = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: BIZ },
    body: { transaction: { amount: 24.95, currencyCode: 'EUR', brandId, trackingCode: uniqueCode('phone-bank') }, ...(brandId === 4010 ? {} : { bank: {} }) },
  });
  return res.body.body.redirect.url as string;
}

interface LowContrast {
  what: string;
  text: string;
  color: string;
  background: string;
  ratio: number;
}

/**
 * Every visible element with text of its own (and every input's placeholder): its text colour against the
 * background it is drawn on (the nearest backgrounds up the tree, composited), with the WCAG 2 contrast ratio.
 * Returns the ones under 4.5:1, except the Pay button drawn in the library's documented defaults.
 */
async function lowContrast(page: Page): Promise<LowContrast[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba => {
      const m = /rgba?\(([^)]+)\)/.exec(value);
      if (!m) return [0, 0, 0, 0];
      const parts = m[1]!
        .split(/[,\s/]+/)
        .filter(Boolean)
        .map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts.length > 3 ? parts[3]! : 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const backgroundOf = (el: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let node: Element | null = el; node; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor));
      let color: Rgba = [255, 255, 255, 1]; // the canvas
      for (const layer of layers.reverse()) color = over(layer, color);
      return color;
    };
    const luminance = ([r, g, b]: Rgba) => {
      const lin = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (a: Rgba, b: Rgba) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    const css = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return (
        style.visibility === 'visible' &&
        style.display !== 'none' &&
        box.width > 1 &&
        box.height > 1 &&
        el.closest('details:not([open]) > :not(summary)') === null
      );
    };
    const found: Array<{ what: string; text: string; color: string; background: string; ratio: number }> = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (['SCRIPT', 'STYLE', 'OPTION'].includes(el.tagName) || !visible(el)) continue;
      const ownText = Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      const checks: Array<{ text: string; color: Rgba }> = [];
      if (ownText) checks.push({ text: ownText, color: parse(getComputedStyle(el).color) });
      if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.placeholder && !el.value) {
        checks.push({ text: `placeholder "${el.placeholder}"`, color: parse(getComputedStyle(el, '::placeholder').color) });
      }
      for (const check of checks) {
        const background = backgroundOf(el);
        const fg = over(check.color, background);
        const value = ratio(fg, background);
        // The Pay button in the library's documented defaults (paymentButtonStyles): kept on purpose.
        const payDefaults = el.closest('.pl-pay') !== null && css(fg) === 'rgb(255, 255, 255)' && css(background) === 'rgb(142, 192, 63)';
        if (value < 4.5 && !payDefaults)
          found.push({ what: describe(el), text: check.text.slice(0, 40), color: css(fg), background: css(background), ratio: Math.round(value * 100) / 100 });
      }
    }
    return found;
  });
}

async function expectReadable(page: Page, what: string): Promise<void> {
  const low = await lowContrast(page);
  expect(low, `${what}: text under 4.5:1\n${low.map((l) => `  ${l.what} "${l.text}" ${l.color} on ${l.background}: ${l.ratio}:1`).join('\n')}`).toEqual([]);
}

describe.runIf(hasChromium)('the pages on a phone (390 px)', () => {
  it('starts the test-card banner collapsed on one line that says how to open it, with the card form near the top', async () => {
    const id = await createLink();
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${id}`);
      const formTop = await page.evaluate(() => document.querySelector('#pl-card-form')!.getBoundingClientRect().top + window.scrollY);
      expect(formTop, `the card form starts ${formTop} px down`).toBeLessThan(400);
      expect(await page.evaluate(() => (document.querySelector('#pl-banner') as HTMLDetailsElement).open)).toBe(false);
      const summary = page.locator('#pl-banner summary');
      const line = await summary.evaluate((el) => ({
        height: el.getBoundingClientRect().height,
        lineHeight: parseFloat(getComputedStyle(el).lineHeight),
        text: (el as HTMLElement).innerText,
      }));
      expect(line.height, `summary ${line.height} px high, line height ${line.lineHeight}`).toBeLessThan(line.lineHeight * 1.5);
      expect(line.text).toMatch(/tap to show/i);
      expect(await page.locator('.pl-card-pick').first().isVisible()).toBe(false);
      await page.screenshot({ path: join(artifactsDir(), 'phone-hosted-collapsed.png'), fullPage: true });

      // Opening it shows every group, and the summary then says how to close it.
      await summary.click();
      expect(await page.locator('[data-group="declined"] .pl-card-pick').first().isVisible()).toBe(true);
      expect(await summary.evaluate((el) => (el as HTMLElement).innerText)).toMatch(/tap to hide/i);
      await page.screenshot({ path: join(artifactsDir(), 'phone-hosted-open.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('draws every text colour at 4.5:1 or more on the hosted pages, except the Pay button in its documented defaults', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${await createLink()}`);
      await page.click('#pl-banner summary');
      await expectReadable(page, 'card form, banner open');
      // The open card list lies over the form: close it to reach the fields.
      await page.click('#pl-banner summary');
      // Inline errors in their colour, and a failed attempt's alert.
      await page.fill('#pl-cardNumber', '4111 1111 1111 1112');
      await page.fill('#pl-expiryMonth', '13');
      await page.click('#pl-pay');
      await expect.poll(() => page.locator('#pl-error-cardNumber').textContent()).not.toBe('');
      await expectReadable(page, 'card form with inline errors');
      await page.screenshot({ path: join(artifactsDir(), 'phone-hosted-errors.png'), fullPage: true });

      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${await createLink()}`);
      await page.click('#pl-banner summary');
      await page.click('.pl-card-pick[data-number="4000000000003220"]');
      await page.click('#pl-pay');
      await page.waitForFunction(() => document.body.getAttribute('data-paylink-state') === 'challenge');
      await expectReadable(page, '3-D Secure page');

      const declined = await createLink();
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${declined}`);
      await page.click('#pl-decline');
      await page.waitForURL(/127\.0\.0\.1:9|chrome-error/).catch(() => undefined);
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${declined}`);
      expect(await page.getAttribute('body', 'data-paylink-state')).toBe('declinedbycustomer');
      await expectReadable(page, 'declined page');
      await page.screenshot({ path: join(artifactsDir(), 'phone-hosted-declined.png'), fullPage: true });

      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/no-such-link`);
      await expectReadable(page, 'not-found page');

      for (const brandId of [3010, 4010]) {
        await page.goto(await createBankPayment(brandId));
        await expectReadable(page, `simulator page of brand ${brandId}`);
        await page.click('#pl-cancel');
        await page.waitForFunction(() => document.body.getAttribute('data-paylink-state') === 'result');
        await expectReadable(page, `settled simulator page of brand ${brandId}`);
      }
    } finally {
      await context.close();
    }
  });

  it('keeps the id and the status of every dashboard table row inside the viewport, readable', async () => {
    await createLink();
    await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 7, currencyCode: 'EUR', trackingCode: uniqueCode('phone-pay') },
        card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2031', holderName: 'Ada' },
      },
    });
    await sb.post('/gateway/v3/tokens', {
      header: { businessId: BIZ },
      body: { card: { number: '4111111111111111', expiryMonth: '12', expiryYear: '2031', holderName: 'Ada' } },
    });
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    try {
      for (const path of ['/', '/__sandbox/dashboard/links', '/__sandbox/dashboard/payments', '/__sandbox/dashboard/tokens', '/__sandbox/dashboard/requests']) {
        await page.goto(`${sb.url}${path}`);
        const outside = await page.evaluate(() => {
          const width = window.innerWidth;
          const problems: string[] = [];
          let checked = 0;
          for (const table of Array.from(document.querySelectorAll('table'))) {
            const headers = Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent!.trim().toLowerCase());
            const statusAt = headers.findIndex((h) => ['status', 'state', 'result'].includes(h));
            for (const row of Array.from(table.querySelectorAll('tbody tr'))) {
              const cells = Array.from(row.children);
              if (cells.length !== headers.length) continue; // an empty-table note or a request's bodies
              const wanted = [0, ...(statusAt >= 0 ? [statusAt] : [])];
              for (const index of wanted) {
                const cell = cells[index]!;
                const content = (cell.firstElementChild ?? cell).getBoundingClientRect();
                checked++;
                if (content.left < 0 || content.right > width + 0.5 || content.width < 1) {
                  problems.push(
                    `${table.closest('section')?.id ?? 'table'} "${headers[index]}" cell "${cell.textContent!.trim().slice(0, 20)}" spans ${Math.round(content.left)}-${Math.round(content.right)} px`,
                  );
                }
              }
            }
          }
          return { problems, checked };
        });
        expect(outside.checked, `${path}: rows checked`).toBeGreaterThan(0);
        expect(outside.problems, `${path} at 390 px`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
        await expectReadable(page, `dashboard ${path}`);
        await page.screenshot({ path: join(artifactsDir(), `phone-dashboard${path === '/' ? '' : path.replace(/\//g, '-')}.png`), fullPage: true });
      }
    } finally {
      await context.close();
    }
  });
});
