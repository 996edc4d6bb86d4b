/**
 * Webhooks as the provider sent them, over real HTTP: a sandbox on port 0 delivers to receivers on port 0,
 * which verify every signature with `jose` and their own CRC-32, never with the sandbox's code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver, verifyDelivery, verifyingAnswer, type Delivery, type Receiver } from '../helpers/webhook-receiver.js';
import { postPage, card } from './hosted-form-helpers.js';

const SECRET = 'whsec-test-0123456789';
const sb = useSandbox({ webhookSecret: SECRET, webhookRetry: 'fast' });

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

const CARD = { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Ada Lovelace' };

function pay(businessId: string, transaction: Record<string, unknown> = {}, action = 'payment', cardPatch: Record<string, unknown> = {}) {
  return sb.post('/gateway/v3/payments', {
    action,
    header: { businessId },
    body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('wh'), ...transaction }, card: { ...CARD, ...cardPatch } },
  });
}

async function addHook(businessId: string, url: string, more: Record<string, unknown> = {}) {
  const res = await sb.post('/__sandbox/webhooks', { businessId, url, ...more });
  expect(res.status, res.text).toBe(200);
  return res.body.body.endpoint as { hookId: string; secret: string };
}

async function eventsOf(paymentId: string) {
  const res = await sb.get(`/__sandbox/events?paymentId=${paymentId}`);
  return res.body.body.events as Array<{ id: string; type: string; deliveries: Array<{ status: string }> }>;
}

/** Polls `read` until `ok` holds (test/helpers/sandbox.ts's eventually). */
const until = <T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 8000): Promise<T> => eventually(read, ok, ms);

function onlyPath(path: string) {
  return (d: Delivery) => d.path === path;
}

