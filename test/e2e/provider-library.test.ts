/**
 * Compatibility with the provider's own published browser library, `@payvision/checkout-library` 1.0.2
 * (npm, unmodified): a merchant page on its own local origin loads that file and embeds a checkout created
 * through the sandbox's API. The library hard-codes the provider's staging host, so every request Chromium
 * makes to `https://stagconnect.acehubpaymentservices.com` is answered by the sandbox (same method, path,
 * query and body; a Location on the sandbox's own origin is put back on the staging host, as a reverse
 * proxy in front of the sandbox would). Then the customer pays, retries, declines, passes 3-D Secure and
 * saves a card inside the library's iframe, and the merchant page ends on returnUrl.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Frame, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium, launchChromium } from '../helpers/browser.js';
import { checkoutRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const STAGING = 'https://stagconnect.acehubpaymentservices.com';
// The merchant's logo on https: the hosted page is https, so an http logo would be blocked as mixed content.
const LOGO_URL = 'https://cdn.shop.example/logo.svg';
const YEAR = String(new Date().getUTCFullYear() + 3);
const LIBRARY = readFileSync(createRequire(import.meta.url).resolve('@payvision/checkout-library/dist/checkout-library.js'), 'utf8');
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#6c71c4"/><text x="12" y="27" fill="#fff" font-size="20">SHOP</text></svg>';

interface Shop {
  url: string;
  returns: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * The merchant's shop page, as the library's README shows it: a container, the library's script, then
 * `new Checkout(checkoutId, 'checkout-container', options).render()`. Before rendering it starts a log of
 * every message from the staging origin (with the iframe's visibility when it arrived, before the library's
 * own listener runs), each load of the iframe and each change of its visibility; `checkout-error` events
 * go to `window.errors`.
 */
