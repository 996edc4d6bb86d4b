/**
 * What time settles (docs/test-cards.md): moving the clock past a waiting payment's window, or real time
 * passing it, ends the payment at once with its Transaction.Update, in the order the windows closed,
 * exactly once, across a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import { captureUi } from '../helpers/cli.js';
import { runClock } from '../../src/cli/commands/clock.js';

const SECRET = 'time-settles-secret-0123456789';
const sb = useSandbox({ webhookSecret: SECRET, webhookRetry: 'fast' });

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

let n = 0;
function business(): string {
  n += 1;
  return `settle-${process.pid}-${n}`;
}

async function bankPayment(businessId: string, patch: { amount?: number; brandId?: number } = {}): Promise<string> {
  // EPS: a bank brand whose sheet gives no session timeout, so the sandbox's 15-minute bank window applies
  // (iDEAL's 600 s and Giropay's 420 s are held by test/conformance/portal.test.ts).
  const brandId = patch.brandId ?? 3030;
  const answer = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: {
        amount: patch.amount ?? 10,
        currencyCode: 'EUR',
        trackingCode: uniqueCode('settle'),
        brandId,
        returnUrl: 'https://shop.example/back',
        notifyUrl: rx.url,
      },
      ...(brandId === 3010 ? { bank: { countryCode: 'NL', issuerId: 20 } } : brandId !== 4010 ? { bank: {} } : {}),
    },
  });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.result).toBe(2);
  return answer.body.body.id;
}

async function challengePayment(businessId: string): Promise<string> {
  const answer = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: uniqueCode('settle-3ds'), notifyUrl: rx.url },
      card: { number: '4000000000003220', cvv: '123', expiryMonth: '12', expiryYear: '2040', holderName: 'Ada Lovelace' },
    },
  });
  expect(answer.body.result, answer.text).toBe(2);
  return answer.body.body.id;
}

async function advance(step: string): Promise<any[]> {
  const answer = await sb.post('/__sandbox/clock', { advance: step });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.body.settled;
}

async function updatesOf(paymentId: string): Promise<any[]> {
  const events = (await sb.get(`/__sandbox/events?paymentId=${paymentId}&type=Transaction.Update`)).body.body.events;
  return events.reverse();
}

/** The stored result of a payment, without reading it through the API (a read could settle it itself). */
async function storedResult(paymentId: string): Promise<number> {
  const page = (await sb.get(`/__sandbox/payments?limit=200`)).body.body.items as any[];
  return page.find((p) => p.id === paymentId).result;
}

