import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { authorityFiles } from '../../src/sandbox/drop-in/authority.js';
import { linkRequest, checkoutRequest, requestJson } from '../helpers/sandbox.js';

function httpsJson(url: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: body === undefined ? 'GET' : 'POST', rejectUnauthorized: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('listening options', () => {
  it("serves HTTPS with a certificate from paylink's local authority, and hands out https addresses", async () => {
    const config = mkdtempSync(join(tmpdir(), 'paylink-https-ca-'));
    const running = await startSandbox({ port: 0, db: ':memory:', https: true, authority: authorityFiles({ XDG_CONFIG_HOME: config }) });
    try {
      expect(running.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const created = await httpsJson(`${running.url}/gateway/v3/paymentlinks`, linkRequest());
      expect(created.status).toBe(200);
      expect(created.body.body.link.redirect.url).toBe(`${running.url}/gateway/v3/web/paymentlinks/${created.body.body.link.linkId}`);
      expect(running.certificate).toBe(readFileSync(join(config, 'paylink', 'ca', 'ca.pem'), 'utf8'));
    } finally {
      await running.close();
      rmSync(config, { recursive: true, force: true });
    }
  });

  it('uses --public-url in every redirect.url and requires the admin token on /__sandbox/', async () => {
    const running = await startSandbox({ port: 0, db: ':memory:', publicUrl: 'https://tunnel.example.com/' });
    try {
      expect(running.publicUrl).toBe('https://tunnel.example.com');
      const post = (path: string, body: unknown) =>
        requestJson(`${running.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const link = await post('/gateway/v3/paymentlinks', linkRequest());
      expect(link.body.body.link.redirect.url).toBe(`https://tunnel.example.com/gateway/v3/web/paymentlinks/${link.body.body.link.linkId}`);
      const checkout = await post('/gateway/v3/checkouts', checkoutRequest());
      expect(checkout.body.body.checkout.redirect.url).toBe(`https://tunnel.example.com/gateway/v3/web/checkouts/${checkout.body.body.checkout.checkoutId}`);
      const read = await requestJson(`${running.url}/gateway/v3/paymentlinks/${link.body.body.link.linkId}?businessId=biz-1`);
      expect(read.body.body.link.redirect.url).toMatch(/^https:\/\/tunnel\.example\.com\//);
      expect(running.adminToken).toBeTruthy();
      expect((await requestJson(`${running.url}/__sandbox/health`)).status).toBe(401);
      const withToken = await requestJson(`${running.url}/__sandbox/health`, { headers: { authorization: `Bearer ${running.adminToken}` } });
      expect(withToken.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('refuses to start on a port that is taken instead of moving to another one', async () => {
    const first = await startSandbox({ port: 0, db: ':memory:' });
    try {
      const port = Number(new URL(first.url).port);
      await expect(startSandbox({ port, db: ':memory:' })).rejects.toMatchObject({
        code: 'EADDRINUSE',
        message: `Port ${port} on 127.0.0.1 is already in use`,
      });
    } finally {
      await first.close();
    }
  });
});
