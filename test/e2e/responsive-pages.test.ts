/**
 * The hosted page, its 3-D Secure page, the dashboard and the request log in real Chromium at 1280 and
 * 390 px (issue 15, items 8 and 9): no horizontal overflow, every test-card group shown in full, only
 * cards of the brands the link accepts. Screenshots of each page at each width go to test-artifacts/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../src/sandbox/domain/test-cards.js';
import { artifactsDir, hasChromium, launchChromium } from '../helpers/browser.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const WIDTHS = [1280, 390] as const;
let browser: Browser;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function createLink(brandIds: number[]): Promise<string> {
  const created = await sb.post('/gateway/v3/paymentlinks', {
    header: { businessId: 'responsive' },
    body: {
      transaction: { amount: 12.5, currencyCode: 'EUR', trackingCode: `resp-${Date.now()}-${Math.random()}` },
      link: { brandIds, returnUrl: 'http://127.0.0.1:9/return' },
    },
  });
  return created.body.body.link.linkId as string;
}

/** The page is no wider than the viewport (nothing to scroll sideways). */
async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(scroll, `${what}: page ${scroll} px wide in a ${inner} px viewport`).toBeLessThanOrEqual(inner);
}

describe.runIf(hasChromium)('pages at 1280 and 390 px', () => {
  for (const width of WIDTHS) {
    it(`shows every test-card group in full, only accepted brands, on the hosted page and none on the 3-D Secure page at ${width} px`, async () => {
      const id = await createLink([1010, 1020]);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${id}`);
        await expectNoHorizontalOverflow(page, 'hosted page');
        // The sandbox badge starts closed at every width (test/e2e/sandbox-badge.test.ts); opened, it shows every group.
        const open = await page.evaluate(() => (document.getElementById('pl-banner') as HTMLDetailsElement).open);
        expect(open).toBe(false);
        await page.click('#pl-banner summary');
        const groups = page.locator('#pl-banner .pl-card-group');
        expect(await groups.evaluateAll((els) => els.map((el) => el.getAttribute('data-group')))).toEqual(['approved', 'declined', 'failed', '3ds']);
        for (const group of await groups.all()) {
          expect(await group.isVisible()).toBe(true);
          // Nothing clipped or scrolled away inside a group: every card button shows.
          for (const card of await group.locator('.pl-card-pick').all()) expect(await card.isVisible()).toBe(true);
          const clipped = await group.evaluate((el) =>
            [el, ...Array.from(el.querySelectorAll('*'))].some(
              (node) => node.scrollHeight > node.clientHeight + 1 && getComputedStyle(node).overflowY !== 'visible',
            ),
          );
          expect(clipped).toBe(false);
        }
        const offered = await page.locator('.pl-card-pick').evaluateAll((els) => els.map((el) => el.getAttribute('data-number')));
        const brandOf = new Map(TEST_CARDS.map((c) => [c.number, c.brandId]));
        expect(offered.every((n) => [1010, 1020].includes(brandOf.get(n!)!))).toBe(true);
        expect(offered).toContain('4000000000000002');
        expect(offered).toContain('4000000000003220');
        expect(offered).not.toContain('378282246310005');
        await page.screenshot({ path: join(artifactsDir(), `hosted-page-${width}.png`), fullPage: true });

        await page.click('.pl-card-pick[data-number="4000000000003220"]');
        await page.click('#pl-pay');
        await page.waitForFunction(() => document.body.getAttribute('data-paylink-state') === 'challenge');
        await expectNoHorizontalOverflow(page, '3-D Secure page');
        expect(await page.locator('.pl-card-pick').count()).toBe(0);
        expect(await page.locator('#pl-banner').textContent()).toContain('no real card is ever charged');
        await page.screenshot({ path: join(artifactsDir(), `3ds-page-${width}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    });
  }

  it('offers the outcome cards of a MasterCard-only link in MasterCard', async () => {
    const id = await createLink([1020]);
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    const numbers = (group: string) =>
      page.locator(`[data-group="${group}"] .pl-card-pick`).evaluateAll((els) => els.map((el) => el.getAttribute('data-number')));
    try {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${id}`);
      expect(await numbers('approved')).toEqual(['5555555555554444']);
      expect(await numbers('declined')).toEqual(['5100000000000008']);
      expect(await numbers('failed')).toEqual(['5100000000000115']);
      expect(await numbers('3ds')).toEqual(['5200000000003225']);
      await expectNoHorizontalOverflow(page, 'hosted page');
    } finally {
      await context.close();
    }
  });

  it('says which brand an outcome group needs when the link accepts none of its cards', async () => {
    const id = await createLink([1090]);
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${sb.url}/gateway/v3/web/paymentlinks/${id}`);
      expect(await page.locator('[data-group="approved"] .pl-card-pick').evaluateAll((els) => els.map((el) => el.getAttribute('data-number')))).toEqual([
        '3566002020360505',
      ]);
      // JCB has the common outcomes (approved, declined, 3-D Secure), not the failure cards.
      expect(await page.locator('[data-group="declined"] .pl-card-pick').evaluateAll((els) => els.map((el) => el.getAttribute('data-number')))).toEqual([
        '3566000000000000',
      ]);
      expect(await page.locator('[data-group="failed"]').textContent()).toContain(
        'No failed test card in a brand this page accepts (they are VISA, MasterCard, American Express)',
      );
      await expectNoHorizontalOverflow(page, 'hosted page');
    } finally {
      await context.close();
    }
  });

  for (const width of WIDTHS) {
    it(`fits the dashboard and the request log into ${width} px`, async () => {
      await createLink([1010]);
      await sb.post('/gateway/v3/tokens', {
        header: { businessId: 'responsive' },
        body: { card: { number: '4111111111111111', expiryMonth: '12', expiryYear: '2031', holderName: 'Ada' } },
      });
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      try {
        await page.goto(`${sb.url}/`);
        await expectNoHorizontalOverflow(page, 'dashboard');
        for (const link of await page.locator('nav a').all()) expect(await link.isVisible()).toBe(true);
        // Ids and times stay on one line; times are short, the full time on hover; the clock's reset says what it does.
        const firstRow = page.locator('#links tbody tr').first();
        const lineHeights = await firstRow.locator('td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().height));
        if (width === 1280) expect(Math.max(...lineHeights)).toBeLessThan(36);
        const created = firstRow.locator('td').nth(5).locator('span');
        expect(await created.textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
        expect(await created.getAttribute('title')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(await page.locator('[data-testid="clock-reset"]').textContent()).toBe('Back to wall clock');
        expect(await page.locator('#tokens tbody tr').first().locator('td').nth(3).textContent()).toBe('VISA');
        await page.screenshot({ path: join(artifactsDir(), `dashboard-${width}.png`), fullPage: true });
        await page.goto(`${sb.url}/__sandbox/dashboard/requests`);
        await expectNoHorizontalOverflow(page, 'request log');
        await page.screenshot({ path: join(artifactsDir(), `request-log-${width}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    });
  }
});
