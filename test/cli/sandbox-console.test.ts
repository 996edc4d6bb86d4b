/**
 * The live console of `paylink sandbox` on a terminal (issue 31, item 18): a line per request and per
 * webhook delivery as it happens, card data masked; nothing of it with `--quiet` or `--json`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CTRL_C, hasScript, runInTty } from '../helpers/tty.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const CARD = '4111111111111111';
let cwd: string;
let receiver: Receiver;

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'paylink-console-'));
  receiver = await startReceiver();
  receiver.answer(204);
});
afterAll(async () => {
  await receiver.close();
  rmSync(cwd, { recursive: true, force: true });
});

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Registers the receiver for `businessId` and pays 5 EUR by card there: one request, one delivery. */
async function payByCard(base: string, businessId: string): Promise<string> {
  await post(base, '/__sandbox/webhooks', { businessId, url: `${receiver.url}/hooks` });
  const paid = await post(base, '/gateway/v3/payments', {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { amount: 5, currencyCode: 'EUR', trackingCode: `console-${Date.now()}` },
      card: { number: CARD, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' },
    },
  });
  return (paid.body as { transaction: { id: string } }).transaction.id;
}

const BASE = /PAYLINK_BASE_URL=(http:\/\/\S+)/;

describe.runIf(hasScript)('paylink sandbox: the live console', () => {
  it('prints a line per request (method, path, result, business, ids) and per delivery (its answer), card data masked', async () => {
    let paymentId = '';
    const run = await runInTty(
      ['sandbox', '--port', '0', '--db', ':memory:'],
      [
        {
          when: BASE,
          send: async (m) => {
            paymentId = await payByCard(m[1]!, 'console-biz');
            return '';
          },
        },
        { when: /-> webhook \S+ #1 \S+\/hooks 204/, send: CTRL_C },
      ],
      { cwd, columns: 200, timeoutMs: 30_000 },
    );
    expect(run.screen, run.screen).toMatch(/POST \/__sandbox\/webhooks 200/);
    const line = run.screen.split('\n').find((l) => l.includes('POST /gateway/v3/payments '));
    expect(line, run.screen).toBeDefined();
    expect(line).toMatch(/ 200 /);
    expect(line).toContain('console-biz');
    expect(line).toContain(paymentId);
    const delivery = run.screen.split('\n').find((l) => l.includes('-> webhook'))!;
    expect(delivery).toContain('console-biz');
    expect(delivery).toContain(paymentId);
    expect(run.screen).not.toContain(CARD);
    expect(run.code, run.screen).toBe(130);
  });

  for (const flag of ['--quiet', '--json']) {
    it(`prints none of it with ${flag}`, async () => {
      const run = await runInTty(
        ['sandbox', '--port', '0', '--db', ':memory:', flag],
        [
          {
            when: flag === '--json' ? /"publicUrl":\s*"(http:\/\/[^"]+)"/ : BASE,
            send: async (m) => {
              const before = receiver.deliveries.length;
              await payByCard(m[1]!, 'console-quiet');
              await receiver.waitFor(before + 1);
              return CTRL_C;
            },
          },
        ],
        { cwd, columns: 200, timeoutMs: 30_000 },
      );
      expect(run.screen).not.toContain('/gateway/v3/payments');
      expect(run.screen).not.toContain('-> webhook');
      expect(run.code, run.screen).toBe(130);
    });
  }
});
