/**
 * Hosts mode (docs/drop-in.md): any listener answers a request whose Host is a provider host as the
 * provider, with the provider's addresses in the answer; `--https` serves a certificate from paylink's
 * authority that names the provider's hosts, so a hosts-file entry or a container network alias works.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authorityFiles } from '../../src/sandbox/drop-in/authority.js';

const linkBody = JSON.stringify({
  header: { businessId: 'hosts-biz' },
  body: {
    transaction: { amount: 4, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: 'hosts-mode-1' },
    link: { duration: 'P1D', brandIds: [1010], returnUrl: 'https://shop.example/r' },
  },
});

function post(url: string, host: string, ca?: string): Promise<{ status: number; body: any }> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        host: '127.0.0.1',
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { host, 'content-type': 'application/json' },
        ...(ca ? { ca, servername: host.replace(/:\d+$/, '') } : {}),
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(linkBody);
  });
}

describe('hosts mode', () => {
  let dir: string;
  let plain: RunningSandbox;
  let secure: RunningSandbox;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paylink-hosts-'));
    plain = await startSandbox({ port: 0, db: ':memory:' });
    secure = await startSandbox({ port: 0, db: ':memory:', https: true, authority: authorityFiles({ XDG_CONFIG_HOME: dir }) });
  });
  afterAll(async () => {
    await plain?.close();
    await secure?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers Host: stagconnect... on a plain listener with the provider's addresses, keeping the port", async () => {
    const port = new URL(plain.url).port;
    const created = await post(`${plain.url}/gateway/v3/paymentlinks`, `stagconnect.acehubpaymentservices.com:${port}`);
    expect(created.status).toBe(200);
    expect(created.body.body.link.redirect.url).toBe(`http://stag.checkout-web.dta.payvision.app:${port}/paymentlinks/${created.body.body.link.linkId}`);
  });

  it("serves the authority's certificate for the provider hosts with --https, trusted with its certificate only", async () => {
    const port = new URL(secure.url).port;
    const ca = readFileSync(secure.authorityFile!, 'utf8');
    expect(secure.certificate).toBe(ca);
    const created = await post(`${secure.url}/gateway/v3/paymentlinks`, `stagconnect.acehubpaymentservices.com:${port}`, ca);
    expect(created.status).toBe(200);
    expect(created.body.body.link.redirect.url).toBe(`https://stag.checkout-web.dta.payvision.app:${port}/paymentlinks/${created.body.body.link.linkId}`);
    // A name the authority may not sign for is not in the certificate: the client refuses it.
    await expect(post(`${secure.url}/gateway/v3/paymentlinks`, `example.com:${port}`, ca)).rejects.toThrow(/altnames|does not match|Hostname/i);
  });

  it('still refuses other names with 421 (DNS rebinding), as before', async () => {
    const created = await post(`${plain.url}/gateway/v3/paymentlinks`, 'evil.example');
    expect(created.status).toBe(421);
  });
});