function shopPage(checkoutId: string, options: unknown): string {
  const config = JSON.stringify({ checkoutId, options, staging: STAGING }).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head>
<body style="font-family: sans-serif; margin: 16px">
<h1>Shop checkout</h1>
<div id="checkout-container" style="width: 520px"></div>
<script src="/checkout-library.js"></script>
<script>
  var config = ${config};
  window.log = [];
  window.errors = [];
  document.addEventListener('checkout-error', function (event) { window.errors.push(event.detail); });
  window.addEventListener('message', function (event) {
    if (event.origin !== config.staging) return;
    var frame = document.querySelector('#checkout-container iframe');
    window.log.push({ type: 'message', data: event.data, visibility: frame && frame.style.visibility });
  });
  new Checkout(config.checkoutId, 'checkout-container', config.options).render();
  var frame = document.querySelector('#checkout-container iframe');
  var last = frame.style.visibility;
  frame.addEventListener('load', function () { window.log.push({ type: 'load', visibility: frame.style.visibility }); });
  new MutationObserver(function () {
    if (frame.style.visibility !== last) { last = frame.style.visibility; window.log.push({ type: 'visibility', value: last }); }
  }).observe(frame, { attributes: true, attributeFilter: ['style'] });
</script>
</body></html>`;
}

async function startShop(): Promise<Shop> {
  const returns: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop.local');
    if (url.pathname === '/checkout-library.js') {
      res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8' });
      res.end(LIBRARY);
    } else if (url.pathname === '/shop') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(shopPage(url.searchParams.get('checkoutId') ?? '', JSON.parse(url.searchParams.get('options') ?? '{}')));
    } else if (url.pathname === '/return') {
      returns.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><meta charset="utf-8"><title>Thank you</title><h1 id="merchant">Back at the shop</h1>');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    returns,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding'];

function plainHeaders(entries: Iterable<[string, string]>): Record<string, string> {
  const headers: Record<string, string> = {};
  // Hop-by-hop headers describe the sandbox's connection, not this answer (a chunked 303 with them kept fails).
  for (const [name, value] of entries) if (!HOP_BY_HOP.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  return headers;
}

/** The sandbox URL a Location points at, when it points at the sandbox (or the staging host) at all. */
function sandboxTarget(location: string, base: string): string | null {
  const target = new URL(location, base);
  if (target.origin !== new URL(sb.url).origin && target.origin !== STAGING) return null;
  return sb.url + target.pathname + target.search;
}

/**
 * Answers a request to the staging host from the sandbox, as a reverse proxy on that host would: same
 * method, path, query, headers and body. Playwright does not route the request that follows a redirect
 * (documented for `page.route`), so a redirect within the sandbox (the 303 to the 3-D Secure page) is
 * followed here with a GET and the final page is answered; a redirect elsewhere (the merchant) is passed
 * on to the browser.
 */
async function proxyToSandbox(route: Route): Promise<void> {
  const asked = new URL(route.request().url());
  const first = await route.fetch({ url: sb.url + asked.pathname + asked.search, maxRedirects: 0 });
  let status = first.status();
  let headers = plainHeaders(first.headersArray().map((h) => [h.name, h.value] as [string, string]));
  let body = await first.body();
  for (let hops = 0; status >= 300 && status < 400 && headers['location'] !== undefined && hops < 5; hops++) {
    const next = sandboxTarget(headers['location'], sb.url + asked.pathname);
    if (next === null) break;
    followed.push(new URL(next).pathname);
    const response = await fetch(next, { redirect: 'manual', headers: { accept: 'text/html', 'user-agent': route.request().headers()['user-agent'] ?? '' } });
    status = response.status;
    headers = plainHeaders(response.headers.entries());
    body = Buffer.from(await response.arrayBuffer());
  }
  await route.fulfill({ status, headers, body });
}

/** Paths of sandbox redirects the proxy followed for the browser. */
let followed: string[] = [];

describe.skipIf(!hasChromium)("the provider's published checkout library (npm @payvision/checkout-library 1.0.2) against the sandbox", () => {
  let browser: Browser;
  let shop: Shop;
  let context: BrowserContext | undefined;
  /** Requests Chromium sent to the staging host, as `METHOD path`. */
  let proxied: string[] = [];

  beforeAll(async () => {
    [browser, shop] = await Promise.all([launchChromium(), startShop()]);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  const STYLES = () => ({
    imageUrl: LOGO_URL,
    generalStyles: { fontFamily: 'Georgia, serif', backgroundColor: '#fdf6e3', primaryThemeColor: '#6c71c4' },
    formStyles: { borderRadius: '9px', fontSize: '15px' },
    paymentButtonStyles: { backgroundColor: 'rgb(200, 0, 0)', fontColor: '#ffff00', borderRadius: '12px' },
  });

  async function newCheckout(checkout: Record<string, unknown> = {}): Promise<string> {
    const created = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout: { returnUrl: `${shop.url}/return`, ...checkout } }));
    expect(created.status).toBe(200);
    return created.body.body.checkout.checkoutId as string;
  }

  const checkoutStatus = async (id: string) => (await sb.get(`/gateway/v3/checkouts/${id}?businessId=biz-1`)).body;

  /** Opens the shop page embedding `checkoutId` and waits until the library has shown the iframe. */
  async function embed(checkoutId: string, options: Record<string, unknown> = {}, waitVisible = true): Promise<{ page: Page; frame: Frame }> {
    context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    proxied = [];
    followed = [];
    await context.route(`${STAGING}/**`, async (route) => {
      proxied.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      await proxyToSandbox(route);
    });
    await context.route(LOGO_URL, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: LOGO_SVG }));
    const page = await context.newPage();
    await page.goto(`${shop.url}/shop?checkoutId=${encodeURIComponent(checkoutId)}&options=${encodeURIComponent(JSON.stringify(options))}`);
    if (waitVisible) await expect.poll(() => visibility(page), { timeout: 10_000 }).toBe('visible');
    const frame = page.frame({ name: 'Checkout' });
    expect(frame, 'the library names its iframe "Checkout"').not.toBeNull();
    return { page, frame: frame! };
  }

  const visibility = (page: Page) => page.$eval('#checkout-container iframe', (el) => (el as HTMLIFrameElement).style.visibility);
  const log = (page: Page) => page.evaluate(() => (window as any).log as any[]);
  const state = (frame: Frame) => frame.getAttribute('body', 'data-paylink-state');

  async function typeCard(frame: Frame, number: string): Promise<void> {
    await frame.fill('#pl-cardNumber', number);
    await frame.fill('#pl-expiryMonth', '12');
    await frame.fill('#pl-expiryYear', YEAR);
    await frame.fill('#pl-cvv', '123');
    await frame.fill('#pl-holderName', 'Ada Lovelace');
  }

  /** Clicks `selector` in the frame and waits for the library to take the top window to returnUrl. */
  async function toReturnUrl(page: Page, frame: Frame, selector: string): Promise<URLSearchParams> {
    await frame.click(selector);
    // Not page.waitForURL: the library adds a message listener on every load of the frame, so after a retry
    // it calls location.assign once per load, and each call aborts the navigation of the one before.
    await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(new RegExp(`^${shop.url}/return\\?`));
    await page.waitForSelector('#merchant');
    expect(await page.textContent('#merchant')).toBe('Back at the shop');
    return new URL(page.url()).searchParams;
  }

  it('loads the hosted checkout from the staging host in a hidden iframe and shows it only after the page says ready', async () => {
    const id = await newCheckout();
    const { page, frame } = await embed(id);
    const iframe = page.locator('#checkout-container iframe');
    expect(await iframe.getAttribute('src')).toBe(`${STAGING}/gateway/v3/web/checkouts/${id}`);
    expect(await iframe.getAttribute('width')).toBe('100%');
    expect(frame.url()).toBe(`${STAGING}/gateway/v3/web/checkouts/${id}`);
    expect(await state(frame)).toBe('form');
    // The page's own stylesheet and script came through the staging host too (root-relative URLs).
    expect(proxied).toEqual(
      expect.arrayContaining([`GET /gateway/v3/web/checkouts/${id}`, 'GET /gateway/v3/web/assets/hosted.js', 'GET /gateway/v3/web/assets/hosted.css']),
    );

    const entries = await log(page);
    expect(entries[0]).toEqual({ type: 'load', visibility: 'hidden' });
    const firstReady = entries.findIndex((e) => e.type === 'message' && e.data && e.data.ready === true);
    const firstVisible = entries.findIndex((e) => e.type === 'visibility' && e.value === 'visible');
    expect(firstReady).toBeGreaterThan(0);
    expect(entries[firstReady].visibility).toBe('hidden');
    expect(firstVisible).toBeGreaterThan(firstReady);
  });

  it('applies the styles the merchant passes as options inside the frame', async () => {
    const id = await newCheckout();
    const { page, frame } = await embed(id, { styles: STYLES() });
    const pay = frame.locator('#pl-pay');
    expect(await pay.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(200, 0, 0)');
    expect(await pay.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 0)');
    expect(await pay.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('12px');
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(253, 246, 227)');
    expect(await frame.evaluate(() => getComputedStyle(document.body).fontFamily)).toBe('Georgia, serif');
    expect(await frame.locator('#pl-cardNumber').evaluate((el) => getComputedStyle(el).borderRadius)).toBe('9px');
    expect(await frame.getAttribute('#pl-logo', 'src')).toBe(LOGO_URL);
    await expect.poll(() => frame.$eval('#pl-logo', (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBe(120);
    expect(await frame.locator('#pl-logo').isVisible()).toBe(true);
    await page.screenshot({ path: join(artifactsDir(), 'provider-library-styled.png'), fullPage: true });
  });

  it('pays with the approve card inside the frame and lands the shop page on returnUrl with checkoutId and id', async () => {
    const id = await newCheckout();
    const { page, frame } = await embed(id, { styles: STYLES() });
    await typeCard(frame, '4111111111111111');
    const query = await toReturnUrl(page, frame, '#pl-pay');
    const status = await checkoutStatus(id);
    expect(status.result).toBe(0);
    expect(status.description).toBe('Completed');
    expect(status.body.payments).toHaveLength(1);
    expect(status.body.payments[0].result).toBe(0);
    expect(query.get('checkoutId')).toBe(id);
    expect(query.get('id')).toBe(status.body.payments[0].body.transaction.id);
    expect(shop.returns.at(-1)!.get('checkoutId')).toBe(id);
  });

  it('shows the reason and a fresh form after each declined attempt, then sends the shop page to returnUrl after the third (-4)', async () => {
    const id = await newCheckout();
    const { page, frame } = await embed(id, { styles: STYLES() });
    for (let left = 2; left >= 1; left--) {
      await typeCard(frame, '4000000000000002');
      await frame.click('#pl-pay');
      await frame.waitForSelector(`#pl-alert:has-text("${left} attempt")`, { timeout: 10_000 });
      expect(await state(frame)).toBe('form');
      expect(frame.url()).toBe(`${STAGING}/gateway/v3/web/checkouts/${id}`);
      // The retry is a new page: the library posted the options to it again, and it said ready again.
      await expect.poll(() => frame.$eval('#pl-pay', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(200, 0, 0)');
      expect(await visibility(page)).toBe('visible');
    }
    const readies = (await log(page)).filter((e) => e.type === 'message' && e.data && e.data.ready === true);
    expect(readies.length).toBe(3);
    await typeCard(frame, '4000000000000002');
    const query = await toReturnUrl(page, frame, '#pl-pay');
    const status = await checkoutStatus(id);
    expect(status.result).toBe(-4);
    expect(status.body.payments.map((p: any) => p.result)).toEqual([-4, -4, -4]);
    // A checkout names the payment in returnUrl only when paid (docs/hosted-pages.md, "The redirect to returnUrl").
    expect(query.get('checkoutId')).toBe(id);
    expect(query.has('id')).toBe(false);
  });

  it('sends the shop page to returnUrl without a payment id when the customer presses the decline button', async () => {
    const id = await newCheckout();
    const { page, frame } = await embed(id);
    const query = await toReturnUrl(page, frame, '#pl-decline');
    expect(query.get('checkoutId')).toBe(id);
    expect(query.has('id')).toBe(false);
    expect((await checkoutStatus(id)).result).toBe(-10);
  });

  it('takes the 3-D Secure card through the challenge page inside the frame, on the staging host and with the styles', async () => {
    const id = await newCheckout();
    const { page, frame } = await embed(id, { styles: STYLES() });
    await typeCard(frame, '4000000000003220');
    await frame.click('#pl-pay');
    await frame.waitForSelector('#pl-challenge-form', { timeout: 10_000 });
    expect(await state(frame)).toBe('challenge');
    expect(followed).toEqual([expect.stringMatching(/^\/gateway\/v3\/web\/3ds\/[0-9a-f-]{36}$/)]);
    // The library posts the options on every load of the frame, and accepts only the staging origin.
    await expect.poll(() => frame.$eval('#pl-submit', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(200, 0, 0)');
    expect(await visibility(page)).toBe('visible');
    await frame.fill('#pl-code', '1234');
    const query = await toReturnUrl(page, frame, '#pl-submit');
    const status = await checkoutStatus(id);
    expect(status.description).toBe('Completed');
    expect(status.body.payments.map((p: any) => p.result)).toEqual([0]);
    expect(query.get('id')).toBe(status.body.payments[0].body.transaction.id);
  });

  it('brings the card form back inside the frame after a wrong 3-D Secure code, and still pays', async () => {
    const id = await newCheckout();
    const { page, frame } = await embed(id);
    await typeCard(frame, '4000000000003220');
    await frame.click('#pl-pay');
    await frame.waitForSelector('#pl-challenge-form', { timeout: 10_000 });
    await frame.fill('#pl-code', '9999');
    await frame.click('#pl-submit');
    await frame.waitForSelector('body[data-paylink-state="form"] #pl-alert:has-text("not approved")', { timeout: 10_000 });
    expect(await visibility(page)).toBe('visible');
    expect(page.url()).toContain('/shop?');
    await typeCard(frame, '4111111111111111');
    const query = await toReturnUrl(page, frame, '#pl-pay');
    const status = await checkoutStatus(id);
    expect(status.body.payments.map((p: any) => p.result)).toEqual([-10, 0]);
    expect(query.get('id')).toBe(status.body.payments[1].body.transaction.id);
  });

  it('returns a token in the successful payment when the customer ticks save card on an INQUIRE checkout', async () => {
    const id = await newCheckout({ tokenize: 'inquire' });
    const { page, frame } = await embed(id);
    await typeCard(frame, '5555555555554444');
    await frame.check('#pl-saveCard');
    const query = await toReturnUrl(page, frame, '#pl-pay');
    const status = await checkoutStatus(id);
    expect(status.description).toBe('Completed');
    const paid = status.body.payments.find((p: any) => p.result === 0);
    expect(query.get('id')).toBe(paid.body.transaction.id);
    expect(paid.body.token.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(paid.body.token.displayHint).toBe('************4444');
  });

  it('raises checkout-error with detail.error for a checkout id the sandbox does not know', async () => {
    const { page, frame } = await embed('00000000-0000-4000-8000-000000000000');
    expect(await state(frame)).toBe('notfound');
    await expect.poll(() => page.evaluate(() => (window as any).errors.length), { timeout: 10_000 }).toBeGreaterThan(0);
    const [detail] = await page.evaluate(() => (window as any).errors as any[]);
    expect(typeof detail.error.message).toBe('string');
    expect(detail.error.state).toBe('NOTFOUND');
  });

  it('keeps the iframe at the height the merchant set when autoHeight is left false, even as the form grows', async () => {
    const { page, frame } = await embed(await newCheckout(), { styles: { iframe: { height: '640px' } } });
    const shown = () => page.$eval('#checkout-container iframe', (el) => Math.round(el.getBoundingClientRect().height));
    expect(await shown()).toBe(640);
    // An observer of the form's size registered after the page's own: once it has seen the form grow, the
    // page's observer (which posts heights under autoHeight) has run for that growth too.
    await frame.evaluate(() => {
      const w = window as any;
      const box = document.getElementById('pl-root') || document.body;
      w.first = undefined;
      w.grown = false;
      new ResizeObserver(() => {
        const height = box.getBoundingClientRect().height;
        if (w.first === undefined) w.first = height;
        else if (height > w.first) w.grown = true;
      }).observe(box);
    });
    await frame.click('#pl-pay'); // inline errors make the form taller
    await frame.waitForSelector('#pl-error-cardNumber:not(:empty)');
    await frame.waitForFunction(() => (window as any).grown === true);
    // Then a message of the frame's own: a height posted before it would have reached the page before it.
    await frame.evaluate(() => window.parent.postMessage({ sentinel: true }, '*'));
    await page.waitForFunction(() => ((window as any).log as any[]).some((e) => e.type === 'message' && e.data && e.data.sentinel === true));
    expect(await shown()).toBe(640);
    expect((await log(page)).filter((e) => e.type === 'message' && e.data && e.data.height)).toEqual([]);
  });

  it('sizes the iframe from the merchant options and makes it follow the form with autoHeight', async () => {
    const { page, frame } = await embed(await newCheckout(), { styles: { autoHeight: true, iframe: { width: '480px', height: '640px' } } });
    const iframe = page.locator('#checkout-container iframe');
    expect(await iframe.getAttribute('width')).toBe('480px');
    expect(await iframe.getAttribute('height')).toBe('640px');
    const content = () => frame.evaluate(() => Math.ceil((document.getElementById('pl-root') || document.body).getBoundingClientRect().height));
    const shown = () => page.$eval('#checkout-container iframe', (el) => Math.round(el.getBoundingClientRect().height));
    const gap = async () => Math.abs((await shown()) - (await content()));
    await expect.poll(gap).toBeLessThanOrEqual(1);
    const before = await shown();
    await frame.click('#pl-pay'); // inline errors make the form taller
    await frame.waitForSelector('#pl-error-cardNumber:not(:empty)');
    await expect.poll(shown).toBeGreaterThan(before);
    await expect.poll(gap).toBeLessThanOrEqual(1);
  });

  it('raises checkout-error with detail.error when the checkout has expired', async () => {
    const id = await newCheckout();
    sb.running.sandbox.clock.advance(31 * 60_000);
    const { page, frame } = await embed(id);
    expect(await state(frame)).toBe('expired');
    await expect.poll(() => page.evaluate(() => (window as any).errors.length), { timeout: 10_000 }).toBeGreaterThan(0);
    const [detail] = await page.evaluate(() => (window as any).errors as any[]);
    expect(detail.error).toBeTruthy();
    expect(typeof detail.error.message).toBe('string');
    expect(detail.error.state).toBe('TIMEOUT');
    expect((await checkoutStatus(id)).result).toBe(4);
    await page.screenshot({ path: join(artifactsDir(), 'provider-library-expired.png'), fullPage: true });
  });
});
