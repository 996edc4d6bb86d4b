/**
 * Issue 22, item 4: a webhook delivery never reaches the sandbox's own admin API, dashboard or API. Started
 * with `--allowed-host tunnel.test` and no admin token, an anonymous payment whose notifyUrl was
 * `http://127.0.0.1:<port>/__sandbox/reset` wiped every business; an endpoint at its own
 * `/__sandbox/events/<id>/resend` looped 1,765 times in 10 s. Now a delivery to any spelling of the
 * sandbox's address is not sent (failed at once, never retried), and a delivery that reaches a sandbox
 * anyway (another sandbox, a public URL) carries `x-paylink-delivery`, which every sandbox refuses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { eventually, linkRequest, requestJson, uniqueCode } from '../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'paylink-own-'));
let a: RunningSandbox;
beforeAll(async () => {
  a = await startSandbox({ port: 0, db: join(dir, 'a.db'), allowedHosts: ['tunnel.test'], webhookRetry: 'fast' });
});
afterAll(async () => {
  await a.close();
  rmSync(dir, { recursive: true, force: true });
});

const CARD = { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Ada Lovelace' };

function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return requestJson(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

function pay(base: string, businessId: string, notifyUrl?: string) {
  return post(base, '/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('own'), ...(notifyUrl ? { notifyUrl } : {}) }, card: CARD },
  });
}

type DeliveryView = { status: string; attempts: number; note: string | null; log?: Array<{ status: number | null; error: string | null }> };

/** The deliveries of the payment's first event, once none is pending. */
async function settledDeliveries(base: string, paymentId: string, ms = 10_000): Promise<DeliveryView[]> {
  const events = await eventually(
    async () => (await requestJson(`${base}/__sandbox/events?paymentId=${paymentId}`)).body.body.events as Array<{ id: string; deliveries: DeliveryView[] }>,
    (list) => (list[0]?.deliveries.length ?? 0) > 0 && list[0]!.deliveries.every((d) => d.status !== 'pending'),
    ms,
  );
  return (await requestJson(`${base}/__sandbox/events/${events[0]!.id}`)).body.body.event.deliveries as DeliveryView[];
}

test('a notifyUrl naming the sandbox in any spelling is not sent: failed at once, nothing reset, the API path too', async () => {
  const port = new URL(a.url).port;
  const link = await post(a.url, '/gateway/v3/paymentlinks', linkRequest({ businessId: 'own-keep' }));
  const linkId = link.body.body.link.linkId as string;
  const spellings = [
    `http://127.0.0.1:${port}/__sandbox/reset`,
    `http://2130706433:${port}/__sandbox/reset`,
    `http://0x7f000001:${port}/__sandbox/reset`,
    `http://0177.0.0.1:${port}/__sandbox/reset`,
    `http://127.1:${port}/__sandbox/reset`,
    `http://[::ffff:127.0.0.1]:${port}/__sandbox/reset`,
    `http://[::1]:${port}/__sandbox/reset`,
    `http://localhost:${port}/__sandbox/reset`,
    `http://LOCALHOST.:${port}/__sandbox/reset`,
    `http://0.0.0.0:${port}/__sandbox/reset`,
    `http://127.0.0.1:${port}/`,
    `http://127.0.0.1:${port}/gateway/v3/payments`,
  ];
  for (const notifyUrl of spellings) {
    const paid = await pay(a.url, 'own-attacker', notifyUrl);
    expect(paid.body.result, paid.text).toBe(0);
    const deliveries = await settledDeliveries(a.url, paid.body.body.transaction.id as string);
    expect([notifyUrl, deliveries.map((d) => [d.status, d.attempts])]).toEqual([notifyUrl, [['failed', 1]]]);
    expect(deliveries[0]!.note).toMatch(/not sent: .*is this sandbox; deliveries never go to the sandbox itself/);
    expect(deliveries[0]!.log![0]!.status).toBeNull();
  }
  // Nothing was reset: the link of another business is still there, and no reset was ever answered.
  expect((await requestJson(`${a.url}/gateway/v3/paymentlinks/${linkId}?businessId=own-keep`)).status).toBe(200);
  const logged = (await requestJson(`${a.url}/__sandbox/requests?path=/__sandbox/reset&limit=100`)).body.body.requests as Array<{ path: string }>;
  // The log lists each delivery attempt (its path is the URL); no request to /__sandbox/reset arrived.
  expect(logged.length).toBeGreaterThan(0);
  expect(logged.filter((r) => r.path === '/__sandbox/reset')).toEqual([]);
});

