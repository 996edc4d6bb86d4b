/**
 * Issue 31, items 3, 4 and 17 in real Chromium: the sandbox badge keeps the card form in view (Pay visible at
 * 1280x800 and inside the library's default 780 px iframe; the card number three Tabs away; its card list
 * opens over the page and stays as the customer left it after a declined attempt); on phones the expiry
 * month, year and CVV boxes line up when their labels wrap; the card number is spaced as typed, American
 * Express 4-6-5.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { merchantPage, startSite, type LocalSite } from './library-helpers.js';

const sb = useSandbox();
let browser: Browser;
let shop: LocalSite;

beforeAll(async () => {
  if (!hasChromium) return;
  [browser, shop] = await Promise.all([launchChromium(), startSite()]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

async function createLink(brandIds = [1010, 1020, 1030]): Promise<string> {
  const created = await sb.post('/gateway/v3/paymentlinks', {
    header: { businessId: 'badge' },
    body: {
      transaction: { amount: 1234567.5, currencyCode: 'EUR', trackingCode: uniqueCode('badge') },
      link: { brandIds, returnUrl: 'http://127.0.0.1:9/return' },
    },
  });
  expect(created.body.result, created.text).toBe(0);
  return created.body.body.link.linkId as string;
}

async function withPage<T>(viewport: { width: number; height: number }, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport });
  try {
    return await run(await context.newPage());
  } finally {
    await context.close();
  }
}

/** The hosted page inside the library's iframe on a merchant page (`.box` styled by `boxCss`). */
async function framedPage(page: Page, linkId: string, boxCss = ''): Promise<Frame> {
  const path = `/pay-${linkId}`;
  shop.pages.set(path, merchantPage(sb.url, `new PaymentLink(${JSON.stringify(linkId)}, 'link').render();`).replace('</style>', `${boxCss}</style>`));
  await page.goto(shop.url + path);
  await expect.poll(() => page.frames().some((f) => f.url().includes('/gateway/v3/web/'))).toBe(true);
  const frame = page.frames().find((f) => f.url().includes('/gateway/v3/web/'))!;
  await frame.waitForSelector('#pl-pay', { state: 'visible' });
  return frame;
}

/** Where Pay's bottom edge is, and the height of the window it is drawn in. */
function payPlace(target: Page | Frame): Promise<{ bottom: number; viewport: number }> {
  return target.evaluate(() => ({ bottom: document.getElementById('pl-pay')!.getBoundingClientRect().bottom, viewport: window.innerHeight }));
}

const isOpen = (page: Page) => page.evaluate(() => (document.getElementById('pl-banner') as HTMLDetailsElement).open);

describe.runIf(hasChromium)('the sandbox badge', () => {
  it('shows the whole form with Pay in the viewport at 1280x800, the card list closed until asked for', async () => {
    await withPage({ width: 1280, height: 800 }, async (page) => {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${await createLink()}`);
      expect(await isOpen(page)).toBe(false);
      const place = await payPlace(page);
      expect(place.bottom, `Pay ends at y=${place.bottom} in an 800 px viewport`).toBeLessThanOrEqual(place.viewport);
      // Opened, the list lies over the page: the form does not move down.
      const formTop = () => page.evaluate(() => document.getElementById('pl-card-form')!.getBoundingClientRect().top);
      const before = await formTop();
      await page.click('#pl-banner summary');
      expect(await page.locator('[data-group="declined"] .pl-card-pick').first().isVisible()).toBe(true);
      expect(await formTop()).toBe(before);
    });
  });

  it('shows Pay inside the library iframe at its default 780 px height', async () => {
    await withPage({ width: 1280, height: 900 }, async (page) => {
      // A wide embed, where the old banner stayed open above the form.
      const frame = await framedPage(page, await createLink(), ' .box { width: 900px; }');
      const place = await payPlace(frame);
      expect(place.viewport).toBe(780);
      expect(place.bottom, `Pay ends at y=${place.bottom} in the 780 px iframe`).toBeLessThanOrEqual(place.viewport);
    });
  });

  it('reaches the card number in three Tab presses or fewer, with a skip link first', async () => {
    await withPage({ width: 1280, height: 800 }, async (page) => {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${await createLink()}`);
      const focused: string[] = [];
      for (let i = 0; i < 3 && focused[focused.length - 1] !== 'pl-cardNumber'; i++) {
        await page.keyboard.press('Tab');
        focused.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.className || ''));
      }
      expect(focused[focused.length - 1], focused.join(' -> ')).toBe('pl-cardNumber');
      expect(focused[0]).toBe('pl-skip');
    });
  });

  it('remembers the card list open or closed after a declined attempt', async () => {
    await withPage({ width: 1280, height: 800 }, async (page) => {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${await createLink()}`);
      const declineOnce = async () => {
        await page.fill('#pl-cardNumber', '4000000000000002');
        await page.fill('#pl-expiryMonth', '12');
        await page.fill('#pl-expiryYear', String(new Date().getUTCFullYear() + 3));
        await page.fill('#pl-cvv', '123');
        await page.fill('#pl-holderName', 'Test Customer');
        await Promise.all([page.waitForNavigation(), page.press('#pl-holderName', 'Enter')]);
        expect(await page.textContent('#pl-alert')).toMatch(/not approved/);
      };
      await page.click('#pl-banner summary');
      await declineOnce();
      expect(await isOpen(page)).toBe(true);
      await page.click('#pl-banner summary');
      await declineOnce();
      expect(await isOpen(page)).toBe(false);
    });
  });
});

describe.runIf(hasChromium)('the expiry and CVV boxes on phones', () => {
  const tops = (target: Page | Frame) =>
    target.evaluate(() => ['pl-expiryMonth', 'pl-expiryYear', 'pl-cvv'].map((id) => Math.round(document.getElementById(id)!.getBoundingClientRect().top)));

  it('lines up month, year and CVV on a 360 px page', async () => {
    await withPage({ width: 360, height: 740 }, async (page) => {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${await createLink()}`);
      const [month, year, cvv] = await tops(page);
      expect([year, cvv]).toEqual([month, month]);
    });
  });

  it('lines up month, year and CVV in the iframe on a 390 px phone', async () => {
    await withPage({ width: 390, height: 844 }, async (page) => {
      const frame = await framedPage(page, await createLink(), ' .box { width: 100%; }');
      const [month, year, cvv] = await tops(frame);
      expect([year, cvv]).toEqual([month, month]);
    });
  });
});

describe.runIf(hasChromium)('the card number as typed', () => {
  it('spaces a card number as it is typed, American Express 4-6-5 and others in fours', async () => {
    await withPage({ width: 1280, height: 800 }, async (page) => {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${await createLink()}`);
      await page.locator('#pl-cardNumber').pressSequentially('378282246310005');
      expect(await page.inputValue('#pl-cardNumber')).toBe('3782 822463 10005');
      await page.fill('#pl-cardNumber', '');
      await page.locator('#pl-cardNumber').pressSequentially('4111111111111111');
      expect(await page.inputValue('#pl-cardNumber')).toBe('4111 1111 1111 1111');
      // The badge shows American Express numbers as they are printed.
      await page.click('#pl-banner summary');
      expect(await page.textContent('.pl-card-pick[data-number="378282246310005"] code')).toBe('3782 822463 10005');
    });
  });
});
