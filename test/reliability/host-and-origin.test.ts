/**
 * Issue 16, item 6: a DNS-rebinding page cannot drive the sandbox. Requests naming another host get 421
 * before any route runs; state-changing API requests from another origin get 403. Sent with node:http,
 * which (unlike fetch) lets a test set Host and Origin as a browser on evil.example would.
 */
import { request } from 'node:http';
import { expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // an HTML page
          }
          resolve({ status: res.statusCode!, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function paidPayment(): Promise<string> {
  const paid = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: 'biz-host' },
    body: {
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: uniqueCode('host') },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' },
    },
  });
  expect(paid.body.result).toBe(0);
  return paid.body.body.id ?? paid.body.body.transaction.id;
}

const refund = (id: string) => ({
  header: { businessId: 'biz-host' },
  body: { transaction: { amount: 20, currencyCode: 'EUR', trackingCode: uniqueCode('refund') } },
});

test('a refund with Host evil.example answers 421 and refunds nothing; GETs and pages too', async () => {
  const id = await paidPayment();
  const port = new URL(sb.url).port;
  const attack = await send(
    sb.url,
    'POST',
    `/gateway/v3/payments/${id}/refund`,
    { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
    refund(id),
  );
  expect(attack.status).toBe(421);
  expect(attack.body.body.error.message).toMatch(/--allowed-host evil\.example/);
  expect((await send(sb.url, 'GET', `/gateway/v3/payments/${id}?businessId=biz-host`, { host: 'evil.example' })).status).toBe(421);
  expect((await send(sb.url, 'GET', '/__sandbox/requests', { host: 'evil.example' })).status).toBe(421);
  // Nothing was refunded: the whole amount can still be refunded by a server.
  const full = await sb.post(`/gateway/v3/payments/${id}/refund`, refund(id));
  expect([full.status, full.body.result]).toEqual([200, 0]);
});

test('a refund from another origin (Origin evil.example, no Sec-Fetch-Site) answers 403; loopback names, IPs and no Origin pass', async () => {
  const id = await paidPayment();
  const port = new URL(sb.url).port;
  for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `http://localhost:${Number(port) + 1}`]) {
    const refused = await send(sb.url, 'POST', `/gateway/v3/payments/${id}/refund`, { host: `127.0.0.1:${port}`, origin }, refund(id));
    expect([origin, refused.status]).toEqual([origin, 403]);
  }
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`, `[::1]:${port}`]) {
    expect((await send(sb.url, 'GET', `/gateway/v3/payments/${id}?businessId=biz-host`, { host })).status).toBe(200);
  }
  // The sandbox's own origin may post (its hosted pages do), and a server sends no Origin.
  const same = await send(sb.url, 'POST', `/gateway/v3/payments/${id}/refund`, { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }, refund(id));
  expect(same.status).toBe(200);
});

test('--allowed-host and the public URL add host names; others stay refused', async () => {
  const running = await startSandbox({ port: 0, db: ':memory:', allowedHosts: ['dev.example.test', '.preview.test'], publicUrl: 'https://tunnel.example.net' });
  try {
    const path = '/gateway/v3/paymentlinks/none?businessId=b';
    for (const host of ['dev.example.test', 'pr-1.preview.test', 'preview.test', 'tunnel.example.net']) {
      expect([host, (await send(running.url, 'GET', path, { host })).status]).toEqual([host, 404]);
    }
    for (const host of ['example.test', 'evil.dev.example.test.attacker', 'tunnel.example.net.evil']) {
      expect([host, (await send(running.url, 'GET', path, { host })).status]).toEqual([host, 421]);
    }
  } finally {
    await running.close();
  }
});

test('Origin null is cross-site: /__sandbox/reset, /__sandbox/clock and a bank page button answer 403 and change nothing', async () => {
  const port = new URL(sb.url).port;
  const linkId = (await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'biz-host' }))).body.body.link.linkId as string;
  const reset = await send(sb.url, 'POST', '/__sandbox/reset', { host: `127.0.0.1:${port}`, origin: 'null', 'content-type': 'text/plain' });
  expect(reset.status).toBe(403);
  const clock = await send(sb.url, 'POST', '/__sandbox/clock', { host: `127.0.0.1:${port}`, origin: 'null' }, { advance: '1d' });
  expect(clock.status).toBe(403);
  expect((await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-host`)).status).toBe(200);
  expect((await sb.get('/__sandbox/clock')).body.body.offsetMs).toBeLessThan(60_000);

  const bank = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: 'biz-host' },
    body: {
      transaction: { amount: 7, currencyCode: 'EUR', trackingCode: uniqueCode('bank'), brandId: 3010 },
      bank: { countryCode: 'NL', issuerId: 'INGBNL2A' },
    },
  });
  const bankId = bank.body.body.transaction.id as string;
  const before = await sb.get(`/gateway/v3/payments/${bankId}?businessId=biz-host`);
  const press = await new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/gateway/v3/web/bank/${bankId}`,
        method: 'POST',
        headers: { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
    req.end('action=cancel');
  });
  expect(press).toBe(403);
  const after = await sb.get(`/gateway/v3/payments/${bankId}?businessId=biz-host`);
  expect(after.body.result).toBe(before.body.result);
  expect(after.body.result).not.toBe(-10);
});
