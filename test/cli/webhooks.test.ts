import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import { eventsList, eventsResend, eventsShow, webhooksAdd, webhooksList, webhooksRemove } from '../../src/cli/commands/webhooks.js';
import { listen } from '../../src/cli/commands/listen.js';
import { captureUi, spawnCli, until } from '../helpers/cli.js';

const untilLong = (check: () => boolean) => until(check, 8000);

const SECRET = 'cli-webhook-secret-1234';
const sb = useSandbox({ webhookSecret: SECRET, webhookRetry: 'fast' });

function pay(businessId: string, action = 'payment') {
  return sb.post('/gateway/v3/payments', {
    action,
    header: { businessId },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('cli-wh') },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Grace Hopper' },
    },
  });
}

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('paylink webhooks', () => {
  it('adds an endpoint (its own secret shown once), lists it with the secret masked, and removes it', async () => {
    const conn = { baseUrl: sb.url };
    const added = captureUi();
    const endpoint = await webhooksAdd(conn, added.ui, rx.url, {
      businessId: 'cli-hooks',
      secret: 'own-secret-ABCD',
      events: ['Transaction.Update'],
      faults: ['duplicate'],
    });
    expect(added.out()).toContain('own-secret-ABCD');
    expect(added.out()).toContain(endpoint.hookId);
    expect(endpoint.events).toEqual(['Transaction.Update']);

    const listed = captureUi({ json: true });
    const endpoints = await webhooksList(conn, listed.ui, { businessId: 'cli-hooks' });
    expect(endpoints).toHaveLength(1);
    const doc = JSON.parse(listed.out());
    expect(doc.endpoints[0]).toMatchObject({ hookId: endpoint.hookId, secret: '…ABCD', faults: ['duplicate'] });
    expect(listed.out()).not.toContain('own-secret');
    expect(listed.out()).not.toContain(SECRET);

    const removed = captureUi();
    await webhooksRemove(conn, removed.ui, endpoint.hookId);
    expect(removed.out() + removed.err()).toContain(`Removed webhook endpoint ${endpoint.hookId}`);
    expect(await webhooksList(conn, captureUi().ui, { businessId: 'cli-hooks' })).toEqual([]);
  });
});

