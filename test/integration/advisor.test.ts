/**
 * The integration advisor (docs/advisor.md) against the real sandbox over HTTP: for each check, a
 * merchant-like client that makes the mistake (the check finds it) and one that does it right (no finding).
 * Each test is its own business, and reads `GET /__sandbox/advice?businessId=` as the CLI does.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { card, customerReturns, moveClock } from '../conformance/client.js';
import { eventually, uniqueCode, useSandbox, type JsonResponse } from '../helpers/sandbox.js';

const sb = useSandbox({ webhookRetry: 'fast' } as Record<string, unknown>);

interface Finding {
  check: string;
  severity: string;
  businessId: string | null;
  message: string;
  resource?: { kind: string; id: string };
  evidence: Array<{ seq?: number; deliveryId?: number; at: string; summary: string }>;
  doc: string;
}

async function advice(businessId: string): Promise<{ findings: Finding[]; checks: Array<{ id: string; status: string; pending: number; needs?: string }> }> {
  const res = await sb.get(`/__sandbox/advice?businessId=${encodeURIComponent(businessId)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.body;
}

async function findingsOf(businessId: string, check: string): Promise<Finding[]> {
  return (await advice(businessId)).findings.filter((f) => f.check === check);
}

let businesses = 0;
function business(name: string): string {
  businesses += 1;
  return `${name}-${process.pid}-${businesses}`;
}

function link(businessId: string, transaction: Record<string, unknown> = {}, more: Record<string, unknown> = {}) {
  return sb.post('/gateway/v3/paymentlinks', {
    header: { businessId },
    body: {
      transaction: { amount: 12.5, currencyCode: 'EUR', trackingCode: uniqueCode('adv'), ...transaction },
      link: { brandIds: [1010, 1020], returnUrl: 'https://shop.example/return', ...more },
    },
  });
}

function checkout(businessId: string, transaction: Record<string, unknown> = {}, more: Record<string, unknown> = {}) {
  return sb.post('/gateway/v3/checkouts', {
    header: { businessId },
    body: {
      transaction: { amount: 20, currencyCode: 'EUR', trackingCode: uniqueCode('adv'), ...transaction },
      checkout: { brandIds: [1010, 1020], returnUrl: 'https://shop.example/return', tokenize: 'false', ...more },
    },
  });
}

function payment(businessId: string, transaction: Record<string, unknown> = {}, number = '4111111111111111', action = 'payment') {
  return sb.post('/gateway/v3/payments', {
    action,
    header: { businessId },
    body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('adv'), ...transaction }, card: card(number) },
  });
}

function followUp(businessId: string, id: string, verb: 'capture' | 'refund' | 'cancel', amount?: number | string) {
  return sb.post(`/gateway/v3/payments/${id}/${verb}`, { header: { businessId }, body: { transaction: amount === undefined ? {} : { amount } } });
}

function idOf(res: JsonResponse): string {
  return res.body.body.transaction?.id ?? res.body.body.id;
}

describe('trusts-the-redirect', () => {
  it('finds a customer sent back to returnUrl whose link status the merchant never read', async () => {
    const biz = business('redirect-trusting');
    const created = await link(biz);
    const back = await customerReturns(created.body.body.link.redirect.url);
    expect(back.searchParams.get('linkId')).toBe(created.body.body.link.linkId);

    // Inside the window nothing is judged yet.
    expect(await findingsOf(biz, 'trusts-the-redirect')).toEqual([]);
    expect((await advice(biz)).checks.find((c) => c.id === 'trusts-the-redirect')!.pending).toBeGreaterThan(0);

    await moveClock(sb, { advance: '2m' });
    const [finding, ...rest] = await findingsOf(biz, 'trusts-the-redirect');
    expect(rest).toEqual([]);
    expect(finding!.severity).toBe('error');
    expect(finding!.businessId).toBe(biz);
    expect(finding!.resource).toEqual({ kind: 'link', id: created.body.body.link.linkId });
    expect(finding!.evidence[0]!.summary).toMatch(/^POST \/gateway\/v3\/web\/paymentlinks\/.* -> 303 to https:\/\/shop\.example\/return\?linkId=/);
    expect(finding!.doc).toBe('docs/advisor.md#trusts-the-redirect');
  });

  it('finds nothing when the return handler reads the status (by id or by tracking code)', async () => {
    const biz = business('redirect-reading');
    const byId = await link(biz);
    await customerReturns(byId.body.body.link.redirect.url);
    expect((await sb.get(`/gateway/v3/paymentlinks/${byId.body.body.link.linkId}?businessId=${biz}`)).body.body.link.status).toBe('PAID');

    const tracking = uniqueCode('order');
    const byCode = await checkout(biz, { trackingCode: tracking });
    const back = await customerReturns(byCode.body.body.checkout.redirect.url);
    const paymentId = back.searchParams.get('id');
    expect((await sb.get(`/gateway/v3/payments/${paymentId}?businessId=${biz}`)).body.result).toBe(0);

    await moveClock(sb, { advance: '2m' });
    expect(await findingsOf(biz, 'trusts-the-redirect')).toEqual([]);
  });
});

describe('polls-too-fast', () => {
  it('finds eight status reads of one link within a second', async () => {
    const biz = business('poller-fast');
    const id = (await link(biz)).body.body.link.linkId;
    for (let i = 0; i < 8; i++) await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=${biz}`);
    const [finding] = await findingsOf(biz, 'polls-too-fast');
    expect(finding!.message).toMatch(/^8 status reads of one link within/);
    expect(finding!.resource).toEqual({ kind: 'link', id });
    expect(finding!.evidence).toHaveLength(8);
  });

  it('finds nothing for reads at the documented rate (five per ten seconds)', async () => {
    const biz = business('poller-polite');
    const id = (await link(biz)).body.body.link.linkId;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=${biz}`);
      await moveClock(sb, { advance: '11s' });
    }
    expect(await findingsOf(biz, 'polls-too-fast')).toEqual([]);
  });
});

describe('reuses-tracking-code', () => {
  it('finds a link refused as a duplicate tracking code', async () => {
    const biz = business('tc-dup');
    const code = uniqueCode('order');
    expect((await link(biz, { trackingCode: code })).status).toBe(200);
    const refused = await link(biz, { trackingCode: code });
    expect(refused.body.body.error.code).toBe(2001);
    const [finding] = await findingsOf(biz, 'reuses-tracking-code');
    expect(finding!.message).toContain(`"${code}"`);
    expect(finding!.evidence).toHaveLength(1);
  });

  it('finds one tracking code used for a link and a checkout of different amounts', async () => {
    const biz = business('tc-cross');
    const code = uniqueCode('order');
    expect((await link(biz, { trackingCode: code, amount: 10 })).status).toBe(200);
    expect((await checkout(biz, { trackingCode: code, amount: 25 })).status).toBe(200);
    const [finding] = await findingsOf(biz, 'reuses-tracking-code');
    expect(finding!.message).toMatch(/link and a checkout with different amounts \(10 EUR, 25 EUR\)/);
  });

  it('finds nothing for one code per order and a failed payment retried under its own code', async () => {
    const biz = business('tc-clean');
    await link(biz, { trackingCode: uniqueCode('order') });
    await checkout(biz, { trackingCode: uniqueCode('order') });
    const code = uniqueCode('order');
    expect((await payment(biz, { trackingCode: code }, '4000000000000002')).body.result).toBe(-4);
    expect((await payment(biz, { trackingCode: code }, '5555555555554444')).body.result).toBe(0);
    expect(await findingsOf(biz, 'reuses-tracking-code')).toEqual([]);
  });
});

describe('ignores-retry', () => {
  it('finds a Failed, retry (-3) answer that no new attempt followed', async () => {
    const biz = business('retry-ignored');
    expect((await payment(biz, {}, '4000000000000101')).body.result).toBe(-3);
    expect(await findingsOf(biz, 'ignores-retry')).toEqual([]);
    await moveClock(sb, { advance: '3m' });
    const [finding] = await findingsOf(biz, 'ignores-retry');
    expect(finding!.message).toMatch(/answered -3 Failed, retry/);
  });

  it('finds an immediate identical retry of a final decline', async () => {
    const biz = business('retry-final');
    const code = uniqueCode('order');
    expect((await payment(biz, { trackingCode: code }, '4000000000000002')).body.result).toBe(-4);
    expect((await payment(biz, { trackingCode: code }, '4000000000000002')).body.result).toBe(-4);
    const [finding] = await findingsOf(biz, 'ignores-retry');
    expect(finding!.message).toMatch(/final -4 Declined was retried at once with the same card/);
    expect(finding!.evidence).toHaveLength(2);
  });

  it('finds nothing when a Declined, retry (-5) is retried and a final decline is not', async () => {
    const biz = business('retry-right');
    const code = uniqueCode('order');
    expect((await payment(biz, { trackingCode: code }, '4000000000000325')).body.result).toBe(-5);
    expect((await payment(biz, { trackingCode: code }, '4000000000000325')).body.result).toBe(0);
    expect((await payment(biz, {}, '4000000000000002')).body.result).toBe(-4);
    // Another card is another attempt, not a retry of the decline.
    expect((await payment(biz, {}, '5555555555554444')).body.result).toBe(0);
    await moveClock(sb, { advance: '3m' });
    expect(await findingsOf(biz, 'ignores-retry')).toEqual([]);
  });
});

describe('money', () => {
  it('finds an amount refused for more decimals than the currency has', async () => {
    const biz = business('money-decimals');
    const refused = await payment(biz, { amount: 10.555 });
    expect(refused.body.body.error.code).toBe(1002);
    const jpy = await link(biz, { amount: '1500.5', currencyCode: 'JPY' });
    expect(jpy.status).toBe(400);
    const findings = await findingsOf(biz, 'money');
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringMatching(/^An amount of 10.555 EUR was refused: EUR has 2 decimals/),
      expect.stringMatching(/^An amount of 1500.5 JPY was refused: JPY has 0 decimals/),
    ]);
  });

  it('finds a capture above the authorisation and a refund of cents sent as euros', async () => {
    const biz = business('money-above');
    const auth = await payment(biz, { amount: 10 }, '4111111111111111', 'authorize');
    expect((await followUp(biz, idOf(auth), 'capture', 15)).body.result).toBe(-8);
    const paid = await payment(biz, { amount: 19.99 });
    expect((await followUp(biz, idOf(paid), 'refund', 1999)).body.result).toBe(-8);
    const findings = await findingsOf(biz, 'money');
    expect(findings.map((f) => `${f.severity}: ${f.message}`).sort()).toEqual([
      expect.stringMatching(/^error: A capture of 15 EUR was attempted above what the authorisation left to capture \(original 10 EUR\)/),
      expect.stringMatching(/^error: A refund of 1999 EUR was attempted above what was paid or captured/),
      expect.stringMatching(/^warning: A refund of 1999 EUR in a flow where the payment was 19.99 EUR: this looks like minor units/),
    ]);
  });

  it('finds nothing for partial captures and refunds that add up', async () => {
    const biz = business('money-right');
    const auth = await payment(biz, { amount: 10 }, '4111111111111111', 'authorize');
    expect((await followUp(biz, idOf(auth), 'capture', 4)).body.result).toBe(0);
    expect((await followUp(biz, idOf(auth), 'capture', '6.00')).body.result).toBe(0);
    expect((await followUp(biz, idOf(auth), 'refund', 10)).body.result).toBe(0);
    expect((await link(biz, { amount: 1999, currencyCode: 'JPY' })).status).toBe(200);
    expect(await findingsOf(biz, 'money')).toEqual([]);
  });
});

describe('tokenize-consent', () => {
  it('finds tokenize TRUE from a business that never asks with INQUIRE', async () => {
    const biz = business('tokenize-silent');
    expect((await checkout(biz, {}, { tokenize: 'true' })).status).toBe(200);
    expect((await link(biz, {}, { tokenize: true })).status).toBe(200);
    const [finding] = await findingsOf(biz, 'tokenize-consent');
    expect(finding!.message).toMatch(/^2 links or checkouts saved the card with tokenize TRUE/);
    expect(finding!.message).toContain('cannot see your own pages');
  });

  it('finds nothing for a business that lets the customer choose', async () => {
    const biz = business('tokenize-asks');
    expect((await checkout(biz, {}, { tokenize: 'inquire' })).status).toBe(200);
    expect((await checkout(biz, {}, { tokenize: 'TRUE' })).status).toBe(200);
    expect(await findingsOf(biz, 'tokenize-consent')).toEqual([]);
  });
});

describe('the advice endpoint', () => {
  it('lists every check with its status and refuses a bad since', async () => {
    const biz = business('endpoint');
    const body = await advice(biz);
    expect(body.checks.map((c) => c.id)).toEqual([
      'trusts-the-redirect',
      'polls-too-fast',
      'reuses-tracking-code',
      'ignores-retry',
      'money',
      'tokenize-consent',
      'webhook-signature',
      'stale-status',
      'double-charge-after-ghost',
      'sends-no-credentials',
    ]);
    const bad = await sb.get('/__sandbox/advice?since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.body.error.message).toContain('since');
  });

  it('keeps only the traffic of the window given by since', async () => {
    const biz = business('window');
    const code = uniqueCode('order');
    await link(biz, { trackingCode: code });
    await link(biz, { trackingCode: code });
    await moveClock(sb, { advance: '20m' });
    expect(await findingsOf(biz, 'reuses-tracking-code')).toHaveLength(1);
    const recent = (await sb.get(`/__sandbox/advice?businessId=${biz}&since=10m`)).body.body;
    expect(recent.findings).toEqual([]);
    expect(recent.since).toBe('10m');
  });
});

// ---- Webhook checks: deliveries to a merchant endpoint (docs/webhooks.md) ----

interface Receiver {
  url: string;
  received: Array<{ type: string; accepted: boolean }>;
  close(): Promise<void>;
}

/**
 * A merchant's webhook endpoint: `careless` answers 200 to anything; `careful` checks the HS256 signature
 * and the crc32 claim of the exact body with the endpoint's secret; `broken` answers 401 to everything.
 */
