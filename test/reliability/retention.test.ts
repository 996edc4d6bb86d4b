/**
 * Issue 32, item 15: every store has a bound or a retention a user can set, and `/__sandbox/health` and
 * the dashboard show what each holds. Events beyond the newest `eventsKept` go once settled (with their
 * deliveries), an event with a delivery still pending stays; snapshots past `snapshotsMaxBytes` are refused.
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const KEPT = 5;
const sb = useSandbox({ eventsKept: KEPT, snapshotsMaxBytes: 3 * 1024 * 1024 });
const BIZ = 'biz-retention';

async function pay(notifyUrl?: string): Promise<string> {
  const res = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('keep'), ...(notifyUrl ? { notifyUrl } : {}) },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' },
    },
  });
  expect(res.status).toBe(200);
  return res.body.body.transaction.id as string;
}

async function eventsOf(paymentId: string): Promise<unknown[]> {
  return (await sb.get(`/__sandbox/events?paymentId=${paymentId}`)).body.body.events as unknown[];
}

describe('retention', () => {
  it('keeps the newest events, and an older one whose delivery is still pending', async () => {
    // Port 9 on loopback refuses the connection: the delivery stays pending for its next retry (seconds away).
    const pending = await pay('http://127.0.0.1:9/notify');
    const first = await pay();
    for (let i = 0; i < 4 * KEPT; i++) await pay();
    expect(await eventsOf(first)).toEqual([]);
    expect((await eventsOf(pending)).length).toBe(1);
    const health = await sb.get('/__sandbox/health');
    const storage = health.body.body.storage;
    // At most the newest KEPT, the pending one, and those recorded since the last pruning (every KEPT events).
    expect(storage.events.count).toBeLessThanOrEqual(2 * KEPT + 1);
    expect(storage.events.kept).toBe(KEPT);
    expect(storage.deliveries.pending).toBeGreaterThanOrEqual(1);
  });

  it('shows every store with its size and bound in /__sandbox/health and on the dashboard', async () => {
    const storage = (await sb.get('/__sandbox/health')).body.body.storage;
    expect(storage).toMatchObject({
      databaseBytes: expect.any(Number),
      events: { count: expect.any(Number), kept: KEPT },
      deliveries: { count: expect.any(Number), pending: expect.any(Number) },
      requestLog: { rows: expect.any(Number), bytes: expect.any(Number), maxRows: 10_000, maxBytes: 32 * 1024 * 1024 },
      formTokens: { count: expect.any(Number) },
      snapshots: { count: 0, bytes: 0, maxBytes: 3 * 1024 * 1024 },
    });
    expect(storage.databaseBytes).toBeGreaterThan(0);
    const overview = await sb.get('/__sandbox/dashboard');
    expect(overview.text).toContain('Storage');
    expect(overview.text).toContain('request log');
  });

  it('refuses a snapshot save past snapshotsMaxBytes with 400, naming the limit, and keeps the others', async () => {
    const first = await sb.post('/__sandbox/snapshots', { name: 'one' });
    expect(first.status).toBe(200);
    const size = first.body.body.snapshot.bytes as number;
    let saved = 1;
    let refused: { status: number; body: any } | undefined;
    while (refused === undefined && saved < 100) {
      const res = await sb.post('/__sandbox/snapshots', { name: `n${saved}` });
      if (res.status === 200) saved += 1;
      else refused = res;
    }
    expect(saved * size).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(refused?.status).toBe(400);
    expect(refused?.body.body.error.code).toBe(1002);
    expect(refused?.body.body.error.message).toContain('past their limit of 3.0 MiB');
    // Replacing a snapshot of the same name still fits.
    expect((await sb.post('/__sandbox/snapshots', { name: 'one' })).status).toBe(200);
    expect((await sb.get('/__sandbox/snapshots')).body.body.snapshots.length).toBe(saved);
  });
});
