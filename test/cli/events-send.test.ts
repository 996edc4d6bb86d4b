/**
 * `paylink events send` as a real process against a real sandbox: an arbitrary payload arrives at a real
 * receiver signed exactly as real events are (the receiver checks the HS256 JWT and the crc32 claim itself),
 * through the same outbox: retried after a failure, every attempt recorded and visible.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, useSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/cli.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

const SECRET = 'events-send-secret-0123456789';
const sb = useSandbox({ webhookSecret: SECRET, webhookRetry: 'fast' });
const dir = mkdtempSync(join(tmpdir(), 'paylink-events-send-'));

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { child, out, err } = spawnCli([...args, '--base-url', sb.url]);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out: out(), err: err() })));
}

const PAYLOAD = {
  result: -2,
  description: 'Failed',
  header: { requestTimestamp: '2030-01-01T00:00:00Z' },
  body: {
    id: 'custom-payment-1',
    transaction: { id: 'custom-payment-1', action: 'payment', amount: 13.37, currencyCode: 'EUR', trackingCode: 'order-odd' },
    error: { code: 3006, message: 'Something no scenario makes.' },
  },
};

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  writeFileSync(join(dir, 'payload.json'), JSON.stringify(PAYLOAD));
});
afterAll(() => rx.close());

describe('paylink events send', () => {
  it('signs an arbitrary payload as real events are and delivers it through the outbox, retrying a failure', async () => {
    rx.answer((d, i) =>
      d.body?.Payload?.body?.id === 'custom-payment-1' && rx.deliveries.filter((x) => x.body?.Payload?.body?.id === 'custom-payment-1').length === 1
        ? 500
        : 200,
    );
    const sent = await run(['events', 'send', '--type', 'Transaction.Update', '--payload', join(dir, 'payload.json'), '--to', rx.url, '--json']);
    expect(sent.code, sent.err).toBe(0);
    const event = JSON.parse(sent.out);
    expect(event).toMatchObject({ type: 'Transaction.Update', paymentId: 'custom-payment-1', result: -2 });

    const [first, second] = await rx.waitFor(2, (d) => d.body?.Id === event.id, 10_000);
    for (const d of [first!, second!]) {
      const claims = await verifyDelivery(d, SECRET);
      expect(claims).toMatchObject({ transmissionId: event.id, hookId: expect.any(String) });
      expect(d.body).toMatchObject({ Id: event.id, Type: 'Transaction.Update', Payload: PAYLOAD });
      expect(Object.keys(d.body)).toEqual(['Id', 'Type', 'CreateTime', 'Message', 'Payload']);
    }
    expect(first!.text).toBe(second!.text);
    expect(second!.headers['x-paylink-attempt']).toBe('2');

    const shown = await eventually(
      async () => (await sb.get(`/__sandbox/events/${event.id}`)).body.body.event,
      (e) => e.deliveries[0]?.status === 'delivered',
    );
    expect(shown.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, url: rx.url });
    expect(shown.deliveries[0].log.map((a: any) => a.status)).toEqual([500, 200]);
    const listed = await run(['events', 'list', '--json']);
    expect(JSON.parse(listed.out).map((e: any) => e.id)).toContain(event.id);
  });

  it("delivers to the business's endpoints, each signed with its own secret", async () => {
    const own = await startReceiver();
    try {
      const added = await sb.post('/__sandbox/webhooks', { businessId: 'send-shop', url: own.url, secret: 'endpoint-own-secret-42' });
      expect(added.status).toBe(200);
      const sent = await run(['events', 'send', '--type', 'create', '--payload', join(dir, 'payload.json'), '--business', 'send-shop', '--json']);
      expect(sent.code, sent.err).toBe(0);
      const event = JSON.parse(sent.out);
      const [d] = await own.waitFor(1, (x) => x.body?.Id === event.id);
      await verifyDelivery(d!, 'endpoint-own-secret-42');
      await expect(verifyDelivery(d!, SECRET)).rejects.toThrow();
      expect(d!.body.Type).toBe('Transaction.Create');
    } finally {
      await own.close();
    }
  });

  it('refuses what it cannot send: no destination (exit 3), a bad type (exit 2, checked by the CLI), a payload that is not a JSON object (exit 2)', async () => {
    const nowhere = await run(['events', 'send', '--type', 'update', '--payload', join(dir, 'payload.json'), '--business', 'nobody-listens']);
    expect(nowhere.code).toBe(3);
    expect(nowhere.err).toContain('no webhook endpoint');
    const badType = await run(['events', 'send', '--type', 'Transaction.Explode', '--payload', join(dir, 'payload.json'), '--to', rx.url]);
    expect(badType.code).toBe(2);
    expect(badType.err).toContain('--type: unknown event type "Transaction.Explode"');
    writeFileSync(join(dir, 'list.json'), '[1, 2]');
    const notObject = await run(['events', 'send', '--type', 'update', '--payload', join(dir, 'list.json'), '--to', rx.url]);
    expect(notObject.code).toBe(2);
    const both = await run(['events', 'send', '--type', 'update', '--payload', join(dir, 'payload.json'), '--to', rx.url, '--business', 'x']);
    expect(both.code).toBe(2);
    const missing = await run(['events', 'send', '--type', 'update', '--payload', join(dir, 'nope.json'), '--to', rx.url]);
    expect(missing.code).toBe(2);
  });
});
