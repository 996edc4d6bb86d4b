/**
 * Issue 32, item 1: with more than 16,384 deliveries due to one hanging endpoint, no other business's event
 * arrived (the worker read at most 64 x 256 due deliveries, oldest first, and every one was the hanging
 * endpoint's). The worker now picks per destination (docs/reliability.md, "Webhooks: fairness at any
 * backlog"): a destination at its share is passed over without reading its backlog. 20,000 events to a
 * receiver that never answers are written in one write through the event service (as `paylink events send`
 * makes them); another business's payment event then arrives while the hanging one still holds its backlog.
 * What is asserted is order and progress, never a time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { until } from '../helpers/cli.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// The standard schedule: a hung attempt holds its slot for the whole 10 s timeout.
const sb = useSandbox();

const BACKLOG = 20_000;

test("20,000 deliveries due to a hanging endpoint do not keep another business's event from being delivered", { timeout: 120_000 }, async () => {
  const hung: Array<{ req: IncomingMessage; res: ServerResponse }> = [];
  const hanging = createServer((req, res) => {
    hung.push({ req, res });
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  const hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hooks`;
  const healthy = await startReceiver();
  const sandbox = sb.running.sandbox;
  const pendingToHanging = () =>
    sandbox.store.db.prepare("SELECT count(*) FROM deliveries WHERE status = 'pending' AND url LIKE ?").pluck().get(`${hangingUrl}%`) as number;
  try {
    await sandbox.store.write(() => {
      for (let i = 0; i < BACKLOG; i++) {
        sandbox.events.custom({
          type: 'Transaction.Update',
          payload: { result: 0, body: { id: `hang-${i}` } },
          businessId: 'hang-a',
          url: `${hangingUrl}?order=${i}`,
        });
      }
    });
    // The hanging receiver holds its share of slots.
    await until(() => hung.length >= 8, 15_000);

    const paid = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: 'healthy-b' },
      body: {
        transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('fair'), notifyUrl: healthy.url },
        card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Ada Lovelace' },
      },
    });
    expect(paid.body.result, paid.text).toBe(0);
    const [arrived] = await healthy.waitFor(1, () => true, 60_000);
    expect(arrived!.body.Payload.body.id).toBe(paid.body.body.id);

    // Delivered while the hanging endpoint still holds nearly all of its backlog, and never more than its share of slots.
    expect(pendingToHanging()).toBeGreaterThanOrEqual(BACKLOG - 16);
    expect(hung.length).toBeLessThanOrEqual(8);
  } finally {
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
    await healthy.close();
  }
});