async function receiver(mode: 'careless' | 'careful' | 'broken', secret: () => string): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let accepted = mode === 'careless';
      if (mode === 'careful') {
        const [h, p, s] = String(req.headers['x-payvision-signature'] ?? '').split('.');
        const expected = createHmac('sha256', secret()).update(`${h}.${p}`).digest('base64url');
        const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString('utf8') || '{}') as { crc32?: string };
        const crc = Buffer.alloc(4);
        crc.writeUInt32LE(crc32(body) >>> 0);
        accepted = s === expected && claims.crc32 === crc.toString('base64url');
      }
      let type = '?';
      try {
        type = (JSON.parse(body.toString('utf8')) as { Type: string }).Type;
      } catch {
        // a tampered body may not parse
      }
      received.push({ type, accepted });
      res.writeHead(accepted ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 8000): Promise<T> {
  const value = await eventually(probe, (v) => v !== undefined, ms).catch(() => {
    throw new Error(`timed out waiting for ${what}`);
  });
  return value as T;
}

async function endpoint(businessId: string, url: string, faults: string[] = []): Promise<string> {
  const res = await sb.post('/__sandbox/webhooks', { businessId, url, faults, secret: 'advisor-test-secret' });
  expect(res.status, res.text).toBe(200);
  return res.body.body.endpoint.secret as string;
}

