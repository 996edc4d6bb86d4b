/**
 * The library's side of the iframe protocol in real Chromium, against a stand-in hosted page on its own
 * origin that the test drives message by message (the real hosted pages are covered in library.test.ts).
 * The merchant page is on a third origin and loads the scripts from a real sandbox.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { useSandbox } from '../helpers/sandbox.js';
import { FOREIGN_PAGE, merchantPage, startSite, startStandInPages, type LocalSite } from './library-helpers.js';

const sb = useSandbox();
let browser: Browser;
let merchant: LocalSite;
let pages: LocalSite;
let foreign: LocalSite;
let counter = 0;

beforeAll(async () => {
  browser = await launchChromium();
  merchant = await startSite();
  pages = await startStandInPages();
  foreign = await startSite();
  foreign.pages.set('/foreign', FOREIGN_PAGE);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([merchant?.close(), pages?.close(), foreign?.close()]);
});

interface Opened {
  page: Page;
  logs: Array<{ type: string; text: string }>;
  pageErrors: string[];
}

/** Opens a merchant page running `script`; returns it with its console messages. */
async function open(script: string, body = ''): Promise<Opened> {
  counter += 1;
  const path = `/shop-${counter}`;
  merchant.pages.set(path, merchantPage(sb.url, script, body));
  const context = await browser.newContext();
  const page = await context.newPage();
  const logs: Opened['logs'] = [];
  const pageErrors: string[] = [];
  page.on('console', (m) => logs.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(merchant.url + path);
  return { page, logs, pageErrors };
}

/** The stand-in page inside `#<container>`'s iframe, once it has received the options. */
async function innerFrame(page: Page, container: string): Promise<Frame> {
  const handle = await page.waitForSelector(`#${container} iframe`, { state: 'attached' });
  const frame = (await handle.contentFrame())!;
  await frame.waitForFunction(() => (window as any).received && (window as any).received.length > 0);
  return frame;
}

const iframeStyle = (page: Page, container: string, property: 'visibility' | 'height' | 'width' | 'display') =>
  page.$eval(`#${container} iframe`, (el, p) => getComputedStyle(el)[p as 'height'], property);

describe.skipIf(!hasChromium)('the library side of the iframe protocol', () => {
  it('keeps the iframe hidden until the page says ready, after posting the resolved options to the page origin only', async () => {
    const { page } = await open(`
      window.embed = new PaymentLink('link-1', 'link', {
        baseUrl: '${pages.url}',
        showDeclinebutton: false,
        language: 'nl',
        styles: { generalStyles: { backgroundColor: '#ffeecc' }, paymentButtonStyles: { fontColot: '#123456' }, iframe: { width: '400px', height: '300px' } }
      }).render();`);
    const frame = await innerFrame(page, 'link');
    expect(frame.url()).toBe(`${pages.url}/gateway/v3/web/paymentlinks/link-1`);
    const received = await frame.evaluate(() => (window as any).received);
    expect(received).toHaveLength(1);
    expect(received[0].origin).toBe(merchant.url);
    const options = received[0].data;
    expect(options.showDeclineButton).toBe(false);
    expect(options.live).toBe(false);
    expect(options.styles.paymentButtonStyles.fontColor).toBe('#123456');
    expect(options.styles.generalStyles.backgroundColor).toBe('#ffeecc');
    // Defaults for everything not given (docs/api.md).
    expect(options.styles.formStyles).toEqual({
      backgroundFormColor: '#ffffff',
      backgroundFormContainerColor: '#ffffff',
      fontSize: '14px',
      borderWidth: '1px',
      borderRadius: '2px',
    });
    expect(options.styles.generalStyles.successThemeColor).toBe('#35ba6d');
    expect(options.styles.generalStyles.fontFamily).toBe('Source Sans Pro, Arial, Verdana');
    expect(options.styles.paymentButtonStyles.backgroundColor).toBe('#8ec03f');
    expect(options.styles.autoHeight).toBe(false);
    expect(options.styles.imageUrl).toBe('');
    // Options the library does not know travel on, as the provider's library posts {styles, ...options};
    // the base URL stays with the merchant page.
    expect(options.language).toBe('nl');
    expect(options.baseUrl).toBeUndefined();
    expect(await page.$eval('#link iframe', (el) => [el.getAttribute('name'), el.getAttribute('width'), el.getAttribute('height')])).toEqual([
      'PaymentLink',
      '400px',
      '300px',
    ]);

    expect(await iframeStyle(page, 'link', 'visibility')).toBe('hidden');
    expect(await iframeStyle(page, 'link', 'width')).toBe('400px');
    expect(await iframeStyle(page, 'link', 'height')).toBe('300px');
    // Another message from the frame, once the library has handled it (a listener the page adds after the
    // library's sees it after the library did): still hidden, only `ready` shows it.
    await page.evaluate(() => {
      (window as any).seen = [];
      window.addEventListener('message', (e) => (window as any).seen.push(e.data));
    });
    await frame.evaluate(() => (window as any).post({ notReady: true }));
    await page.waitForFunction(() => (window as any).seen.some((d: any) => d && d.notReady === true));
    expect(await iframeStyle(page, 'link', 'visibility')).toBe('hidden');

    await frame.evaluate(() => (window as any).post({ ready: true }));
    await expect.poll(() => iframeStyle(page, 'link', 'visibility')).toBe('visible');
    await page.context().close();
  });

  it('posts the options again when the frame navigates (a retry page, 3-D Secure)', async () => {
    const { page } = await open(`new Checkout('co-1', 'checkout', { baseUrl: '${pages.url}' }).render();`);
    const frame = await innerFrame(page, 'checkout');
    expect(frame.url()).toBe(`${pages.url}/gateway/v3/web/checkouts/co-1`);
    await frame.evaluate(() => location.reload());
    await frame.waitForFunction(() => (window as any).received && (window as any).received.length === 1);
    expect(await frame.evaluate(() => (window as any).received[0].data.styles.iframe)).toEqual({ width: '100%', height: '780px' });
    await page.context().close();
  });

  it('follows the page height with autoHeight and keeps the set height without it', async () => {
    const { page } = await open(`
      new PaymentLink('auto', 'link', { baseUrl: '${pages.url}', styles: { autoHeight: true } }).render();
      new Checkout('fixed', 'checkout', { baseUrl: '${pages.url}', styles: { iframe: { height: '500px' } } }).render();`);
    const auto = await innerFrame(page, 'link');
    const fixed = await innerFrame(page, 'checkout');
    expect(await iframeStyle(page, 'link', 'height')).toBe('780px');
    expect(await page.$eval('#link iframe', (el) => el.getAttribute('scrolling'))).toBe('no');
    await auto.evaluate(() => (window as any).post({ ready: true, height: '432px' }));
    await expect.poll(() => iframeStyle(page, 'link', 'height')).toBe('432px');
    await auto.evaluate(() => (window as any).post({ height: '612px' }));
    await expect.poll(() => iframeStyle(page, 'link', 'height')).toBe('612px');
    // Not a length: ignored.
    await auto.evaluate(() => (window as any).post({ height: 'calc(1px)' }));
    await fixed.evaluate(() => (window as any).post({ ready: true, height: '111px' }));
    await expect.poll(() => iframeStyle(page, 'checkout', 'visibility')).toBe('visible');
    expect(await iframeStyle(page, 'checkout', 'height')).toBe('500px');
    expect(await iframeStyle(page, 'link', 'height')).toBe('612px');
    await page.context().close();
  });

  it('raises paymentlink-error and checkout-error on document with detail {error} as the provider library does', async () => {
    const { page } = await open(`
      new PaymentLink('l', 'link', { baseUrl: '${pages.url}' }).render();
      new Checkout('c', 'checkout', { baseUrl: '${pages.url}' }).render();`);
    const link = await innerFrame(page, 'link');
    const checkout = await innerFrame(page, 'checkout');
    await link.evaluate(() => (window as any).post({ error: { code: 2002, message: 'The link has expired.', state: 'expired' } }));
    await checkout.evaluate(() => (window as any).post({ error: { code: 1404, message: 'Not found.', state: 'notfound' } }));
    await expect.poll(() => page.evaluate(() => (window as any).errors.length)).toBe(2);
    const errors = await page.evaluate(() => (window as any).errors);
    expect(errors).toContainEqual({ type: 'paymentlink-error', detail: { error: { code: 2002, message: 'The link has expired.', state: 'expired' } } });
    expect(errors).toContainEqual({ type: 'checkout-error', detail: { error: { code: 1404, message: 'Not found.', state: 'notfound' } } });
    expect(await iframeStyle(page, 'link', 'visibility')).toBe('hidden');
    await page.context().close();
  });

  it('navigates the top window to an http(s) redirect and refuses any other scheme', async () => {
    const { page, logs } = await open(`new PaymentLink('r', 'link', { baseUrl: '${pages.url}' }).render();`);
    const frame = await innerFrame(page, 'link');
    const before = page.url();
    await frame.evaluate(() => (window as any).post({ redirect: 'javascript:window.hacked=1' }));
    await expect.poll(() => logs.some((l) => l.type === 'error' && l.text.includes('non-http(s)'))).toBe(true);
    expect(page.url()).toBe(before);
    expect(await page.evaluate(() => (window as any).hacked)).toBeUndefined();
    merchant.pages.set('/thanks', '<!doctype html><title>thanks</title><p>Thank you</p>');
    await Promise.all([
      page.waitForURL(`${merchant.url}/thanks?linkId=r&id=p-1`),
      frame.evaluate((url) => (window as any).post({ redirect: url }), `${merchant.url}/thanks?linkId=r&id=p-1`),
    ]);
    expect(page.url()).toBe(`${merchant.url}/thanks?linkId=r&id=p-1`);
    await page.context().close();
  });

  it('ignores protocol messages from a foreign origin and from the merchant page itself', async () => {
    const { page } = await open(
      `window.embed = new PaymentLink('f', 'link', { baseUrl: '${pages.url}', styles: { autoHeight: true } }).render();`,
      `<iframe id="foreign" src="${foreign.url}/foreign" style="width:10px;height:10px"></iframe>`,
    );
    const frame = await innerFrame(page, 'link');
    const foreignFrame = (await (await page.waitForSelector('#foreign')).contentFrame())!;
    await foreignFrame.waitForFunction(() => typeof (window as any).post === 'function');
    const before = page.url();
    const attack = [{ ready: true }, { height: '50px' }, { error: { message: 'spoofed' } }, { redirect: `${foreign.url}/phish` }];
    for (const message of attack) {
      await foreignFrame.evaluate((m) => (window as any).post(m), message);
      await page.evaluate((m) => window.postMessage(m, '*'), message);
    }
    // A message the real frame sends after them arrives after them, so by then they were all handled.
    await frame.evaluate(() => (window as any).post({ height: '333px' }));
    await expect.poll(() => iframeStyle(page, 'link', 'height')).toBe('333px');
    expect(await iframeStyle(page, 'link', 'visibility')).toBe('hidden');
    expect(await page.evaluate(() => (window as any).errors)).toEqual([]);
    expect(page.url()).toBe(before);
    await page.context().close();
  });

  it('throws ReferenceError for a missing id, container argument or element, and for show or hide before render', async () => {
    const { page } = await open('');
    const thrown = await page.evaluate(() => {
      const attempt = (f: () => unknown) => {
        try {
          f();
          return 'no error';
        } catch (e) {
          return (e as Error).name + ': ' + (e as Error).message;
        }
      };
      const w = window as any;
      return {
        noId: attempt(() => new w.PaymentLink(undefined, 'link')),
        emptyId: attempt(() => new w.Checkout('', 'checkout')),
        noContainer: attempt(() => new w.PaymentLink('x')),
        missingElement: attempt(() => new w.PaymentLink('x', 'nowhere').render()),
        showFirst: attempt(() => new w.Checkout('x', 'checkout').show()),
        hideFirst: attempt(() => new w.PaymentLink('x', 'link').hide()),
      };
    });
    expect(thrown.noId).toMatch(/^ReferenceError: PaymentLink: the linkId argument is missing/);
    expect(thrown.emptyId).toMatch(/^ReferenceError: Checkout: the checkoutId argument is missing/);
    expect(thrown.noContainer).toMatch(/^ReferenceError: PaymentLink: the containerElementId argument is missing/);
    expect(thrown.missingElement).toMatch(/^ReferenceError: PaymentLink: no element with id "nowhere"/);
    expect(thrown.showFirst).toMatch(/^ReferenceError: Checkout: show\(\) was called before render\(\)/);
    expect(thrown.hideFirst).toMatch(/^ReferenceError: PaymentLink: hide\(\) was called before render\(\)/);
    await page.context().close();
  });

  it('chains render, hide and show, which toggle the form', async () => {
    const { page } = await open(`
      window.embed = new PaymentLink('c', 'link', { baseUrl: '${pages.url}' });
      window.same = window.embed.render().hide() === window.embed;`);
    expect(await page.evaluate(() => (window as any).same)).toBe(true);
    expect(await page.evaluate(() => (window as any).embed instanceof (window as any).PaymentLink)).toBe(true);
    expect(await iframeStyle(page, 'link', 'display')).toBe('none');
    expect(await page.evaluate(() => (window as any).embed.show() === (window as any).embed)).toBe(true);
    expect(await iframeStyle(page, 'link', 'display')).toBe('block');
    await page.evaluate(() => (window as any).embed.render());
    expect(await page.$$eval('#link iframe', (list) => list.length)).toBe(1);
    await page.context().close();
  });

  it('reports invalid lengths and values on the console and uses the defaults', async () => {
    const { page, logs } = await open(`
      window.embed = new PaymentLink('v', 'link', { baseUrl: '${pages.url}', colour: 'red', showDeclineButton: 'no', styles: {
        formStyles: { fontSize: '14', borderWidth: '2vw', borderRadius: '3mm' },
        paymentButtonStyles: { fontSize: 18, borderWidth: '0.5em', backgroundColor: 'red;}body{display:none' },
        iframe: { width: '90%', height: '-5px' },
        imageUrl: 'javascript:alert(1)'
      } });`);
    const options = await page.evaluate(() => (window as any).embed.options);
    expect(options.styles.formStyles.fontSize).toBe('14px');
    expect(options.styles.formStyles.borderWidth).toBe('1px');
    expect(options.styles.formStyles.borderRadius).toBe('3mm');
    expect(options.styles.paymentButtonStyles.fontSize).toBe('16px');
    expect(options.styles.paymentButtonStyles.borderWidth).toBe('0.5em');
    expect(options.styles.paymentButtonStyles.backgroundColor).toBe('#8ec03f');
    expect(options.styles.iframe).toEqual({ width: '90%', height: '780px' });
    expect(options.styles.imageUrl).toBe('');
    expect(options.showDeclineButton).toBe(true);
    const errors = logs.filter((l) => l.type === 'error').map((l) => l.text);
    expect(errors).toContainEqual(
      expect.stringContaining('PaymentLink: styles.formStyles.fontSize must be a length with a unit: em, ex, %, px, cm, mm, in, pt or pc'),
    );
    expect(errors).toContainEqual(expect.stringContaining('styles.formStyles.borderWidth'));
    expect(errors).toContainEqual(expect.stringContaining('styles.paymentButtonStyles.fontSize'));
    expect(errors).toContainEqual(expect.stringContaining('styles.iframe.height'));
    expect(errors).toContainEqual(expect.stringContaining('styles.imageUrl must be an http(s) URL'));
    expect(errors).toContainEqual(expect.stringContaining('showDeclineButton must be true or false'));
    expect(errors).toHaveLength(7);
    expect(logs).toContainEqual({ type: 'warning', text: 'PaymentLink: unknown option colour is ignored.' });
    await page.context().close();
  });

  it('warns when live is true on a script served by a sandbox, and targets that sandbox by default', async () => {
    const { page, logs } = await open(`window.embed = new Checkout('co-9', 'checkout', { live: true });`);
    expect(await page.evaluate(() => (window as any).embed.url)).toBe(`${sb.url}/gateway/v3/web/checkouts/co-9`);
    expect(logs.filter((l) => l.type === 'warning').map((l) => l.text)).toContainEqual(
      expect.stringContaining('Checkout: live is true, but this script was served by a paylink sandbox'),
    );
    const quiet = await open(`window.embed = new PaymentLink('l-9', 'link');`);
    expect(await quiet.page.evaluate(() => (window as any).embed.url)).toBe(`${sb.url}/gateway/v3/web/paymentlinks/l-9`);
    expect(quiet.logs.filter((l) => l.type === 'warning')).toEqual([]);
    await page.context().close();
    await quiet.page.context().close();
  });
});
