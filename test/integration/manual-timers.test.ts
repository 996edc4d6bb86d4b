/**
 * Injected timers (domain/timers.ts, docs/testing.md "Timers"): a sandbox started on ManualTimers waits for
 * nothing in real time. A refused webhook is retried when the test moves those timers past the retry wait
 * (5 s on the standard schedule), never before, and without the test sleeping; a hanging receiver's attempt
 * times out when they pass the attempt's timeout.
 */
import { createServer, type ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualTimers } from '../../src/sandbox/domain/timers.js';
import { until } from '../helpers/cli.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const timers = new ManualTimers();
const sb = useSandbox({ timers });

const CARD = { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' };

function pay(businessId: string, notifyUrl: string) {
  return sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('timers'), notifyUrl }, card: CARD },
  });
}

/** The delivery of the payment's only event, polled over the admin API until `done` holds for it. */
async function deliveryOf(paymentId: string, done: (d: { status: string; log: unknown[] }) => boolean) {
  let delivery: { status: string; log: Array<{ status: number | null; error?: string }> } | undefined;
  for (let i = 0; i < 2000 && (delivery === undefined || !done(delivery)); i++) {
    const events = (await sb.get(`/__sandbox/events?paymentId=${paymentId}`)).body.body.events as Array<{ id: string }>;
    if (events.length > 0) delivery = (await sb.get(`/__sandbox/events/${events[0]!.id}`)).body.body.event.deliveries[0];
    if (delivery === undefined || !done(delivery)) await new Promise((r) => setImmediate(r));
  }
  expect(delivery && done(delivery), JSON.stringify(delivery)).toBe(true);
  return delivery!;
}

describe('a sandbox on manual timers', () => {
  const rx = startReceiver();
  afterAll(async () => (await rx).close());

  it('retries a refused webhook only when the timers pass the retry wait', async () => {
    const receiver = await rx;
    receiver.answer((_d, i) => (i === 0 ? 503 : 200));
    const paid = await pay('timers-retry', receiver.url);
    expect(paid.body.result, paid.text).toBe(0);
    const first = await deliveryOf(paid.body.body.id, (d) => d.log.length === 1);
    expect(first.status).toBe('pending');
    expect(receiver.deliveries).toHaveLength(1);

    // Not yet: the first retry of the standard schedule waits 5 s.
    await timers.advance(4_000);
    expect(receiver.deliveries).toHaveLength(1);
    await timers.advance(1_100);
    await receiver.waitFor(2);
    const done = await deliveryOf(paid.body.body.id, (d) => d.status === 'delivered');
    expect(done.log.map((a) => (a as { status: number }).status)).toEqual([503, 200]);
  });

  it('times an attempt out when the timers pass its timeout, and a hanging receiver is retried later', async () => {
    const hung: ServerResponse[] = [];
    const hanging = createServer((_req, res) => void hung.push(res));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hooks`;
      const paid = await pay('timers-hang', url);
      await until(() => hung.length === 1);
      await timers.advance(10_000);
      const timedOut = await deliveryOf(paid.body.body.id, (d) => d.log.length === 1);
      expect(timedOut.log[0]).toMatchObject({ status: null, error: 'timed out after 10000 ms' });
      expect(hung).toHaveLength(1);
      await timers.advance(5_100);
      await until(() => hung.length === 2);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });
});
