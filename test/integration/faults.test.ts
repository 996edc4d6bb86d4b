/**
 * API faults (docs/faults.md) against the real sandbox over HTTP, with a real client (node:http) so that
 * timeouts and resets are seen exactly as a merchant's server sees them.
 */
import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

const SECRET = 'faults-test-secret-0123456789';
const sb = useSandbox({ webhookSecret: SECRET, webhookRetry: 'fast' });

interface RawAnswer {
  status: number;
  body: any;
  ms: number;
}

/** One request with node:http; rejects with the socket error (ECONNRESET, socket hang up) or `client timeout`. */
function send(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  options: { timeoutMs?: number; headers?: Record<string, string>; agent?: Agent } = {},
): Promise<RawAnswer> {
  const started = performance.now();
  const url = new URL(path, sb.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        agent: options.agent ?? false,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, ms: performance.now() - started });
        });
      },
    );
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
    }
    req.on('error', reject);
    req.end(payload);
  });
}

function payment(patch: { businessId?: string; trackingCode?: string; amount?: number; card?: string; notifyUrl?: string } = {}) {
  return {
    action: 'payment',
    header: { businessId: patch.businessId ?? 'faults-biz' },
    body: {
      transaction: {
        amount: patch.amount ?? 10,
        currencyCode: 'EUR',
        trackingCode: patch.trackingCode ?? uniqueCode('fault'),
        ...(patch.notifyUrl !== undefined ? { notifyUrl: patch.notifyUrl } : {}),
      },
      card: { number: patch.card ?? '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' },
    },
  };
}

async function addFault(rule: Record<string, unknown>): Promise<{ id: string }> {
  const answer = await sb.post('/__sandbox/faults', rule);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.body.fault;
}

