/**
 * Proxy mode (docs/drop-in.md): the sandbox answers the provider's hosts through `https_proxy` over TLS
 * with a certificate from paylink's local authority, at the provider's addresses; every other target is
 * refused at once with a clear message, never resolved nor contacted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authorityFiles } from '../../src/sandbox/drop-in/authority.js';
import { absoluteThrough, connectThrough, fetchThrough } from '../helpers/proxy-client.js';

const STAGING = 'https://stagconnect.acehubpaymentservices.com';
let dir: string;
let running: RunningSandbox;
let ca: string;

function linkRequest(): object {
  return {
    header: { businessId: 'drop-in-biz' },
    body: {
      transaction: { amount: 12.5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: `drop-in-${Date.now()}` },
      link: { duration: 'P1D', brandIds: [1010], returnUrl: 'https://shop.test/return' },
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paylink-proxy-'));
  running = await startSandbox({ port: 0, db: ':memory:', proxy: 0, authority: authorityFiles({ XDG_CONFIG_HOME: dir }) });
  ca = readFileSync(running.authorityFile!, 'utf8');
});
afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('paylink sandbox --proxy', () => {
  it('listens on 127.0.0.1 and names its authority', () => {
    expect(running.proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.authorityFile).toBe(join(dir, 'paylink', 'ca', 'ca.pem'));
  });

  it("answers the staging API over TLS and hands out the provider's addresses", async () => {
    const created = await fetchThrough(running.proxyUrl!, ca, `${STAGING}/gateway/v3/paymentlinks`, { body: linkRequest() });
    expect(created.status).toBe(200);
    const link = created.body.body.link;
    expect(link.redirect.url).toBe(`https://stag.checkout-web.dta.payvision.app/paymentlinks/${link.linkId}`);
    const read = await fetchThrough(running.proxyUrl!, ca, `${STAGING}/gateway/v3/paymentlinks/${link.linkId}?businessId=drop-in-biz`);
    expect(read.status).toBe(200);
    expect(read.body.body.link.linkId).toBe(link.linkId);
    // The page at the provider's address is the sandbox's hosted page of that link.
    const page = await fetchThrough(running.proxyUrl!, ca, link.redirect.url);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it("leaves the sandbox's own addresses as they were for requests that did not use a provider host", async () => {
    const created = await fetch(`${running.url}/gateway/v3/paymentlinks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(linkRequest()),
    });
    const body = (await created.json()) as any;
    expect(body.body.link.redirect.url).toBe(`${running.url}/gateway/v3/web/paymentlinks/${body.body.link.linkId}`);
  });

  it('answers an absolute-URI request for a provider host in the clear, as the provider', async () => {
    const answer = await absoluteThrough(running.proxyUrl!, 'http://stagconnect.acehubpaymentservices.com/gateway/v3/paymentlinks/none?businessId=drop-in-biz');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text).result).not.toBe(0);
  });

  it('serves the library at its CDN path, targeting the staging API', async () => {
    const script = await fetchThrough(running.proxyUrl!, ca, 'https://cdn.payvision.com/checkout/1.0.2/checkout-library.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain(STAGING);
  });

  describe('refuses every other host without resolving or contacting it', () => {
    let counter: Server;
    let counterPort: number;
    let connections = 0;
    beforeAll(async () => {
      counter = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
      counterPort = (counter.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => counter.close(() => resolve())));

    it.each(['example.com:443', 'made-up-shop.invalid:443', 'stagconnect.acehubpaymentservices.com.evil.test:443'])(
      'refuses CONNECT %s with a 403 that says why',
      async (target) => {
        const answer = await connectThrough(running.proxyUrl!, target);
        expect(answer.status).toBe(403);
        expect(answer.text).toContain(`paylink proxy refused ${target}`);
        expect(answer.text).toContain('never connects anywhere else');
      },
    );

    it('refuses an IP address, by CONNECT and by absolute URI, and never connects to it', async () => {
      const tunnel = await connectThrough(running.proxyUrl!, `127.0.0.1:${counterPort}`);
      expect(tunnel.status).toBe(403);
      const plain = await absoluteThrough(running.proxyUrl!, `http://127.0.0.1:${counterPort}/`);
      expect(plain.status).toBe(403);
      expect(plain.text).toContain(`paylink proxy refused 127.0.0.1:${counterPort}`);
      const named = await absoluteThrough(running.proxyUrl!, 'http://example.com/');
      expect(named.status).toBe(403);
      // The listener given as the target counts connections (a direct one counts), and the proxy made none.
      const direct = connect(counterPort, '127.0.0.1');
      direct.on('error', () => undefined);
      await expect.poll(() => connections).toBe(1);
      direct.destroy();
      expect(connections).toBe(1);
    });

    it('holds no code that could resolve a name or open a connection', () => {
      const source = readFileSync(new URL('../../src/sandbox/drop-in/proxy.ts', import.meta.url), 'utf8');
      expect(source).not.toMatch(/from 'node:(dns|net|tls)'/);
      expect(source).not.toMatch(/\b(lookup|connect)\s*\(/);
    });
  });
});
