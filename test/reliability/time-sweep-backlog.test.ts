/**
 * Issue 32, item 2: the sweep of what time settles read the 500 oldest waiting payments, so 500 iDEAL
 * payments that stay pending by the amount convention (4.xx) kept a later 3-D Secure payment from ever being
 * abandoned, and one clock move settled at most 500. The sweep now reads by the moment each payment is due,
 * page after page until none is due (docs/reliability.md, "What time settles at any backlog").
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

/** Runs `make(i)` for i in 0..count-1, `parallel` at a time. */
async function many<T>(count: number, parallel: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await make(i);
      }
    }),
  );
  return out;
}

async function waiting(businessId: string, kind: 'ideal' | 'paypal' | 'challenge', amount = 10): Promise<string> {
  const transaction = { amount, currencyCode: 'EUR', trackingCode: uniqueCode('sweep'), returnUrl: 'https://shop.example/back' };
  const body =
    kind === 'challenge'
      ? { transaction, card: { number: '4000000000003220', cvv: '123', expiryMonth: '12', expiryYear: '2040', holderName: 'Ada Lovelace' } }
      : kind === 'ideal'
        ? { transaction: { ...transaction, brandId: 3010 }, bank: { countryCode: 'NL', issuerId: 20 } }
        : { transaction: { ...transaction, brandId: 4010 } };
  const answer = await sb.post('/gateway/v3/payments', { action: 'payment', header: { businessId }, body });
  expect(answer.body?.result, answer.text).toBe(2);
  return answer.body.body.id;
}

async function advance(step: string): Promise<Array<{ paymentId: string; kind: string; result: number; dueAt: string }>> {
  const answer = await sb.post('/__sandbox/clock', { advance: step });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.body.settled;
}

describe('the sweep of what time settles, at any backlog', () => {
  it('2,000 payments that wait for good do not keep a later 3-D Secure payment from being abandoned on the next sweep', { timeout: 180_000 }, async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const biz = `sweep-stay-${process.pid}`;
    await many(2000, 8, () => waiting(biz, 'ideal', 4.5));
    const challenge = await waiting(biz, 'challenge');

    const settled = await advance('11m');
    expect(settled.map((s) => [s.paymentId, s.kind, s.result])).toEqual([[challenge, 'challenge-abandoned', -10]]);
    // The 4.xx payments still wait, and keep waiting.
    expect(await advance('1d')).toEqual([]);
    const listed = (await sb.get(`/__sandbox/payments?businessId=${biz}&limit=20`)).body.body.items as Array<{ amount: number; result: number }>;
    const stays = listed.filter((p) => p.amount === 4.5);
    expect(stays.length).toBeGreaterThan(10);
    expect(stays.every((p) => p.result === 2)).toBe(true);
  });

  it('one clock move settles all 2,400 of a mixed set of waiting payments, in the order their windows closed', { timeout: 180_000 }, async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const biz = `sweep-all-${process.pid}`;
    const kinds = ['ideal', 'paypal', 'challenge'] as const;
    const ids = await many(2400, 8, (i) => waiting(biz, kinds[i % 3]!, i % 5 === 0 ? 1.25 : 10));

    const settled = await advance('4h');
    expect(settled).toHaveLength(2400);
    expect(new Set(settled.map((s) => s.paymentId))).toEqual(new Set(ids));
    // In the order the windows closed (each kind's window is domain/time-settles.ts's).
    const dueAts = settled.map((s) => Date.parse(s.dueAt));
    expect(dueAts).toEqual([...dueAts].sort((x, y) => x - y));
    const settledKinds = settled.map((s) => s.kind);
    for (const kind of ['bank-expired', 'wallet-expired', 'challenge-abandoned']) expect(settledKinds.filter((k) => k === kind)).toHaveLength(800);
    expect(await advance('1d')).toEqual([]);
  });
});