describe('webhook-signature', () => {
  it('finds an endpoint that accepted a forged signature and a tampered body', async () => {
    const biz = business('hook-careless');
    const merchant = await receiver('careless', () => '');
    try {
      await endpoint(biz, merchant.url, ['bad-signature']);
      await endpoint(biz, merchant.url, ['tampered-body']);
      await payment(biz);
      const findings = await until('both probes accepted', async () => {
        const list = await findingsOf(biz, 'webhook-signature');
        return list.length >= 2 ? list : undefined;
      });
      expect(findings.map((f) => f.severity)).toEqual(['error', 'error']);
      expect(findings.map((f) => f.message.replace(/^.*answered 200 to an event with an? /, '').slice(0, 16)).sort()).toEqual([
        'body changed aft',
        'forged signature',
      ]);
      expect(findings[0]!.evidence[0]!.deliveryId).toBeTypeOf('number');
    } finally {
      await merchant.close();
    }
  });

  it('finds an endpoint that never accepts a correctly signed event', async () => {
    const biz = business('hook-broken');
    const merchant = await receiver('broken', () => '');
    try {
      await endpoint(biz, merchant.url);
      await payment(biz);
      await until('a refused delivery', async () => (merchant.received.length > 0 ? true : undefined));
      const findings = await until('the finding', async () => {
        const list = await findingsOf(biz, 'webhook-signature');
        return list.length > 0 ? list : undefined;
      });
      expect(findings[0]!.message).toMatch(/never answered 2xx to a correctly signed event/);
    } finally {
      await merchant.close();
    }
  });

  it('finds nothing for an endpoint that verifies signatures', async () => {
    const biz = business('hook-careful');
    let secret = '';
    const merchant = await receiver('careful', () => secret);
    try {
      // One endpoint gets the real events, the other only forged ones: the handler must take the first and refuse the second.
      secret = await endpoint(biz, merchant.url);
      await endpoint(biz, merchant.url, ['bad-signature']);
      await payment(biz);
      await until('deliveries', async () => (merchant.received.some((r) => r.accepted) && merchant.received.some((r) => !r.accepted) ? true : undefined)).catch(
        (error: Error) => {
          throw new Error(`${error.message}: ${JSON.stringify(merchant.received)}`);
        },
      );
      const checks = (await advice(biz)).checks;
      expect(checks.find((c) => c.id === 'webhook-signature')!.status).toBe('passed');
      expect(await findingsOf(biz, 'webhook-signature')).toEqual([]);
    } finally {
      await merchant.close();
    }
  });
});

