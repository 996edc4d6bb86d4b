import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const agent = new Agent({ keepAlive: true, maxSockets: 20 });
afterAll(() => agent.destroy());

function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(body);
  const url = new URL(sb.url + path);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function payment(businessId: string, trackingCode: string) {
  return {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { amount: 9.99, currencyCode: 'EUR', trackingCode },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Load Test' },
    },
  };
}

describe('concurrent payments', () => {
  it('stores exactly one record per payment, with unique ids, for 200 payments in parallel on 20 keep-alive connections', async () => {
    const businessId = uniqueCode('biz-conc');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post('/gateway/v3/payments', payment(businessId, `order-${String(i).padStart(4, '0')}`))),
    );
    expect(answers.every((a) => a.status === 200 && a.body.result === 0)).toBe(true);
    const ids = new Set(answers.map((a) => a.body.body.id as string));
    expect(ids.size).toBe(200);
    const rows = sb.running.sandbox.store.db.prepare('SELECT id FROM payments WHERE business_id = ?').pluck().all(businessId) as string[];
    expect(rows.length).toBe(200);
    expect(new Set(rows)).toEqual(ids);
    // Every answered payment survives a restart: nothing answered was lost in the group commit.
    await sb.restart();
    const after = sb.running.sandbox.store.db.prepare('SELECT COUNT(*) FROM payments WHERE business_id = ?').pluck().get(businessId);
    expect(after).toBe(200);
  });

  it('lets exactly one of 20 parallel payments with the same trackingCode succeed; the rest are -8', async () => {
    const businessId = uniqueCode('biz-dup');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('/gateway/v3/payments', payment(businessId, 'same-order'))));
    expect(answers.filter((a) => a.body.result === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400 && a.body.result === -8)).toHaveLength(19);
  });

  it('never refunds more than was paid when 20 refunds race for the same payment', async () => {
    const businessId = uniqueCode('biz-race');
    const paid = await post('/gateway/v3/payments', payment(businessId, 'refund-race'));
    const id = paid.body.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(`/gateway/v3/payments/${id}/refund`, { header: { businessId }, body: { transaction: { amount: 1 } } })),
    );
    expect(answers.filter((a) => a.body.result === 0)).toHaveLength(9);
    expect(answers.filter((a) => a.body.result === -8)).toHaveLength(11);
  });
});
