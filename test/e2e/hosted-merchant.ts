/**
 * A real merchant for browser tests: a `node:http` server on port 0 that records every request it gets
 * (the return redirect's query above all), serves a page that embeds the hosted page in an iframe the way
 * the library does, and serves a logo and a font stylesheet for the styling options.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium } from '../helpers/browser.js';

export interface MerchantVisit {
  path: string;
  query: URLSearchParams;
}

export interface Merchant {
  url: string;
  visits: MerchantVisit[];
  /** Visits of the return path (`/return`). */
  returns(): MerchantVisit[];
  close(): Promise<void>;
}

// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * The embedding page: an iframe on the hosted page, the options posted on its load event, every message
 * from it recorded in `window.messages`. `?src=` is the hosted page, `?options=` the JSON options.
 */
const EMBED = `<!doctype html><meta charset="utf-8"><title>shop</title>
<h1>Shop checkout</h1>
<iframe id="pay" width="520" height="900"></iframe>
<script>
  var params = new URLSearchParams(location.search);
  window.messages = [];
  var frame = document.getElementById('pay');
  var origin = new URL(params.get('src')).origin;
  window.addEventListener('message', function (e) {
    if (e.origin !== origin) return;
    window.messages.push(e.data);
  });
  frame.addEventListener('load', function () {
    if (params.get('options')) frame.contentWindow.postMessage(JSON.parse(params.get('options')), origin);
  });
  frame.src = params.get('src');
</script>`;

/**
 * The embedded 3-D Secure flow as a merchant writes it without any library: a payment's `redirect`
 * (`?redirect=` JSON: method, url, fields) posted into a named iframe on the shop's own page; every message
 * the page gets is recorded with its origin in `window.messages`.
 */
const EMBED_3DS = `<!doctype html><meta charset="utf-8"><title>shop 3-D Secure</title>
<h1 id="shop">Shop checkout</h1>
<iframe name="tds" id="tds" width="420" height="520"></iframe>
<form id="go" target="tds"></form>
<script>
  var redirect = JSON.parse(new URLSearchParams(location.search).get('redirect'));
  window.messages = [];
  window.addEventListener('message', function (e) { window.messages.push({ origin: e.origin, data: e.data }); });
  var form = document.getElementById('go');
  form.method = redirect.method;
  form.action = redirect.url;
  Object.keys(redirect.fields || {}).forEach(function (name) {
    var input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = redirect.fields[name];
    form.appendChild(input);
  });
  form.submit();
</script>`;

export async function startMerchant(): Promise<Merchant> {
  const visits: MerchantVisit[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://merchant.local');
    visits.push({ path: url.pathname, query: url.searchParams });
    if (url.pathname === '/embed') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(EMBED);
    } else if (url.pathname === '/embed-3ds') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(EMBED_3DS);
    } else if (url.pathname === '/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else if (url.pathname === '/font.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end('.pl-foot { letter-spacing: 3px; }');
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><meta charset="utf-8"><title>Merchant</title><h1 id="merchant">Back at the shop</h1>`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    visits,
    returns: () => visits.filter((v) => v.path === '/return'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ChromiumAndMerchant {
  /** The merchant, started before the first test. */
  readonly merchant: Merchant;
  /** A page in a fresh browser context; the context is closed after the test (or by {@link closePage}). */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Closes the current test's context early (a test that opens several pages in turn). */
  closePage(): Promise<void>;
}

/**
 * Chromium and a merchant for the tests of one `describe` (call it inside the block): launched before its
 * first test, closed after its last, with a fresh browser context per test.
 */
export function useChromiumAndMerchant(): ChromiumAndMerchant {
  let browser: Browser | undefined;
  let merchant: Merchant | undefined;
  let context: BrowserContext | undefined;
  const closePage = async (): Promise<void> => {
    await context?.close();
    context = undefined;
  };
  beforeAll(async () => {
    [browser, merchant] = await Promise.all([launchChromium(), startMerchant()]);
  });
  afterEach(closePage);
  afterAll(async () => {
    await browser?.close();
    await merchant?.close();
  });
  return {
    get merchant() {
      if (!merchant) throw new Error('the merchant is started before the first test');
      return merchant;
    },
    async newPage(options) {
      if (!browser) throw new Error('Chromium is launched before the first test');
      await closePage();
      context = await browser.newContext(options);
      return context.newPage();
    },
    closePage,
  };
}