describe('stale-status', () => {
  it('finds a refund refused after the webhook said the payment was refunded in full', async () => {
    const biz = business('stale');
    const merchant = await receiver('careless', () => '');
    try {
      await endpoint(biz, merchant.url);
      const paid = await payment(biz, { amount: 10 });
      expect((await followUp(biz, idOf(paid), 'refund')).body.result).toBe(0);
      await until('the update delivered', async () => (merchant.received.some((r) => r.type === 'Transaction.Update') ? true : undefined));
      // The receiver has it; the sandbox records the acknowledgement once the answer is read: wait for that record.
      await until('the update acknowledged', async () => {
        const events = (await sb.get(`/__sandbox/events?businessId=${biz}`)).body.body.events as { type: string; deliveries: { status: string }[] }[];
        return events.some((e) => e.type === 'Transaction.Update' && e.deliveries.some((d) => d.status === 'delivered')) ? true : undefined;
      });
      expect((await followUp(biz, idOf(paid), 'refund', 5)).body.result).toBe(-8);
      const [finding] = await findingsOf(biz, 'stale-status');
      expect(finding!.message).toMatch(/acknowledged a Transaction.Update about this payment and then asked for a change its old state allowed \(refund\)/);
      expect(finding!.evidence.map((e) => e.deliveryId !== undefined || e.seq !== undefined)).toEqual([true, true]);
    } finally {
      await merchant.close();
    }
  });

  it('finds nothing when follow-ups stay within what the webhooks reported', async () => {
    const biz = business('fresh');
    const merchant = await receiver('careless', () => '');
    try {
      await endpoint(biz, merchant.url);
      const paid = await payment(biz, { amount: 10 });
      expect((await followUp(biz, idOf(paid), 'refund', 4)).body.result).toBe(0);
      await until('the update delivered', async () => (merchant.received.some((r) => r.type === 'Transaction.Update') ? true : undefined));
      expect((await followUp(biz, idOf(paid), 'refund', 6)).body.result).toBe(0);
      expect(await findingsOf(biz, 'stale-status')).toEqual([]);
      expect((await advice(biz)).checks.find((c) => c.id === 'stale-status')!.status).toBe('passed');
    } finally {
      await merchant.close();
    }
  });
});

describe('webhook checks without deliveries', () => {
  it('say they need webhook deliveries rather than pass', async () => {
    const biz = business('no-hooks');
    await payment(biz);
    const checks = (await advice(biz)).checks;
    for (const id of ['webhook-signature', 'stale-status']) {
      const check = checks.find((c) => c.id === id)!;
      expect(check.status).toBe('needs-data');
      expect(check.needs).toMatch(/^needs webhook deliveries/);
    }
  });
});