describe('events as the provider sent them', () => {
  it('delivers Transaction.Create and Transaction.Update for payments, captures, refunds, cancels, 3-D Secure, bank settlement and hosted-page payments, each verifiable with a JWT library and the body CRC', async () => {
    const biz = 'wh-kinds';
    const path = '/kinds';
    const { hookId } = await addHook(biz, rx.url.replace('/webhooks', path));
    const seen = new Set<string>();

    // Authorize, capture part, refund part of the capture; another authorization cancelled.
    const auth = await pay(biz, {}, 'authorize');
    const authId = auth.body.body.transaction.id as string;
    const capture = await sb.post(`/gateway/v3/payments/${authId}/capture`, { header: { businessId: biz }, body: { transaction: { amount: 4 } } });
    expect(capture.body.result).toBe(0);
    const refund = await sb.post(`/gateway/v3/payments/${capture.body.body.transaction.id}/refund`, {
      header: { businessId: biz },
      body: { transaction: { amount: 2 } },
    });
    expect(refund.body.result).toBe(0);
    const auth2 = await pay(biz, {}, 'authorize');
    const cancel = await sb.post(`/gateway/v3/payments/${auth2.body.body.transaction.id}/cancel`, { header: { businessId: biz } });
    expect(cancel.body.result).toBe(0);

    // 3-D Secure: created pending (2), then approved on the challenge page.
    const threeDs = await pay(biz, {}, 'payment', { number: '4000000000003220' });
    expect(threeDs.body.result).toBe(2);
    const challengeUrl = threeDs.body.body.redirect.url as string;
    const formToken = /name="formToken" value="([^"]+)"/.exec(await (await fetch(challengeUrl)).text())?.[1];
    await fetch(challengeUrl, { method: 'POST', body: new URLSearchParams({ formToken: formToken!, action: 'submit', code: '1234' }), redirect: 'manual' });

    // A bank payment settled when read (amount 1 approves).
    const bank = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: biz },
      body: {
        transaction: { amount: 1, currencyCode: 'EUR', trackingCode: uniqueCode('bank'), brandId: 3010 },
        bank: { countryCode: 'NL', issuerId: 'INGBNL2A' },
      },
    });
    expect(bank.body.result).toBe(2);
    await sb.get(`/gateway/v3/payments/${bank.body.body.id}?businessId=${biz}`);

    // A payment made on a link's hosted page.
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: biz }));
    const page = new URL(link.body.body.link.redirect.url as string);
    const form = await (await fetch(page)).text();
    const linkToken = /name="formToken" value="([^"]+)"/.exec(form)?.[1];
    const paid = await postPage(sb, page.pathname, { ...card('4111111111111111'), formToken: linkToken });
    expect(paid.status).toBe(303);

    // auth; capture + auth; refund + capture + auth; auth2; cancel + auth2; 3-D Secure x2; bank x2; link payment
    const got = await rx.waitFor(14, onlyPath(path));
    for (const d of got) {
      const claims = await verifyDelivery(d, SECRET);
      expect(Object.keys(d.body)).toEqual(['Id', 'Type', 'CreateTime', 'Message', 'Payload']);
      expect(claims.transmissionId).toBe(d.body.Id);
      expect(claims.hookId).toBe(hookId);
      expect(typeof claims.timestamp).toBe('string');
      expect(claims).not.toHaveProperty('iat');
      expect(claims).not.toHaveProperty('exp');
      expect(claims).not.toHaveProperty('nbf');
      expect(d.body.CreateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
      expect(d.body.Payload.body.transaction.id).toBeTypeOf('string');
      seen.add(`${d.body.Type} ${d.body.Payload.body.transaction.action} ${d.body.Payload.result}`);
    }
    expect([...seen].sort()).toEqual(
      [
        'Transaction.Create authorize 0',
        'Transaction.Create cancel 0',
        'Transaction.Create capture 0',
        'Transaction.Create payment 0',
        'Transaction.Create payment 2',
        'Transaction.Create refund 0',
        'Transaction.Update authorize 0',
        'Transaction.Update capture 0',
        'Transaction.Update payment 0',
      ].sort(),
    );
    // The last event of each payment carries exactly what a GET of it answers now.
    const last = new Map<string, Delivery>();
    for (const d of got) last.set(d.body.Payload.body.transaction.id, d);
    for (const [id, d] of last) {
      const read = await sb.get(`/gateway/v3/payments/${id}?businessId=${biz}`);
      expect(d.body.Payload).toEqual(read.body);
    }
  });

  it('sends a payment’s notifyUrl its events, and a link’s notifyUrl the events of payments made on its page, with the sandbox secret', async () => {
    const biz = 'wh-notify';
    const direct = `${rx.url}?direct`;
    const res = await pay(biz, { notifyUrl: direct });
    expect(res.status).toBe(200);
    const [d] = await rx.waitFor(1, (x) => x.path.endsWith('?direct'));
    await verifyDelivery(d!, SECRET);
    expect(d!.body.Payload.body.transaction.id).toBe(res.body.body.transaction.id);

    const viaLink = `${rx.url}?link`;
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: biz, transaction: { notifyUrl: viaLink } }));
    expect(link.status).toBe(200);
    const page = new URL(link.body.body.link.redirect.url as string);
    const token = /name="formToken" value="([^"]+)"/.exec(await (await fetch(page)).text())?.[1];
    await postPage(sb, page.pathname, { ...card('4111111111111111'), formToken: token });
    const [l] = await rx.waitFor(1, (x) => x.path.endsWith('?link'));
    await verifyDelivery(l!, SECRET);
    expect(l!.body.Type).toBe('Transaction.Create');
  });

  it('refuses a notifyUrl or an endpoint that is not http or https', async () => {
    const res = await pay('wh-bad-url', { notifyUrl: 'file:///etc/passwd' });
    expect([res.status, res.body.body?.error?.message ?? res.text]).toEqual([400, expect.stringContaining('notifyUrl')]);
    const hook = await sb.post('/__sandbox/webhooks', { businessId: 'wh-bad-url', url: 'gopher://127.0.0.1/' });
    expect(hook.status).toBe(400);
  });
});