test('an endpoint at the sandbox own /__sandbox/events/<id>/resend does not loop', async () => {
  const port = new URL(a.url).port;
  const first = await pay(a.url, 'own-loop');
  const eventId = (await requestJson(`${a.url}/__sandbox/events?paymentId=${first.body.body.transaction.id}`)).body.body.events[0].id as string;
  const hook = await post(a.url, '/__sandbox/webhooks', { businessId: 'own-loop', url: `http://127.0.0.1:${port}/__sandbox/events/${eventId}/resend` });
  expect(hook.status).toBe(200);
  expect((await post(a.url, `/__sandbox/events/${eventId}/resend`, {})).status).toBe(200);
  // Once the resend's delivery is settled, a loop would already have made the next one.
  const event = await eventually(
    async () => (await requestJson(`${a.url}/__sandbox/events/${eventId}`)).body.body.event as { deliveries: DeliveryView[] },
    (e) => e.deliveries.length > 0 && e.deliveries.every((d) => d.status !== 'pending'),
  );
  // The one resend asked for, not sent; before, each delivery resent the event again (1,765 in 10 s).
  expect(event.deliveries.map((d) => [d.status, d.attempts])).toEqual([['failed', 1]]);
});

test('a delivery that reaches a sandbox anyway (from another sandbox) carries x-paylink-delivery and is refused with 403; nothing reset', async () => {
  const b = await startSandbox({ port: 0, db: join(dir, 'b.db'), webhookRetry: [50] });
  try {
    const link = await post(a.url, '/gateway/v3/paymentlinks', linkRequest({ businessId: 'own-keep-2' }));
    const linkId = link.body.body.link.linkId as string;
    const paid = await pay(b.url, 'own-other', `${a.url}/__sandbox/reset`);
    const deliveries = await settledDeliveries(b.url, paid.body.body.transaction.id as string);
    expect(deliveries.map((d) => [d.status, d.log!.map((l) => l.status)])).toEqual([['failed', [403, 403]]]);
    expect((await requestJson(`${a.url}/gateway/v3/paymentlinks/${linkId}?businessId=own-keep-2`)).status).toBe(200);
    // The mark alone is refused on the admin API, the dashboard and the API.
    const mark = { 'x-paylink-delivery': '1' };
    expect((await post(a.url, '/__sandbox/reset', {}, mark)).status).toBe(403);
    expect((await requestJson(`${a.url}/`, { headers: mark })).status).toBe(403);
    expect((await requestJson(`${a.url}/__sandbox/dashboard/requests`, { headers: mark })).status).toBe(403);
    expect((await post(a.url, '/__sandbox/clock', { advance: '1d' }, mark)).status).toBe(403);
    expect((await requestJson(`${a.url}/gateway/v3/paymentlinks/${linkId}?businessId=own-keep-2`)).status).toBe(200);
  } finally {
    await b.close();
  }
});

test('a delivery to the sandbox public URL is not sent, without asking DNS', async () => {
  const c = await startSandbox({ port: 0, db: ':memory:', publicUrl: 'https://tunnel.example.test', webhookRetry: 'fast' });
  try {
    const paid = await pay(c.url, 'own-public', 'https://tunnel.example.test/__sandbox/reset');
    const deliveries = await requestJson(`${c.url}/__sandbox/events?paymentId=${paid.body.body.transaction.id}`, {
      headers: { authorization: `Bearer ${c.adminToken}` },
    });
    expect(deliveries.status).toBe(200);
    const failed = await eventually(
      async () =>
        (await requestJson(`${c.url}/__sandbox/events?paymentId=${paid.body.body.transaction.id}`, { headers: { authorization: `Bearer ${c.adminToken}` } }))
          .body.body.events[0]?.deliveries[0] as DeliveryView | undefined,
      (d) => d?.status === 'failed',
    );
    expect(failed!.note).toMatch(/https:\/\/tunnel\.example\.test is this sandbox/);
  } finally {
    await c.close();
  }
});
