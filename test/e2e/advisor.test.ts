/**
 * trusts-the-redirect with a real browser and a real merchant: Chromium pays on the hosted page and follows
 * the 303 to the merchant's return page. One shop marks the order from the query string; the other reads
 * the link's status from the API first. The advisor finds the first and not the second, and the dashboard's
 * Advisor page shows the finding with a link to its evidence in the request log.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const YEAR = String(new Date().getUTCFullYear() + 3);

/** A shop whose `/return` either trusts the query string or asks the API (`careful`) before answering. */
async function shop(businessId: string, careful: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop.local');
    void (async () => {
      let paid = url.searchParams.has('id');
      if (careful) {
        const status = await sb.get(`/gateway/v3/paymentlinks/${encodeURIComponent(url.searchParams.get('linkId') ?? '')}?businessId=${businessId}`);
        paid = status.body?.body?.link?.status === 'PAID';
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>shop</title><h1 id="shop">${paid ? 'Order paid' : 'Not paid'}</h1>`);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.skipIf(!hasChromium)('trusts-the-redirect in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function payLink(businessId: string, returnUrl: string): Promise<{ linkId: string; page: Page }> {
    const created = await sb.post('/gateway/v3/paymentlinks', {
      header: { businessId },
      body: { transaction: { amount: 30, currencyCode: 'EUR', trackingCode: uniqueCode('e2e') }, link: { brandIds: [1010], returnUrl } },
    });
    expect(created.status, created.text).toBe(200);
    const page = await browser.newPage();
    await page.goto(created.body.body.link.redirect.url);
    await page.fill('#pl-cardNumber', '4111111111111111');
    await page.fill('#pl-expiryMonth', '12');
    await page.fill('#pl-expiryYear', YEAR);
    await page.fill('#pl-cvv', '123');
    await page.fill('#pl-holderName', 'Ada Lovelace');
    await Promise.all([page.waitForURL(`${new URL(returnUrl).origin}/return**`), page.click('#pl-pay')]);
    expect(await page.textContent('#shop')).toBe('Order paid');
    return { linkId: created.body.body.link.linkId, page };
  }

  it('finds the shop that marks the order from the query string, not the one that reads the status', async () => {
    const trusting = await shop('e2e-trusting', false);
    const reading = await shop('e2e-reading', true);
    try {
      const trusted = await payLink('e2e-trusting', `${trusting.url}/return`);
      await payLink('e2e-reading', `${reading.url}/return`);
      expect((await sb.post('/__sandbox/clock', { advance: '2m' })).status).toBe(200);

      const findings = async (biz: string) =>
        (await sb.get(`/__sandbox/advice?businessId=${biz}`)).body.body.findings.filter((f: { check: string }) => f.check === 'trusts-the-redirect');
      const [finding, ...more] = await findings('e2e-trusting');
      expect(more).toEqual([]);
      expect(finding.resource).toEqual({ kind: 'link', id: trusted.linkId });
      expect(await findings('e2e-reading')).toEqual([]);

      // The Advisor page shows it, and its evidence leads to the request in the log.
      const page = trusted.page;
      await page.goto(`${sb.url}/__sandbox/dashboard/advisor?businessId=e2e-trusting`);
      const row = page.locator('tr[data-check="trusts-the-redirect"][data-severity="error"]');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toContain('never read the link');
      await row.locator('summary').click();
      const seq = await row.locator('a[data-seq]').getAttribute('data-seq');
      await Promise.all([page.waitForURL('**/__sandbox/dashboard/requests**'), row.locator('a[data-seq]').click()]);
      expect(await page.locator(`tr[data-seq="${seq}"]`).textContent()).toContain(`/gateway/v3/web/paymentlinks/${trusted.linkId}`);
    } finally {
      await trusting.close();
      await reading.close();
    }
  });
});