describe('delivery', () => {
  it('retries a receiver that fails twice and delivers on the third attempt, recording every attempt', async () => {
    const biz = 'wh-retry';
    const path = '/retry';
    const flaky = await startReceiver();
    try {
      flaky.answer((_d, i) => (i < 2 ? 503 : 200));
      await addHook(biz, flaky.url.replace('/webhooks', path));
      const res = await pay(biz);
      await flaky.waitFor(3);
      const [event] = await until(
        () => eventsOf(res.body.body.transaction.id),
        (e) => e[0]?.deliveries[0]?.status === 'delivered',
      );
      const shown = await sb.get(`/__sandbox/events/${event!.id}`);
      const log = shown.body.body.event.deliveries[0].log as Array<{ status: number; latencyMs: number; response: string }>;
      expect(log.map((a) => a.status)).toEqual([503, 503, 200]);
      expect(log[0]!.response).toBe('no thanks');
      expect(log.every((a) => typeof a.latencyMs === 'number')).toBe(true);
      expect(new Set(flaky.deliveries.map((d) => d.body.Id)).size).toBe(1);
    } finally {
      await flaky.close();
    }
  });

  it('delivers one payment’s events in order: a later event waits until the earlier one is answered', async () => {
    const biz = 'wh-order';
    const slow = await startReceiver();
    try {
      // The first answer is held until the payment's later events are committed: none of them goes out meanwhile.
      const answered: number[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      slow.answer(async (_d, i) => {
        if (i === 0) await held;
        answered.push(Date.now());
        return 200;
      });
      await addHook(biz, slow.url);
      const auth = await pay(biz, {}, 'authorize');
      await slow.waitFor(1);
      await sb.post(`/gateway/v3/payments/${auth.body.body.transaction.id}/capture`, { header: { businessId: biz } });
      await until(
        () => eventsOf(auth.body.body.transaction.id),
        (e) => e.length >= 2,
      );
      expect(slow.deliveries).toHaveLength(1);
      release();
      const got = await slow.waitFor(3);
      const events = await eventsOf(auth.body.body.transaction.id);
      expect(got[0]!.body.Id).toBe(events[0]!.id);
      expect(got[1]!.at).toBeGreaterThanOrEqual(answered[0]!);
      expect(got.map((d) => `${d.body.Type} ${d.body.Payload.body.transaction.action}`)).toEqual([
        'Transaction.Create authorize',
        'Transaction.Create capture',
        'Transaction.Update authorize',
      ]);
    } finally {
      await slow.close();
    }
  });

  it('resends an event on request, with the same Id', async () => {
    const biz = 'wh-resend';
    const own = await startReceiver();
    try {
      await addHook(biz, own.url);
      const res = await pay(biz);
      const [first] = await own.waitFor(1);
      const again = await sb.post(`/__sandbox/events/${first!.body.Id}/resend`, {});
      expect(again.status, again.text).toBe(200);
      const both = await own.waitFor(2);
      expect(both[1]!.body.Id).toBe(first!.body.Id);
      expect(both[1]!.text).toBe(first!.text);
      expect(res.status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('shows an endpoint secret in full only when it is created, and never logs it', async () => {
    const biz = 'wh-secret';
    const created = await addHook(biz, rx.url, { secret: 'endpoint-secret-WXYZ' });
    expect(created.secret).toBe('endpoint-secret-WXYZ');
    const list = await sb.get(`/__sandbox/webhooks?businessId=${biz}`);
    expect(list.body.body.endpoints[0].secret).toBe('…WXYZ');
    expect(list.text).not.toContain('endpoint-secret');
    expect(list.text).not.toContain(SECRET);
    const log = await sb.get('/__sandbox/requests?path=webhooks&limit=50');
    expect(log.text).not.toContain('endpoint-secret-WXYZ');
    // Deliveries to it are signed with its own secret.
    const own = await startReceiver();
    try {
      await addHook('wh-secret-2', own.url, { secret: 'second-endpoint-secret' });
      await pay('wh-secret-2');
      const [d] = await own.waitFor(1);
      await verifyDelivery(d!, 'second-endpoint-secret');
      await expect(verifyDelivery(d!, SECRET)).rejects.toThrow();
    } finally {
      await own.close();
    }
  });

  it('removes an endpoint: nothing more is sent to it', async () => {
    const biz = 'wh-remove';
    const own = await startReceiver();
    try {
      const { hookId } = await addHook(biz, own.url);
      const removed = await sb.post(`/__sandbox/webhooks/${hookId}/remove`, {});
      expect(removed.status).toBe(200);
      const res = await pay(biz);
      const [event] = await until(
        () => eventsOf(res.body.body.transaction.id),
        (e) => e.length === 1,
      );
      // The event was made with no delivery to the removed endpoint, so none can ever go out to it.
      const urls = event!.deliveries.map((d) => (d as { url?: string }).url);
      expect(urls.every((url) => typeof url === 'string' && url !== own.url)).toBe(true);
      expect(own.deliveries).toHaveLength(0);
    } finally {
      await own.close();
    }
  });
});

describe('faults on request', () => {
  it('duplicate: every event arrives twice with the same Id', async () => {
    const own = await startReceiver();
    try {
      await addHook('wh-dup', own.url, { faults: ['duplicate'] });
      await pay('wh-dup');
      const got = await own.waitFor(2);
      expect(got[0]!.body.Id).toBe(got[1]!.body.Id);
      for (const d of got) await verifyDelivery(d, SECRET);
    } finally {
      await own.close();
    }
  });

  it('delay: the first attempt waits the delay', async () => {
    const own = await startReceiver();
    try {
      await addHook('wh-delay', own.url, { delayMs: 400 });
      const before = Date.now();
      await pay('wh-delay');
      const [d] = await own.waitFor(1);
      expect(d!.at - before).toBeGreaterThanOrEqual(400);
    } finally {
      await own.close();
    }
  });

  it('out-of-order: one payment’s events arrive newest first', async () => {
    const own = await startReceiver();
    try {
      await addHook('wh-ooo', own.url, { faults: ['out-of-order'] });
      const auth = await pay('wh-ooo', {}, 'authorize');
      await sb.post(`/gateway/v3/payments/${auth.body.body.transaction.id}/capture`, { header: { businessId: 'wh-ooo' } });
      const got = await own.waitFor(3);
      const events = await eventsOf(auth.body.body.transaction.id);
      expect(got[got.length - 1]!.body.Id).toBe(events[0]!.id);
      expect(got[0]!.body.Type).toBe('Transaction.Update');
    } finally {
      await own.close();
    }
  });

  for (const fault of ['bad-signature', 'tampered-body'] as const) {
    it(`${fault}: a receiver that verifies refuses it (recorded as rejected); one that answers 2xx is reported as a finding`, async () => {
      const careful = await startReceiver();
      const careless = await startReceiver();
      try {
        careful.answer(verifyingAnswer(SECRET));
        const biz = `wh-${fault}`;
        await addHook(biz, careful.url, { faults: [fault] });
        await addHook(biz, careless.url, { faults: [fault] });
        const res = await pay(biz);
        const [probe] = await careful.waitFor(1);
        await careless.waitFor(1);
        await expect(verifyDelivery(probe!, SECRET)).rejects.toThrow();
        const [event] = await until(
          () => eventsOf(res.body.body.transaction.id),
          (e) => e[0]?.deliveries.every((d) => d.status !== 'pending') === true,
        );
        const shown = (await sb.get(`/__sandbox/events/${event!.id}`)).body.body.event;
        const byUrl = Object.fromEntries(shown.deliveries.map((d: { url: string }) => [d.url, d]));
        expect(byUrl[careful.url].status).toBe('rejected');
        expect(byUrl[careless.url].status).toBe('finding');
        expect(byUrl[careless.url].log[0].finding).toMatch(/^FINDING: the endpoint answered 200/);
        expect(shown.findings).toBe(1);
        // Probes are not retried.
        expect(careful.deliveries).toHaveLength(1);
      } finally {
        await careful.close();
        await careless.close();
      }
    });
  }
});

describe('the stream paylink listen reads', () => {
  it('answers committed events after `since` with their exact body and a signature made with the sandbox secret', async () => {
    const start = (await sb.get('/__sandbox/events/stream')).body.body.lastSeq as number;
    // Whether the poll arrives before the payment or after, it answers with the payment's event.
    const waiting = sb.get(`/__sandbox/events/stream?since=${start}&wait=5&businessId=wh-stream`);
    await pay('wh-stream');
    const res = await waiting;
    const [event] = res.body.body.events;
    expect(event.seq).toBeGreaterThan(start);
    const claims = await verifyDelivery(
      { headers: { 'x-payvision-signature': event.signature }, text: event.body, body: JSON.parse(event.body), path: '', at: 0 },
      SECRET,
    );
    expect(claims.transmissionId).toBe(event.id);
    expect(res.body.body.header).toBe('x-payvision-signature');
  });
});

describe('the dashboard', () => {
  it('shows endpoints with masked secrets, the findings first, and each event with every attempt', async () => {
    const page = await sb.get('/__sandbox/dashboard/webhooks');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="webhook-findings"');
    expect(page.text).toContain('…WXYZ');
    expect(page.text).not.toContain('endpoint-secret-WXYZ');
    expect(page.text).not.toContain(SECRET);
    const eventId = /\/__sandbox\/dashboard\/events\/([0-9a-f-]{36})/.exec(page.text)?.[1];
    const detail = await sb.get(`/__sandbox/dashboard/events/${eventId}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('Body (exact bytes sent)');
    expect(detail.text).toMatch(/data-state="(delivered|finding|rejected)"/);
  });
});