describe('what time settles', () => {
  it('advancing past each window ends the payment at once with its Transaction.Update, in the order the windows closed', async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const biz = business();
    const wallet = await bankPayment(biz, { brandId: 4010 });
    const bank = await bankPayment(biz);
    const challenge = await challengePayment(biz);
    const stays = await bankPayment(biz, { amount: 4.5 });

    expect(await advance('9m')).toEqual([]);
    const first = await advance('2m');
    expect(first.map((s) => [s.paymentId, s.kind, s.result])).toEqual([[challenge, 'challenge-abandoned', -10]]);
    expect(await storedResult(bank)).toBe(2);

    const second = await advance('5m');
    expect(second.map((s) => [s.paymentId, s.kind, s.result])).toEqual([[bank, 'bank-expired', 4]]);
    const third = await advance('3h');
    expect(third.map((s) => [s.paymentId, s.kind, s.result])).toEqual([[wallet, 'wallet-expired', 4]]);
    expect(await storedResult(stays)).toBe(2);

    // Exactly once: moving on settles nothing again.
    expect(await advance('1d')).toEqual([]);
    for (const id of [challenge, bank, wallet]) expect(await updatesOf(id)).toHaveLength(1);
    expect(await updatesOf(stays)).toHaveLength(0);

    // The receiver gets them, signed, in that order.
    const updates = await rx.waitFor(3, (d) => d.body?.Type === 'Transaction.Update' && [challenge, bank, wallet].includes(d.body?.Payload?.body?.id));
    for (const d of updates) await verifyDelivery(d, SECRET);
    expect(updates.map((d) => [d.body.Payload.body.id, d.body.Payload.result])).toEqual([
      [challenge, -10],
      [bank, 4],
      [wallet, 4],
    ]);
    expect((await sb.get(`/gateway/v3/payments/${challenge}?businessId=${biz}`)).body.body.error.code).toBe(3014);
  });

  it('one big move settles everything due in window order, in one go', async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const biz = business();
    const wallet = await bankPayment(biz, { brandId: 4010 });
    const bank = await bankPayment(biz);
    const challenge = await challengePayment(biz);
    const settled = await advance('4h');
    expect(settled.map((s) => s.paymentId)).toEqual([challenge, bank, wallet]);
    const seqs = await Promise.all(
      [challenge, bank, wallet].map(async (id) => (await sb.get(`/__sandbox/events?paymentId=${id}&type=Transaction.Update`)).body.body.events[0].seq),
    );
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it('a bank payment of the amount convention ends as a read would have ended it', async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const biz = business();
    const approved = await bankPayment(biz, { amount: 1.25 });
    const cancelled = await bankPayment(biz, { amount: 2.5 });
    const settled = await advance('16m');
    expect(Object.fromEntries(settled.map((s) => [s.paymentId, s.result]))).toEqual({ [approved]: 0, [cancelled]: -10 });
  });

  it('survives a restart in between: what was due settles once, and nothing settles twice', async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const biz = business();
    const before = await bankPayment(biz);
    expect(await advance('16m')).toHaveLength(1);
    const after = await bankPayment(biz);
    await sb.restart();
    expect(await updatesOf(before)).toHaveLength(1);
    const settled = await advance('16m');
    expect(settled.map((s) => s.paymentId)).toEqual([after]);
    await sb.restart();
    expect(await advance('1d')).toEqual([]);
    expect(await updatesOf(before)).toHaveLength(1);
    expect(await updatesOf(after)).toHaveLength(1);
  });

  it('real time passing a window settles the payment too, without moving the clock', async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const biz = business();
    const id = await bankPayment(biz);
    const created = Date.parse((await sb.get('/__sandbox/clock')).body.body.now);
    // Set the clock (running) to a second and a half before the window closes: real time does the rest.
    await sb.post('/__sandbox/clock', { set: new Date(created + 15 * 60_000 - 1500).toISOString() });
    expect(await storedResult(id)).toBe(2);
    await eventually(
      () => storedResult(id),
      (result) => result !== 2,
      8000,
    );
    expect(await storedResult(id)).toBe(4);
    expect(await updatesOf(id)).toHaveLength(1);
  });

  it('paylink clock advance says which payments the move settled', async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const id = await bankPayment(business());
    const { ui, out } = captureUi();
    const clock = await runClock({ baseUrl: sb.url }, ui, { advance: '16m' });
    expect(clock.settled?.map((s) => s.paymentId)).toEqual([id]);
    expect(out()).toContain(`settled ${id}: bank expired at `);
    expect(out()).toContain('result 4');
  });

  it('a waiting SEPA credit settles on its day in the same sweep, in order with the rest, by the clock or by real time', async () => {
    // A Friday, 10:00 UTC, standing still: the credit settles on Monday.
    await sb.post('/__sandbox/clock', { set: '2030-01-04T10:00:00Z', freeze: true });
    const biz = business();
    const credit = await sb.post('/gateway/v3/credits', {
      header: { businessId: biz },
      body: {
        transaction: { trackingCode: uniqueCode('sepa'), amount: 1, currencyCode: 'EUR', brandId: 6010, countryCode: 'NL', notifyUrl: rx.url },
        bank: { accountHolderName: 'John Doe', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', countryCode: 'NL' },
      },
    });
    expect(credit.body.result, credit.text).toBe(1);
    const creditId = credit.body.body.id;
    const bank = await bankPayment(biz);
    const settled = await advance('4d');
    expect(settled.map((s) => [s.paymentId, s.kind, s.result])).toEqual([
      [bank, 'bank-expired', 4],
      [creditId, 'credit-settled', 0],
    ]);
    expect(await updatesOf(creditId)).toHaveLength(1);

    // Real time: a second credit, the clock running to just before its settlement time.
    await sb.post('/__sandbox/clock', { set: '2030-01-04T10:00:00Z', freeze: true });
    const second = await sb.post('/gateway/v3/credits', {
      header: { businessId: biz },
      body: {
        transaction: { trackingCode: uniqueCode('sepa'), amount: 2, currencyCode: 'EUR', brandId: 6010, countryCode: 'NL' },
        bank: { accountHolderName: 'John Doe', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', countryCode: 'NL' },
      },
    });
    const secondId = second.body.body.id;
    await sb.post('/__sandbox/clock', { set: '2030-01-07T09:59:58.500Z' });
    expect(await storedResult(secondId)).toBe(1);
    await eventually(
      () => storedResult(secondId),
      (result) => result !== 1,
      8000,
    );
    expect(await storedResult(secondId)).toBe(0);
    expect(await updatesOf(secondId)).toHaveLength(1);
    await sb.post('/__sandbox/clock', { reset: true });
  });
});
