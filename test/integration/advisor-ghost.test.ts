/**
 * The advisor's double-charge-after-ghost check (docs/advisor.md) against the real sandbox over HTTP: a
 * ghost fault takes the payment and withholds the answer; a merchant that pays again under a new tracking
 * code without looking the first up is found, one that looks it up (or retries with the same code) is not.
 */
import { request as httpRequest } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

/** A merchant's payment request with node:http and a 500 ms timeout: the answer, or undefined when none came. */
function pay(businessId: string, trackingCode: string): Promise<{ status: number; body: any } | undefined> {
  const payload = JSON.stringify({
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' },
    },
  });
  return new Promise((resolve) => {
    const req = httpRequest(
      new URL('/gateway/v3/payments', sb.url),
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', () => resolve(undefined));
      },
    );
    req.setTimeout(500, () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end(payload);
  });
}

async function ghostFindings(businessId: string): Promise<any[]> {
  // The request log is written in batches; the advice reads it after flushing.
  const res = await sb.get(`/__sandbox/advice?businessId=${encodeURIComponent(businessId)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.body.findings.filter((f: any) => f.check === 'double-charge-after-ghost');
}

beforeEach(async () => {
  await sb.post('/__sandbox/faults/clear', {});
  await sb.post('/__sandbox/faults', { kind: 'ghost', method: 'POST', path: 'payments', times: 1 });
});

describe('double-charge-after-ghost', () => {
  it('finds a payment made again under a new tracking code after a ghost, without a lookup of the first', async () => {
    const biz = `ghost-bad-${process.pid}`;
    const first = uniqueCode('order');
    expect(await pay(biz, first)).toBeUndefined();
    const retry = await pay(biz, `${first}-retry`);
    expect(retry?.body.result).toBe(0);

    const findings = await ghostFindings(biz);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'error', businessId: biz });
    expect(findings[0].message).toContain(`"${first}"`);
    expect(findings[0].message).toContain('charged twice');
    expect(findings[0].evidence).toHaveLength(2);
    // Two payments were really made: the finding is about money, not style.
    const made = [
      (await sb.get(`/gateway/v3/payments?businessId=${biz}&trackingCode=${first}`)).body,
      (await sb.get(`/gateway/v3/payments?businessId=${biz}&trackingCode=${first}-retry`)).body,
    ];
    expect(made.map((list: any[]) => list.filter((p) => p.result === 0).length)).toEqual([1, 1]);
  });

  it('finds nothing when the merchant looks the first payment up by its tracking code before paying again', async () => {
    const biz = `ghost-good-${process.pid}`;
    const first = uniqueCode('order');
    expect(await pay(biz, first)).toBeUndefined();
    const lookup = await sb.get(`/gateway/v3/payments?businessId=${biz}&trackingCode=${first}`);
    expect(lookup.body).toHaveLength(1);
    // It found the payment, so it would not pay again; even a later new order of the same amount is fine.
    expect((await pay(biz, uniqueCode('order')))?.body.result).toBe(0);
    expect(await ghostFindings(biz)).toEqual([]);
  });

  it('finds nothing when the merchant retries with the same tracking code (refused as a duplicate)', async () => {
    const biz = `ghost-same-${process.pid}`;
    const first = uniqueCode('order');
    expect(await pay(biz, first)).toBeUndefined();
    const retry = await pay(biz, first);
    expect(retry?.body.body.error.code).toBe(2001);
    expect(await ghostFindings(biz)).toEqual([]);
  });
});
