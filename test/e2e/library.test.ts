/**
 * The browser library end to end in real Chromium, with the sandbox's real hosted pages: a merchant page on
 * another local origin loads the versioned scripts from the sandbox, embeds a link and a checkout, sees
 * them appear only after `ready` with its styles applied inside the iframe, pays, and lands on returnUrl.
 */
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, hasChromium, launchChromium } from '../helpers/browser.js';
import { checkoutRequest, linkRequest, useSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { merchantPage, startSite, type LocalSite } from './library-helpers.js';

const sb = useSandbox();
const expirySb = useSandbox();
let browser: Browser;
let merchant: LocalSite;
let counter = 0;

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#c2185b"/><text x="10" y="27" fill="#fff" font-size="20">ACME</text></svg>';

beforeAll(async () => {
  browser = await launchChromium();
  merchant = await startSite((req, res) => {
    if (!req.url?.startsWith('/logo.svg')) return false;
    res.writeHead(200, { 'content-type': 'image/svg+xml' });
    res.end(LOGO_SVG);
    return true;
  });
  merchant.pages.set('/return', '<!doctype html><title>Order complete</title><h1>Thank you</h1>');
});

afterAll(async () => {
  await browser?.close();
  await merchant?.close();
});

async function createLink(on: TestSandbox, link: Record<string, unknown> = {}): Promise<string> {
  const res = await on.post('/gateway/v3/paymentlinks', linkRequest({ link: { returnUrl: `${merchant.url}/return`, ...link } }));
  expect(res.body.result).toBe(0);
  return res.body.body.link.linkId as string;
}

async function createCheckout(): Promise<string> {
  const res = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout: { returnUrl: `${merchant.url}/return` } }));
  expect(res.status).toBe(200);
  return res.body.body.checkout.checkoutId as string;
}

/**
 * Opens a merchant page whose script embeds; before `render()` it starts recording, per container, each
 * protocol message with the iframe's visibility when it arrived, and every visibility change with whether
 * a `ready` had arrived by then.
 */
async function open(on: TestSandbox, script: string): Promise<Page> {
  counter += 1;
  const path = `/shop-${counter}`;
  const recorder = `
    window.trace = { messages: [], changes: [] };
    window.addEventListener('message', function (event) {
      var frames = document.getElementsByTagName('iframe');
      for (var i = 0; i < frames.length; i++) {
        if (frames[i].contentWindow === event.source) {
          window.trace.messages.push({ box: frames[i].parentNode.id, data: event.data, visibility: frames[i].style.visibility });
          if (event.data && event.data.ready) frames[i].setAttribute('data-ready-seen', '1');
        }
      }
    });
    new MutationObserver(function (list) {
      for (var i = 0; i < list.length; i++) {
        var el = list[i].target;
        if (el.tagName === 'IFRAME') window.trace.changes.push({ box: el.parentNode.id, visibility: el.style.visibility, readySeen: el.getAttribute('data-ready-seen') === '1' });
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['style'] });
  `;
  merchant.pages.set(path, merchantPage(on.url, recorder + script));
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  await page.goto(merchant.url + path);
  return page;
}

async function frameIn(page: Page, container: string): Promise<Frame> {
  const handle = await page.waitForSelector(`#${container} iframe`, { state: 'attached' });
  return (await handle.contentFrame())!;
}

const visibility = (page: Page, container: string) => page.$eval(`#${container} iframe`, (el) => getComputedStyle(el).visibility);

async function payInFrame(frame: Frame, cardNumber = '4111 1111 1111 1111'): Promise<void> {
  await frame.waitForSelector('#pl-card-form');
  await frame.fill('input[name=cardNumber]', cardNumber);
  await frame.fill('input[name=expiryMonth]', '12');
  await frame.fill('input[name=expiryYear]', String(new Date().getUTCFullYear() + 3));
  await frame.fill('input[name=cvv]', '123');
  await frame.fill('input[name=holderName]', 'Ada Lovelace');
  await frame.click('#pl-pay');
}

const STYLED = (id: string) => `
  window.link = new PaymentLink(${JSON.stringify(id)}, 'link', {
    showDeclineButton: false,
    styles: {
      imageUrl: '/logo.svg',
      generalStyles: { backgroundColor: '#fff3e0', primaryThemeColor: '#6a1b9a' },
      formStyles: { fontSize: '18px', borderRadius: '9px', backgroundFormContainerColor: '#fafafa' },
      paymentButtonStyles: { backgroundColor: '#c2185b', fontColot: '#ffeb3b', borderColor: '#880e4f', fontSize: '20px', borderRadius: '14px', borderWidth: '3px' },
      iframe: { width: '520px', height: '700px' }
    }
  }).render();`;

