/**
 * How the sandbox serves the browser library over HTTP: versioned paths, headers, the base URL built into
 * the text, the Subresource Integrity hash `paylink sandbox` prints, and the demo page.
 */
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runSandbox } from '../../src/cli/commands/sandbox.js';
import { Ui } from '../../src/cli/ui.js';
import { LIBRARY_VERSION, libraryIntegrity } from '../../src/sandbox/web/library.js';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const tunnel = useSandbox({ publicUrl: 'https://shop-tunnel.example' });

function sri(text: string): string {
  return `sha384-${createHash('sha384').update(Buffer.from(text, 'utf8')).digest('base64')}`;
}

describe('serving the browser library', () => {
  for (const [kind, globalName] of [
    ['paymentlink', 'PaymentLink'],
    ['checkout', 'Checkout'],
  ] as const) {
    it(`serves /${kind}/{version}/${kind}-library.js with long-lived caching, a script type and CORS`, async () => {
      const res = await fetch(`${sb.url}/${kind}/${LIBRARY_VERSION}/${kind}-library.js`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const text = await res.text();
      expect(text).toContain(`window.${globalName} = PaylinkLibrary.create(`);
      expect(text).toContain(`"baseUrl":"${sb.url}"`);
      expect(sri(text)).toBe(libraryIntegrity(sb.url, kind));
    });
  }

  it('answers 404 for an unknown version, naming the version it serves', async () => {
    const res = await sb.get('/paymentlink/0.0.1/paymentlink-library.js');
    expect(res.status).toBe(404);
    expect(res.body.body.error.message).toContain(`this sandbox serves ${LIBRARY_VERSION}`);
    expect((await sb.get(`/checkout/latest/checkout-library.js`)).status).toBe(404);
  });

  it('matches the fixed path segments in any case and serves the same bytes twice', async () => {
    const a = await fetch(`${sb.url}/PaymentLink/${LIBRARY_VERSION}/paymentlink-library.js`);
    const b = await fetch(`${sb.url}/paymentlink/${LIBRARY_VERSION}/paymentlink-library.js`);
    expect(a.status).toBe(200);
    expect(await a.text()).toBe(await b.text());
  });

  it('builds the public URL into the script of a sandbox that has one', async () => {
    const res = await fetch(`${tunnel.url}/checkout/${LIBRARY_VERSION}/checkout-library.js`);
    const text = await res.text();
    expect(text).toContain('"baseUrl":"https://shop-tunnel.example"');
    expect(text).not.toContain(tunnel.url);
    expect(sri(text)).toBe(libraryIntegrity('https://shop-tunnel.example', 'checkout'));
  });

  it('prints script tags with the integrity hash of the served bytes when paylink sandbox starts', async () => {
    let out = '';
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        out += String(chunk);
        done();
      },
    });
    const running = await runSandbox(
      { port: '0', host: '127.0.0.1', db: ':memory:' },
      new Ui({ stdout: sink, stderr: new Writable({ write: (_c, _e, d) => d() }) }),
    );
    try {
      const text = await (await fetch(`${running.url}/paymentlink/${LIBRARY_VERSION}/paymentlink-library.js`)).text();
      expect(out).toContain(
        `<script src="${running.url}/paymentlink/${LIBRARY_VERSION}/paymentlink-library.js" integrity="${sri(text)}" crossorigin="anonymous"></script>`,
      );
      const checkout = await (await fetch(`${running.url}/checkout/${LIBRARY_VERSION}/checkout-library.js`)).text();
      expect(out).toContain(`integrity="${sri(checkout)}"`);
      // A pasted tag breaks when the port changes: the banner says so beside the tags.
      expect(out).toContain(`the integrity hash is for ${running.url}: copy the tags again when the port or --public-url changes`);
    } finally {
      await running.close();
    }
  });

  it('serves a demo merchant page for a link and for a checkout, loading the versioned script with its hash', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const linkId = link.body.body.link.linkId as string;
    const page = await fetch(`${sb.url}/__sandbox/demo/${linkId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(
      `<script src="${sb.url}/paymentlink/${LIBRARY_VERSION}/paymentlink-library.js" integrity="${libraryIntegrity(sb.url, 'paymentlink')}" crossorigin="anonymous"></script>`,
    );
    expect(html).toContain(`&quot;${linkId}&quot;`);

    const checkout = await sb.post('/gateway/v3/checkouts', checkoutRequest());
    const checkoutId = checkout.body.body.checkout.checkoutId as string;
    const checkoutHtml = await (await fetch(`${sb.url}/__sandbox/demo/${checkoutId}`)).text();
    expect(checkoutHtml).toContain(`/checkout/${LIBRARY_VERSION}/checkout-library.js`);
    expect(checkoutHtml).toContain('checkout-error');
  });

  it('answers the demo page for an unknown id with a 404 HTML page that never echoes the id as markup', async () => {
    const res = await fetch(`${sb.url}/__sandbox/demo/${encodeURIComponent('<b>nope</b>')}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    const text = await res.text();
    expect(text).not.toContain('<b>nope</b>');
  });
});