async function lookup(trackingCode: string, businessId = 'faults-biz'): Promise<any[]> {
  const answer = await sb.get(`/gateway/v3/payments?businessId=${businessId}&trackingCode=${encodeURIComponent(trackingCode)}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The request log's rows for a path, newest last. */
async function logged(path: string): Promise<any[]> {
  const answer = await sb.get(`/__sandbox/requests?path=${encodeURIComponent(path)}&limit=50`);
  return answer.body.body.requests;
}

beforeEach(async () => {
  await sb.post('/__sandbox/faults/clear', {});
});

describe('status faults', () => {
  const cases = [
    { status: 503, result: -3, description: 'Failed, retry', code: 9503, retryAfter: '1' },
    { status: 502, result: -3, description: 'Failed, retry', code: 9503, retryAfter: '1' },
    { status: 500, result: -7, description: 'Internal server error', code: 9500, retryAfter: null },
    { status: 429, result: -3, description: 'Failed, retry', code: 9429, retryAfter: '1' },
    { status: 401, result: -6, description: 'Security error', code: 1401, retryAfter: null },
    { status: 403, result: -6, description: 'Security error', code: 1403, retryAfter: null },
  ];
  for (const c of cases) {
    it(`answers ${c.status} with result ${c.result} (${c.description}) in the provider's envelope and makes no payment`, async () => {
      await addFault({ kind: 'status', status: c.status, method: 'POST', path: 'payments' });
      const code = uniqueCode('status');
      const response = await fetch(`${sb.url}/gateway/v3/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payment({ trackingCode: code })),
      });
      const body = await response.json();
      expect(response.status).toBe(c.status);
      expect(body).toMatchObject({ result: c.result, description: c.description, body: { error: { code: c.code } } });
      expect(body.header.requestCode).toEqual(expect.any(String));
      expect(response.headers.get('retry-after')).toBe(c.retryAfter);
      expect(await lookup(code)).toEqual([]);
    });
  }
});

describe('latency', () => {
  it('delays the real answer by the latency set: 300 ms gives at least 300, and the log records the delay applied', async () => {
    const created = await send('POST', '/gateway/v3/payments', payment());
    const id = created.body.body.id;
    const path = `/gateway/v3/payments/${id}?businessId=faults-biz`;
    const agent = new Agent({ keepAlive: true });
    const before: number[] = [];
    for (let i = 0; i < 3; i++) before.push((await send('GET', path, undefined, { agent })).ms);
    await addFault({ kind: 'latency', latencyMs: 300, method: 'GET', path: 'payments/*' });
    const delayed: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await send('GET', path, undefined, { agent });
      expect(answer.status).toBe(200);
      expect(answer.body.body.id).toBe(id);
      delayed.push(answer.ms);
    }
    agent.destroy();
    const baseline = Math.min(...before);
    console.info(`latency fault of 300 ms: answers took ${delayed.map((m) => m.toFixed(1)).join(', ')} ms (baseline ${baseline.toFixed(1)} ms)`);
    // Never early, and the delay applied is the one set (the request log records it). How much later than
    // 300 ms an answer comes is the machine's doing: printed, never bounded.
    for (const ms of delayed) expect(ms).toBeGreaterThanOrEqual(300);
    const rows = await logged(`/gateway/v3/payments/${id}`);
    expect(rows.slice(-5).map((r: { fault?: { kind: string; delayMs: number } }) => r.fault)).toEqual(
      Array(5).fill({ kind: 'latency', rule: expect.any(String), delayMs: 300 }),
    );
  });

  it('draws the delay of a range within it', async () => {
    const created = await send('POST', '/gateway/v3/payments', payment());
    await addFault({ kind: 'latency', latencyMs: [100, 200], method: 'GET', path: 'payments/*' });
    const answer = await send('GET', `/gateway/v3/payments/${created.body.body.id}?businessId=faults-biz`);
    expect(answer.ms).toBeGreaterThanOrEqual(100);
    const rows = await logged(`/gateway/v3/payments/${created.body.body.id}`);
    expect(rows.at(-1).fault.delayMs).toBeGreaterThanOrEqual(100);
    expect(rows.at(-1).fault.delayMs).toBeLessThanOrEqual(200);
  });
});

describe('timeout and reset', () => {
  it('timeout: holds the connection without an answer until the client gives up, and does nothing', async () => {
    await addFault({ kind: 'timeout', method: 'POST', path: 'payments' });
    const code = uniqueCode('timeout');
    const error = await send('POST', '/gateway/v3/payments', payment({ trackingCode: code }), { timeoutMs: 400 }).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    expect(error?.code).toBe('CLIENT_TIMEOUT');
    expect(await lookup(code)).toEqual([]);
    const row: any = await eventually(
      async () => (await logged('/gateway/v3/payments')).find((r) => r.request?.body?.transaction?.trackingCode === code),
      (found) => found !== undefined,
      5000,
    );
    expect(row).toMatchObject({ status: 0, fault: { kind: 'timeout', ended: 'client-gave-up' } });
  });

  it('timeout: drops the connection at the hold limit when the client waits longer', async () => {
    await addFault({ kind: 'timeout', method: 'POST', path: 'payments', holdMs: 300 });
    const started = performance.now();
    const error = await send('POST', '/gateway/v3/payments', payment(), { timeoutMs: 10_000 }).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    expect(error?.message).toMatch(/socket hang up/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('reset: drops the connection with no answer (ECONNRESET) and does nothing', async () => {
    await addFault({ kind: 'reset', method: 'POST', path: 'payments' });
    const code = uniqueCode('reset');
    const error = await send('POST', '/gateway/v3/payments', payment({ trackingCode: code })).then(
      () => undefined,
      (e: NodeJS.ErrnoException) => e,
    );
    expect(['ECONNRESET', 'socket hang up']).toContain(error?.code === 'ECONNRESET' ? 'ECONNRESET' : error?.message);
    expect(await lookup(code)).toEqual([]);
  });
});

describe('ghost', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  for (const ghostAs of ['timeout', 'reset'] as const) {
    it(`as ${ghostAs}: makes the payment, sends its webhooks, withholds the answer; the lookup by tracking code finds exactly one`, async () => {
      await addFault({ kind: 'ghost', ghostAs, method: 'POST', path: 'payments', times: 1 });
      const code = uniqueCode(`ghost-${ghostAs}`);
      const error = await send('POST', '/gateway/v3/payments', payment({ trackingCode: code, notifyUrl: receiver.url }), { timeoutMs: 1000 }).then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e,
      );
      if (ghostAs === 'timeout') expect(error?.code).toBe('CLIENT_TIMEOUT');
      else expect(error?.code === 'ECONNRESET' || error?.message === 'socket hang up').toBe(true);

      const found = await lookup(code);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ result: 0, body: { trackingCode: code } });
      const paymentId = found[0].body.id;

      const [delivery] = await receiver.waitFor(1, (d) => d.body?.Payload?.body?.id === paymentId);
      expect(delivery!.body.Type).toBe('Transaction.Create');
      await expect(verifyDelivery(delivery!, SECRET)).resolves.toMatchObject({ transmissionId: delivery!.body.Id });

      // Spent after one: the retry (the same tracking code) is answered, and refused as a duplicate.
      const retry = await send('POST', '/gateway/v3/payments', payment({ trackingCode: code }));
      expect(retry.status).toBe(400);
      expect(retry.body.body.error.code).toBe(2001);
      expect(await lookup(code)).toHaveLength(1);

      const row: any = await eventually(
        async () => (await logged('/gateway/v3/payments')).find((r) => r.fault?.kind === 'ghost' && r.request?.body?.transaction?.trackingCode === code),
        (found) => found !== undefined,
        5000,
      );
      expect(row).toMatchObject({ status: 0, fault: { kind: 'ghost', withheldStatus: 200, ended: ghostAs === 'reset' ? 'reset' : 'client-gave-up' } });
    });
  }
});

describe('firing', () => {
  it('with probability 0.3 faults about 300 of 1,000 requests (300 +- 60)', async () => {
    const created = await send('POST', '/gateway/v3/payments', payment());
    const path = `/gateway/v3/payments/${created.body.body.id}?businessId=faults-biz`;
    await addFault({ kind: 'status', status: 503, method: 'GET', path: 'payments/*', probability: 0.3 });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    let faulted = 0;
    let ok = 0;
    for (let batch = 0; batch < 100; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => send('GET', path, undefined, { agent })));
      for (const a of answers) {
        if (a.status === 503) faulted += 1;
        else if (a.status === 200) ok += 1;
      }
    }
    agent.destroy();
    console.info(`probability 0.3: ${faulted} of 1000 requests faulted`);
    expect(faulted + ok).toBe(1000);
    expect(faulted).toBeGreaterThanOrEqual(240);
    expect(faulted).toBeLessThanOrEqual(360);
    const rule = (await sb.get('/__sandbox/faults')).body.body.faults[0];
    expect(rule.fired).toBe(faulted);
  });

  it('--times N faults exactly the next N matching requests, and the spent rule stays listed', async () => {
    await addFault({ kind: 'status', status: 500, method: 'POST', path: 'payments', times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await send('POST', '/gateway/v3/payments', payment())).status);
    expect(statuses).toEqual([500, 500, 200, 200]);
    const [rule] = (await sb.get('/__sandbox/faults')).body.body.faults;
    expect(rule).toMatchObject({ times: 2, remaining: 0, fired: 2, spent: true });
  });

  it('fires for one of two concurrent requests when it has one firing left', async () => {
    await addFault({ kind: 'status', status: 503, method: 'POST', path: 'payments', times: 1 });
    const statuses = (await Promise.all([send('POST', '/gateway/v3/payments', payment()), send('POST', '/gateway/v3/payments', payment())]))
      .map((a) => a.status)
      .sort();
    expect(statuses).toEqual([200, 503]);
  });

  it('keeps the rules and their counts across a restart', async () => {
    await addFault({ kind: 'status', status: 503, method: 'POST', path: 'payments', times: 2 });
    expect((await send('POST', '/gateway/v3/payments', payment())).status).toBe(503);
    await sb.restart();
    expect((await send('POST', '/gateway/v3/payments', payment())).status).toBe(503);
    expect((await send('POST', '/gateway/v3/payments', payment())).status).toBe(200);
    const [rule] = (await sb.get('/__sandbox/faults')).body.body.faults;
    expect(rule).toMatchObject({ fired: 2, remaining: 0 });
  });

  it('keeps the rules across a reset of the data', async () => {
    await addFault({ kind: 'status', status: 503, method: 'POST', path: 'payments' });
    await sb.post('/__sandbox/reset', {});
    expect((await sb.get('/__sandbox/faults')).body.body.faults).toHaveLength(1);
  });
});

describe('matching', () => {
  it('matches by business, brand and amount, and leaves other requests alone', async () => {
    await addFault({ kind: 'status', status: 503, method: 'POST', path: 'payments', businessId: 'shop-a', brandId: 1020, amount: { min: 10, max: 20 } });
    const mastercard = '5555555555554444';
    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'shop-a', card: mastercard, amount: 15 }))).status).toBe(503);
    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'shop-b', card: mastercard, amount: 15 }))).status).toBe(200);
    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'shop-a', card: '4111111111111111', amount: 15 }))).status).toBe(200);
    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'shop-a', card: mastercard, amount: 25 }))).status).toBe(200);
  });

  it('matches the path pattern: `payments` is creation, not a refund of a payment', async () => {
    const created = await send('POST', '/gateway/v3/payments', payment());
    await addFault({ kind: 'status', status: 503, method: 'POST', path: 'payments' });
    const refund = await send('POST', `/gateway/v3/payments/${created.body.body.id}/refund`, {
      header: { businessId: 'faults-biz' },
      body: { transaction: { amount: 1 } },
    });
    expect(refund.status).toBe(200);
    await sb.post('/__sandbox/faults/clear', {});
    await addFault({ kind: 'status', status: 503, path: 'payments/*/refund' });
    const second = await send('POST', `/gateway/v3/payments/${created.body.body.id}/refund`, {
      header: { businessId: 'faults-biz' },
      body: { transaction: { amount: 1 } },
    });
    expect(second.status).toBe(503);
  });

  it('among 1,000 rules the first that matches fires and the others do not; a removed rule no longer fires', { timeout: 60_000 }, async () => {
    // 999 rules that do not match a payment of many-biz: other paths, other methods, other businesses.
    const others = Array.from({ length: 999 }, (_, i) =>
      i % 3 === 0
        ? { kind: 'status', status: 500, path: `paymentlinks/other-${i}` }
        : i % 3 === 1
          ? { kind: 'status', status: 500, method: 'GET', path: 'payments' }
          : { kind: 'status', status: 500, method: 'POST', path: 'payments', businessId: `other-biz-${i}` },
    );
    for (let i = 0; i < others.length; i += 50) await Promise.all(others.slice(i, i + 50).map((rule) => addFault(rule)));
    const first = await addFault({ kind: 'status', status: 503, method: 'POST', path: '/gateway/v3/payments', businessId: 'many-biz' });
    await addFault({ kind: 'status', status: 429, path: '**', businessId: 'many-biz' });
    expect((await sb.get('/__sandbox/faults')).body.body.faults).toHaveLength(1001);

    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'many-biz' }))).status).toBe(503);
    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'other-biz-2' }))).status).toBe(500);
    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'another-biz' }))).status).toBe(200);
    const fired = ((await sb.get('/__sandbox/faults')).body.body.faults as Array<{ id: string; fired: number }>).filter((f) => f.fired > 0);
    expect(fired).toHaveLength(2);
    expect(fired.map((f) => f.id)).toContain(first.id);

    // Removed, the next rule in order (any path of many-biz) answers instead.
    expect((await sb.post(`/__sandbox/faults/${first.id}/remove`, {})).status).toBe(200);
    expect((await send('POST', '/gateway/v3/payments', payment({ businessId: 'many-biz' }))).status).toBe(429);
  });

  it("spares paylink's own marked requests unless the rule includes them, and never faults the admin API or the dashboard", async () => {
    await addFault({ kind: 'status', status: 503, path: '/**' });
    const marked = { 'x-paylink-client': 'cli' };
    expect((await send('POST', '/gateway/v3/payments', payment(), { headers: marked })).status).toBe(200);
    expect((await send('POST', '/gateway/v3/payments', payment())).status).toBe(503);
    expect((await sb.get('/__sandbox/health')).status).toBe(200);
    expect((await fetch(`${sb.url}/`)).status).toBe(200);
    await sb.post('/__sandbox/faults/clear', {});
    await addFault({ kind: 'status', status: 503, path: '**', includePaylink: true });
    expect((await send('POST', '/gateway/v3/payments', payment(), { headers: marked })).status).toBe(503);
  });
});

describe('managing rules', () => {
  it('refuses a rule that makes no sense with the input-error envelope, naming the field', async () => {
    const bad = [
      [{ kind: 'explode' }, 'kind'],
      [{ kind: 'status', status: 418 }, 'status'],
      [{ kind: 'latency' }, 'latencyMs'],
      [{ kind: 'latency', latencyMs: [500, 100] }, 'latencyMs'],
      [{ kind: 'status', latencyMs: 100 }, 'latencyMs'],
      [{ kind: 'reset', probability: 0 }, 'probability'],
      [{ kind: 'reset', times: 0 }, 'times'],
      [{ kind: 'reset', path: 'payments/%2e' }, 'path'],
      [{ kind: 'ghost', ghostAs: 'reset', holdMs: 100 }, 'holdMs'],
      [{ kind: 'timeout', holdMs: 999_999 }, 'holdMs'],
      [{ kind: 'reset', brandId: 4242 }, 'brandId'],
    ] as const;
    for (const [rule, field] of bad) {
      const answer = await sb.post('/__sandbox/faults', rule);
      expect(answer.status, JSON.stringify(rule)).toBe(400);
      expect(answer.body).toMatchObject({ result: -1, body: { error: { code: 1002 } } });
      expect(answer.body.body.error.message).toContain(field);
    }
    expect((await sb.get('/__sandbox/faults')).body.body.faults).toEqual([]);
  });

  it('lists, removes and clears rules; an unknown id is a 404', async () => {
    const a = await addFault({ kind: 'reset', path: 'checkouts' });
    const b = await addFault({ kind: 'latency', latencyMs: 10 });
    expect((await sb.get('/__sandbox/faults')).body.body.faults.map((f: any) => f.id)).toEqual([a.id, b.id]);
    expect((await sb.post(`/__sandbox/faults/${a.id}/remove`, {})).status).toBe(200);
    expect((await sb.post(`/__sandbox/faults/${a.id}/remove`, {})).status).toBe(404);
    expect((await sb.get('/__sandbox/faults')).body.body.faults.map((f: any) => f.id)).toEqual([b.id]);
    expect((await sb.post('/__sandbox/faults/clear', {})).body.body.removed).toBe(1);
  });

  it('shows the rules on the dashboard, removes one from there, and marks faulted requests in its request log', async () => {
    const rule = await addFault({ kind: 'status', status: 503, method: 'POST', path: 'payments' });
    await send('POST', '/gateway/v3/payments', payment());
    const page = await (await fetch(`${sb.url}/__sandbox/dashboard/faults`)).text();
    expect(page).toContain(`data-fault="${rule.id}"`);
    expect(page).toContain('answer 503');
    const log = await (await fetch(`${sb.url}/__sandbox/dashboard/requests`)).text();
    expect(log).toContain(`fault ${rule.id} status`);
    const removed = await fetch(`${sb.url}/__sandbox/dashboard/faults/${rule.id}/remove`, { method: 'POST', redirect: 'manual' });
    expect(removed.status).toBe(303);
    expect((await sb.get('/__sandbox/faults')).body.body.faults).toEqual([]);
  });
});
