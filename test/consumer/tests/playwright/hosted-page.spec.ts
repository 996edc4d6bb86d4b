// Paying as the customer with Playwright Test: on the hosted page, and inside the browser library's iframe
// on the merchant's own page, for approved, declined, 3-D Secure and save-card outcomes.
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { createTestSandbox, payOnHostedPage, type TestSandbox } from 'paylink/testing';

let sandbox: TestSandbox;
let shop: Server;
let shopUrl: string;
let checkoutPage = '';
// The library version the sandbox serves is paylink's own.
const { version } = createRequire(import.meta.url)('paylink/package.json') as { version: string };

test.beforeAll(async () => {
  sandbox = await createTestSandbox({ businessId: 'shop-playwright' });
  // The merchant: a return page, and a page embedding the form with the sandbox's library.
  shop = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url?.startsWith('/pay') ? checkoutPage : '<!doctype html><title>Thanks</title><h1>Back at the shop</h1>');
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  shop.closeAllConnections();
  shop.close();
  await sandbox.close();
});

async function newLink(tokenize?: 'inquire') {
  const created = await sandbox.api.links.create({
    transaction: { amount: 30, currencyCode: 'EUR', trackingCode: `order-${Date.now()}-${Math.random()}` },
    link: { returnUrl: `${shopUrl}/return`, brandIds: [1010, 1020], ...(tokenize ? { tokenize } : {}) },
  });
  expect(created.result).toBe(0);
  return created.body.link;
}

test('approved on the hosted page', async ({ page }) => {
  const link = await newLink();
  await page.goto(link.redirect.url);
  const result = await payOnHostedPage(page, { outcome: 'approved' });
  expect(result.returned).toBe(true);
  await expect(page).toHaveURL(new RegExp(`linkId=${link.linkId}`));
  expect((await sandbox.api.links.get(link.linkId)).body.link.status).toBe('PAID');
});

test('declined on the hosted page: the form comes back, then the customer declines', async ({ page }) => {
  const link = await newLink();
  await page.goto(link.redirect.url);
  const declined = await payOnHostedPage(page, { outcome: 'declined' });
  expect(declined.returned).toBe(false);
  expect(declined.error).toMatch(/not approved/i);
  expect((await payOnHostedPage(page, { decline: true })).returned).toBe(true);
});

test('3-D Secure inside the library iframe on the merchant page', async ({ page }) => {
  const link = await newLink();
  checkoutPage = `<!doctype html><title>Shop</title><div id="payment-form"></div>
<script src="${sandbox.url}/paymentlink/${version}/paymentlink-library.js"></script>
<script>new PaymentLink(${JSON.stringify(link.linkId)}, 'payment-form').render();</script>`;
  await page.goto(`${shopUrl}/pay`);
  const result = await payOnHostedPage(page, { outcome: '3ds', threeDSecureCode: '1234' });
  expect(result.returned).toBe(true);
  expect(result.url.startsWith(`${shopUrl}/return`)).toBe(true);
});

test('save card inside the library iframe: the payment carries a token', async ({ page }) => {
  const link = await newLink('inquire');
  checkoutPage = `<!doctype html><title>Shop</title><div id="payment-form"></div>
<script src="${sandbox.url}/paymentlink/${version}/paymentlink-library.js"></script>
<script>new PaymentLink(${JSON.stringify(link.linkId)}, 'payment-form').render();</script>`;
  await page.goto(`${shopUrl}/pay`);
  const result = await payOnHostedPage(page, { outcome: 'approved', saveCard: true });
  expect(result.returned).toBe(true);
  const payment = await sandbox.api.payments.get(new URL(result.url).searchParams.get('id')!);
  expect(JSON.stringify(payment.body)).toMatch(/"token":"[^"]+"/);
});
