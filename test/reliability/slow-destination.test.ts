/**
 * Issue 22, item 2: business A made 40 payments whose notifyUrl hangs; business B's webhook then arrived
 * after 74 s (deliveries shared 8 slots, oldest first). Now each destination (scheme, host, port) holds at
 * most its share of slots (8), so B's event goes out while A's hang. Real receivers on port 0: A never
 * answers, B answers at once. Asserted: B's event arrives while A's share is taken and its other deliveries
 * wait (order and progress; the delay is printed, never bounded: test/reliability/hanging-backlog.test.ts
 * holds the same at 20,000).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { until } from '../helpers/cli.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// The standard schedule: a hung attempt holds its slot for the whole 10 s timeout.
const sb = useSandbox();

const CARD = { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Ada Lovelace' };

function pay(businessId: string, notifyUrl: string) {
  return sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('slow'), notifyUrl }, card: CARD },
  });
}

test('a destination that hangs holds at most its share; another destination gets its event while it hangs', async () => {
  const hung: Array<{ req: IncomingMessage; res: ServerResponse }> = [];
  let mostAtOnce = 0;
  const hanging = createServer((req, res) => {
    hung.push({ req, res });
    const open = hung.filter((h) => !h.res.destroyed && !h.req.destroyed).length;
    mostAtOnce = Math.max(mostAtOnce, open);
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  const slowUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hooks`;
  const fast = await startReceiver();
  try {
    for (let i = 0; i < 40; i++) expect((await pay('slow-a', `${slowUrl}?order=${i}`)).body.result).toBe(0);
    // A's share is taken and it hangs.
    await until(() => hung.length >= 8);
    expect(hung.length).toBe(8);

    const started = Date.now();
    const paid = await pay('slow-b', fast.url);
    expect(paid.body.result).toBe(0);
    const [arrived] = await fast.waitFor(1, () => true, 15_000);
    const ms = arrived!.at - started;
    console.log(`B's event arrived ${ms} ms after its payment while A's 40 deliveries hang (${hung.length} of them in flight, at most ${mostAtOnce} at once)`);
    // It arrived while A's first 8 still hang and A's 32 others wait: A never held more than its share.
    expect(hung.length).toBe(8);
    expect(mostAtOnce).toBeLessThanOrEqual(8);
  } finally {
    hanging.closeAllConnections();
    await new Promise<void>((resolve) => hanging.close(() => resolve()));
    await fast.close();
  }
});
