/**
 * The dashboard in real Chromium: seeded with the example fixtures, a person finds the paid link on the
 * overview, opens its detail, creates a new link like it and pays that one as the customer. Screenshots go
 * to test-artifacts/ for a person to look at.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium, launchChromium } from '../helpers/browser.js';
import { useSandbox } from '../helpers/sandbox.js';
import { loadFixtures } from '../../src/cli/seed/load.js';

const sb = useSandbox({ adminToken: 'e2e-dashboard-token' });
const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;
let browser: Browser;
let ids: Record<string, string>;

beforeAll(async () => {
  const loaded = await loadFixtures([`${FIXTURES}paid-link.json`, `${FIXTURES}declined-link.json`, `${FIXTURES}tokenized-checkout.json`], {
    connection: { baseUrl: sb.url, businessId: 'e2e' },
    admin: { baseUrl: sb.url, adminToken: 'e2e-dashboard-token' },
    env: {},
  });
  ids = loaded.ids;
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe.runIf(hasChromium)('dashboard in Chromium', () => {
  it('finds the paid link, opens its detail, and pays a new link made from it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      // The token from the start-up banner becomes a cookie; the address loses it.
      await page.goto(`${sb.url}/?token=e2e-dashboard-token`);
      expect(new URL(page.url()).search).toBe('');
      await page.screenshot({ path: join(artifactsDir(), 'dashboard-overview.png'), fullPage: true });

      const paidRow = page.locator('#links tr', { has: page.locator('[data-state="PAID"]') });
      await expect.poll(() => paidRow.count()).toBe(1);
      await paidRow.locator('a').first().click();
      await page.waitForURL(`**/__sandbox/dashboard/links/${ids.paid_link}`);
      expect(await page.locator('[data-testid="detail-title"] [data-state]').getAttribute('data-state')).toBe('PAID');
      expect(await page.locator('#attempts tbody tr').count()).toBe(1);
      expect(await page.locator('#attempts').textContent()).toContain(ids.paid_link_payment);
      expect(await page.locator('[data-testid="pay-form"]').count()).toBe(0);
      await page.screenshot({ path: join(artifactsDir(), 'dashboard-paid-link.png'), fullPage: true });

      await page.locator('[data-testid="copy-link"]').click();
      await page.waitForURL(/\/__sandbox\/dashboard\/links\/[0-9a-f-]{36}\?done=copied$/);
      const newId = /links\/([0-9a-f-]{36})/.exec(page.url())![1]!;
      expect(newId).not.toBe(ids.paid_link);
      expect(await page.locator('[data-testid="detail-title"] [data-state]').getAttribute('data-state')).toBe('READY');
      expect(await page.locator('[data-testid="open-hosted"]').getAttribute('href')).toBe(`/gateway/v3/web/paymentlinks/${newId}`);

      await page.locator('[data-testid="outcome"]').selectOption('approved');
      await page.locator('[data-testid="pay"]').click();
      await page.waitForURL(/done=paid/);
      expect(await page.locator('[role="status"]').textContent()).toContain('Paid as the customer with outcome "approved": now PAID.');
      expect(await page.locator('[data-testid="detail-title"] [data-state]').getAttribute('data-state')).toBe('PAID');
      await page.screenshot({ path: join(artifactsDir(), 'dashboard-new-link-paid.png'), fullPage: true });

      const api = await sb.get(`/gateway/v3/paymentlinks/${newId}?businessId=sandbox-business`);
      expect(api.body.body.link.status).toBe('PAID');
      expect(api.body.body.payments).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it('opens the hosted page of an open link from its detail and shows the request log', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${sb.url}/?token=e2e-dashboard-token`);
      await page.goto(`${sb.url}/__sandbox/dashboard/requests`);
      expect(await page.locator('#requests tbody tr[data-seq]').count()).toBeGreaterThan(3);
      expect(await page.content()).not.toContain('4111111111111111');
      await page.screenshot({ path: join(artifactsDir(), 'dashboard-request-log.png'), fullPage: true });

      const link = await sb.post('/gateway/v3/paymentlinks', {
        header: { businessId: 'e2e' },
        body: {
          transaction: { amount: 3, currencyCode: 'EUR', trackingCode: `e2e-open-${Date.now()}` },
          link: { brandIds: [1010], returnUrl: 'https://merchant.example/r' },
        },
      });
      const linkId = link.body.body.link.linkId as string;
      await page.goto(`${sb.url}/__sandbox/dashboard/links/${linkId}`);
      const [hosted] = await Promise.all([context.waitForEvent('page'), page.locator('[data-testid="open-hosted"]').click()]);
      await hosted.waitForLoadState();
      expect(await hosted.locator('body').getAttribute('data-paylink-state')).toBe('form');
    } finally {
      await context.close();
    }
  });
});
