/**
 * Issue 30's browser "Done when": real Chromium launched with only the options `paylink env` names (the
 * proxy and paylink's authority pin) opens a payment link at the provider's own page address, pays on it
 * and comes back to the shop's returnUrl on loopback; a checkout's page at the provider's API host too.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium as playwright, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authorityFiles } from '../../src/sandbox/drop-in/authority.js';
import { dropInEnv } from '../../src/cli/commands/env.js';
import { chromiumPath, hasChromium } from '../helpers/browser.js';
import { fetchThrough } from '../helpers/proxy-client.js';

const STAGING = 'https://stagconnect.acehubpaymentservices.com';

describe.skipIf(!hasChromium)("Chromium through the proxy, at the provider's addresses", () => {
  let dir: string;
  let running: RunningSandbox;
  let browser: Browser;
  let shop: Server;
  let shopUrl: string;
  const returns: string[] = [];
  let ca: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paylink-drop-in-browser-'));
    running = await startSandbox({ port: 0, db: ':memory:', proxy: 0, authority: authorityFiles({ XDG_CONFIG_HOME: dir }) });
    ca = readFileSync(running.authorityFile!, 'utf8');
    shop = createServer((req, res) => {
      returns.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Thank you</h1>');
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as { port: number }).port}`;
    const env = dropInEnv({ url: running.url, proxy: running.proxyUrl, authority: running.authorityFile }, {});
    browser = await playwright.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
        '--no-first-run',
        ...env.chromium.args,
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function pay(url: string, expectedHost: string): Promise<URLSearchParams> {
    const page = await browser.newPage();
    try {
      await page.goto(url);
      expect(new URL(page.url()).host).toBe(expectedHost);
      await page.fill('#pl-cardNumber', '4111111111111111');
      await page.fill('#pl-expiryMonth', '12');
      await page.fill('#pl-expiryYear', String(new Date().getUTCFullYear() + 3));
      await page.fill('#pl-cvv', '123');
      await page.fill('#pl-holderName', 'Ada Lovelace');
      await Promise.all([page.waitForURL(`${shopUrl}/return**`), page.click('#pl-pay')]);
      expect(await page.textContent('h1')).toBe('Thank you');
      return new URL(page.url()).searchParams;
    } finally {
      await page.close();
    }
  }

  it('pays a payment link on stag.checkout-web.dta.payvision.app and returns to the shop', async () => {
    const created = await fetchThrough(running.proxyUrl!, ca, `${STAGING}/gateway/v3/paymentlinks`, {
      body: {
        header: { businessId: 'browser-shop' },
        body: {
          transaction: { amount: 7, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: `browser-${Date.now()}` },
          link: { duration: 'P1D', brandIds: [1010], returnUrl: `${shopUrl}/return` },
        },
      },
    });
    const link = created.body.body.link;
    expect(link.redirect.url).toBe(`https://stag.checkout-web.dta.payvision.app/paymentlinks/${link.linkId}`);
    const back = await pay(link.redirect.url, 'stag.checkout-web.dta.payvision.app');
    expect(back.get('linkId')).toBe(link.linkId);
    expect(returns.some((r) => r.includes(`linkId=${link.linkId}`))).toBe(true);
    const read = await fetchThrough(running.proxyUrl!, ca, `${STAGING}/gateway/v3/paymentlinks/${link.linkId}?businessId=browser-shop`);
    expect(read.body.body.link.status).toBe('PAID');
  });

  it('pays a checkout on its page at the staging host, as the library targets it', async () => {
    const created = await fetchThrough(running.proxyUrl!, ca, `${STAGING}/gateway/v3/checkouts`, {
      body: {
        header: { businessId: 'browser-shop' },
        body: {
          transaction: { amount: 9, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: `browser-co-${Date.now()}` },
          checkout: { brandIds: [1010], returnUrl: `${shopUrl}/return`, tokenize: 'false' },
        },
      },
    });
    const checkout = created.body.body.checkout;
    expect(checkout.redirect.url).toBe(`${STAGING}/gateway/v3/web/checkouts/${checkout.checkoutId}`);
    const back = await pay(checkout.redirect.url, 'stagconnect.acehubpaymentservices.com');
    expect(back.get('checkoutId')).toBe(checkout.checkoutId);
  });
});