describe('paylink events', () => {
  it('lists events with their deliveries, shows every attempt, and resends', async () => {
    const conn = { baseUrl: sb.url };
    const own = await startReceiver();
    try {
      own.answer((_d, i) => (i === 0 ? 500 : 200));
      await webhooksAdd(conn, captureUi().ui, own.url, { businessId: 'cli-events' });
      const res = await pay('cli-events');
      await own.waitFor(2);
      const listed = captureUi();
      let events = await eventsList(conn, listed.ui, { businessId: 'cli-events' });
      await untilLong(() => events[0]?.deliveries[0]?.status === 'delivered');
      events = await eventsList(conn, listed.ui, { businessId: 'cli-events' });
      expect(events.map((e) => [e.type, e.paymentId])).toEqual([['Transaction.Create', res.body.body.transaction.id]]);
      expect(listed.out()).toContain('Transaction.Create');

      const shown = captureUi();
      const event = await eventsShow(conn, shown.ui, events[0]!.id);
      expect(event.deliveries[0]!.log!.map((a) => a.status)).toEqual([500, 200]);
      expect(shown.out()).toMatch(/#1 .* 500/);
      expect(shown.out()).toMatch(/#2 .* 200/);
      expect(shown.out()).toContain(`"Id":"${event.id}"`);

      const resent = captureUi({ json: true });
      const answer = await eventsResend(conn, resent.ui, event.id);
      expect(answer.resent).toHaveLength(1);
      await own.waitFor(3);
      expect(own.deliveries[2]!.body.Id).toBe(event.id);
    } finally {
      await own.close();
    }
  });

  it('reports a FINDING when an endpoint accepts a badly signed event', async () => {
    const conn = { baseUrl: sb.url };
    const careless = await startReceiver();
    try {
      await webhooksAdd(conn, captureUi().ui, careless.url, { businessId: 'cli-finding', faults: ['bad-signature'] });
      await pay('cli-finding');
      await careless.waitFor(1);
      await eventually(
        () => eventsList(conn, captureUi().ui, { businessId: 'cli-finding' }),
        (events) => events[0]?.findings === 1,
      );
      const again = captureUi();
      await eventsList(conn, again.ui, { businessId: 'cli-finding' });
      expect(again.out()).toContain('FINDING');
      expect(again.err()).toContain('FINDING(S)');
    } finally {
      await careless.close();
    }
  });
});

describe('paylink listen', () => {
  it('forwards new events, signed with the sandbox secret, one JSON line each, and stops on abort', async () => {
    const target = await startReceiver();
    try {
      const { ui, out, err } = captureUi({ json: true });
      const controller = new AbortController();
      let ready!: () => void;
      const started = new Promise<void>((r) => (ready = r));
      const running = listen({ baseUrl: sb.url }, ui, {
        forwardTo: target.url,
        businessId: 'cli-listen',
        signal: controller.signal,
        waitSeconds: 5,
        onReady: ready,
      });
      await started; // listen has its starting position: what happens from here on is forwarded
      const res = await pay('cli-listen', 'authorize');
      await sb.post(`/gateway/v3/payments/${res.body.body.transaction.id}/capture`, { header: { businessId: 'cli-listen' } });
      const got = await target.waitFor(3);
      for (const d of got) await verifyDelivery(d, SECRET);
      controller.abort();
      const results = await running;
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const lines = out()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatchObject({ type: 'Transaction.Create', paymentId: res.body.body.transaction.id, status: 200 });
      // The secret it forwards with is printed once, on stderr beside the JSON lines of stdout.
      expect(err()).toContain(`Signing secret: ${SECRET} `);
    } finally {
      await target.close();
    }
  });

  it('filters by event type and, with the tampered-body fault, reports a receiver that accepts it', async () => {
    const target = await startReceiver();
    try {
      const { ui, out } = captureUi();
      const controller = new AbortController();
      let ready!: () => void;
      const started = new Promise<void>((r) => (ready = r));
      const running = listen({ baseUrl: sb.url }, ui, {
        forwardTo: target.url,
        businessId: 'cli-listen-fault',
        events: ['Transaction.Update'],
        faults: ['tampered-body'],
        signal: controller.signal,
        waitSeconds: 5,
        onReady: ready,
      });
      await started; // listen has its starting position: what happens from here on is forwarded
      const res = await pay('cli-listen-fault', 'authorize');
      await sb.post(`/gateway/v3/payments/${res.body.body.transaction.id}/cancel`, { header: { businessId: 'cli-listen-fault' } });
      const [d] = await target.waitFor(1);
      expect(d!.body.Type).toBe('Transaction.Update');
      await expect(verifyDelivery(d!, SECRET)).rejects.toThrow(/crc32/);
      await untilLong(() => out().includes('FINDING'));
      controller.abort();
      const results = await running;
      expect(results).toHaveLength(1);
      expect(results[0]!.finding).toMatch(/changed body/);
    } finally {
      await target.close();
    }
  });

  it('runs as `paylink listen --forward-to URL --json` and stops cleanly on SIGINT', async () => {
    const target = await startReceiver();
    // In the sandbox's temporary folder: listen keeps its cursor in .paylink/listen/ of its working directory.
    const { child, out, err } = spawnCli(['listen', '--forward-to', target.url, '--json', '--base-url', sb.url, '--business', 'cli-listen-process'], {
      cwd: sb.dir,
    });
    try {
      // Under --json it says the signing secret on stderr once it has its starting position.
      await until(() => err().includes('Signing secret:') || child.exitCode !== null, 15_000);
      await pay('cli-listen-process');
      await until(() => out().includes('"status":200') || child.exitCode !== null, 15_000);
      expect(out(), err()).toContain('"status":200');
      const first = JSON.parse(out().trim().split('\n')[0]!);
      expect(first).toMatchObject({ type: 'Transaction.Create', status: 200 });
      await verifyDelivery(target.deliveries[0]!, SECRET);
    } finally {
      child.kill('SIGINT');
    }
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    await target.close();
    expect(code).toBe(0);
    for (const line of out().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });
});