describe.skipIf(!hasChromium)('the browser library with the real hosted pages', () => {
  it('shows an embedded link only after ready, with the merchant colours, logo and sizes applied inside the iframe', async () => {
    const linkId = await createLink(sb);
    const page = await open(sb, STYLED(linkId));
    const frame = await frameIn(page, 'link');
    await expect.poll(() => visibility(page, 'link'), { timeout: 10_000 }).toBe('visible');

    const trace = await page.evaluate(() => (window as any).trace);
    const ready = trace.messages.find((m: any) => m.box === 'link' && m.data && m.data.ready === true);
    expect(ready, 'the page said ready').toBeDefined();
    expect(ready.visibility).toBe('hidden');
    const shown = trace.changes.filter((c: any) => c.box === 'link' && c.visibility === 'visible');
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((c: any) => c.readySeen)).toBe(true);

    const outer = await page.$eval('#link iframe', (el) => ({ width: getComputedStyle(el).width, height: getComputedStyle(el).height }));
    expect(outer).toEqual({ width: '520px', height: '700px' });

    const inside = await frame.evaluate(() => {
      const css = (selector: string) => getComputedStyle(document.querySelector(selector)!);
      const pay = css('#pl-pay');
      const logo = document.querySelector('#pl-logo') as HTMLImageElement | null;
      return {
        background: css('body').backgroundColor,
        fontSize: css('input[name=cardNumber]').fontSize,
        inputRadius: css('input[name=cardNumber]').borderTopLeftRadius,
        panelBackground: css('.pl-panel').backgroundColor,
        pay: {
          background: pay.backgroundColor,
          color: pay.color,
          fontSize: pay.fontSize,
          radius: pay.borderTopLeftRadius,
          borderWidth: pay.borderTopWidth,
          borderColor: pay.borderTopColor,
        },
        logo: logo ? { src: logo.src, shown: getComputedStyle(logo).display !== 'none', width: logo.naturalWidth } : null,
        decline: document.querySelector('#pl-decline') ? getComputedStyle(document.querySelector('#pl-decline')!).display : 'absent',
      };
    });
    expect(inside.background).toBe('rgb(255, 243, 224)');
    expect(inside.fontSize).toBe('18px');
    expect(inside.inputRadius).toBe('9px');
    expect(inside.panelBackground).toBe('rgb(250, 250, 250)');
    expect(inside.pay).toEqual({
      background: 'rgb(194, 24, 91)',
      color: 'rgb(255, 235, 59)',
      fontSize: '20px',
      radius: '14px',
      borderWidth: '3px',
      borderColor: 'rgb(136, 14, 79)',
    });
    expect(inside.logo?.src).toBe(`${merchant.url}/logo.svg`);
    expect(inside.logo?.shown).toBe(true);
    expect(['none', 'absent']).toContain(inside.decline);

    await expect.poll(() => frame.evaluate(() => (document.querySelector('#pl-logo') as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // The sandbox's test-card banner fills the top of a 700px frame: bring the styled form into view.
    await frame.$eval('.pl-panel', (el) => el.scrollIntoView());
    const shot = join(artifactsDir(), 'library-embedded-link.png');
    await page.screenshot({ path: shot, fullPage: true });
    await page.context().close();
  });

  it('pays an embedded link and lands on returnUrl in the top window', async () => {
    const linkId = await createLink(sb);
    const page = await open(sb, STYLED(linkId));
    const frame = await frameIn(page, 'link');
    await expect.poll(() => visibility(page, 'link'), { timeout: 10_000 }).toBe('visible');
    await payInFrame(frame);
    await page.waitForURL(/\/return\?/, { timeout: 15_000 });
    const url = new URL(page.url());
    expect(url.origin + url.pathname).toBe(`${merchant.url}/return`);
    expect(url.searchParams.get('linkId')).toBe(linkId);
    const paymentId = url.searchParams.get('id')!;
    expect(paymentId).toMatch(/^[0-9a-f-]{36}$/);
    const read = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(read.body.body.link.status).toBe('PAID');
    await page.context().close();
  });

  it('pays an embedded checkout next to a link and lands on returnUrl with the checkoutId', async () => {
    const linkId = await createLink(sb);
    const checkoutId = await createCheckout();
    const page = await open(
      sb,
      `
      new PaymentLink(${JSON.stringify(linkId)}, 'link').render();
      new Checkout(${JSON.stringify(checkoutId)}, 'checkout', { styles: { paymentButtonStyles: { backgroundColor: '#00695c' } } }).render();`,
    );
    const frame = await frameIn(page, 'checkout');
    await expect.poll(() => visibility(page, 'checkout'), { timeout: 10_000 }).toBe('visible');
    await expect.poll(() => visibility(page, 'link'), { timeout: 10_000 }).toBe('visible');
    expect(frame.url()).toBe(`${sb.url}/gateway/v3/web/checkouts/${checkoutId}`);
    expect(await frame.$eval('#pl-pay', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 105, 92)');
    await payInFrame(frame);
    await page.waitForURL(/\/return\?/, { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('checkoutId')).toBe(checkoutId);
    await page.context().close();
  });

  it('passes the 3-D Secure challenge inside the iframe, styled again after the navigation, then lands on returnUrl', async () => {
    const linkId = await createLink(sb);
    const page = await open(sb, STYLED(linkId));
    const frame = await frameIn(page, 'link');
    await expect.poll(() => visibility(page, 'link'), { timeout: 10_000 }).toBe('visible');
    await payInFrame(frame, '4000 0000 0000 3220');
    await frame.waitForSelector('#pl-challenge-form', { timeout: 10_000 });
    expect(frame.url()).toContain('/gateway/v3/web/3ds/');
    // The library posted the options to the new page too: the merchant's button colour is there.
    await expect.poll(() => frame.$eval('#pl-submit', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(194, 24, 91)');
    await frame.fill('#pl-code', '1234');
    await frame.click('#pl-submit');
    await page.waitForURL(/\/return\?/, { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('linkId')).toBe(linkId);
    const read = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(read.body.body.link.status).toBe('PAID');
    await page.context().close();
  });

  it('makes the iframe follow the form height with autoHeight', async () => {
    const linkId = await createLink(sb);
    const page = await open(sb, `new PaymentLink(${JSON.stringify(linkId)}, 'link', { styles: { autoHeight: true } }).render();`);
    const frame = await frameIn(page, 'link');
    await expect.poll(() => visibility(page, 'link'), { timeout: 10_000 }).toBe('visible');
    const height = () => page.$eval('#link iframe', (el) => parseFloat(getComputedStyle(el).height));
    await expect.poll(height).not.toBe(780);
    const first = await height();
    const content = await frame.evaluate(() => Math.ceil((document.getElementById('pl-root') || document.body).getBoundingClientRect().height));
    expect(Math.abs(first - content)).toBeLessThanOrEqual(1);
    // Grow the form inside the frame: the iframe follows.
    await frame.evaluate(() => {
      const extra = document.createElement('div');
      extra.style.height = '300px';
      (document.getElementById('pl-root') || document.body).appendChild(extra);
    });
    await expect.poll(height).toBeGreaterThanOrEqual(first + 299);
    await page.context().close();
  });

  it('raises paymentlink-error with the page error when the link has expired', async () => {
    const linkId = await createLink(expirySb, { duration: 'PT1H' });
    expirySb.running.sandbox.clock.advance(2 * 60 * 60 * 1000);
    const page = await open(expirySb, `new PaymentLink(${JSON.stringify(linkId)}, 'link').render();`);
    await expect.poll(() => page.evaluate(() => (window as any).errors.length), { timeout: 10_000 }).toBeGreaterThan(0);
    const [error] = await page.evaluate(() => (window as any).errors);
    expect(error.type).toBe('paymentlink-error');
    expect(String(error.detail.error.state).toLowerCase()).toBe('expired');
    expect(typeof error.detail.error.message).toBe('string');
    await page.context().close();

    // The demo page shows the same error to the person looking at it.
    const demo = await browser.newPage();
    await demo.goto(`${expirySb.url}/__sandbox/demo/${linkId}`);
    await expect.poll(() => demo.textContent('#demo-error'), { timeout: 10_000 }).toContain('EXPIRED');
    await demo.context().close();
  });

  it('serves a demo page that embeds the link with the versioned script and its integrity hash', async () => {
    const linkId = await createLink(sb);
    const context = await browser.newContext();
    const page = await context.newPage();
    const failures: string[] = [];
    // Console errors (an integrity mismatch is one) and failed responses, the browser's favicon probe included.
    page.on('console', (m) => m.type() === 'error' && failures.push(m.text()));
    page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
    await page.goto(`${sb.url}/__sandbox/demo/${linkId}`);
    await expect.poll(() => visibility(page, 'payment-form'), { timeout: 10_000 }).toBe('visible');
    const frame = await frameIn(page, 'payment-form');
    expect(await frame.$eval('#pl-pay', (el) => getComputedStyle(el).backgroundColor)).toBe('rgb(107, 47, 163)');
    expect(failures).toEqual([]);
    await page.screenshot({ path: join(artifactsDir(), 'library-demo-page.png'), fullPage: true });
    await context.close();
  });
});
