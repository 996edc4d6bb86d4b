/**
 * `paylink trigger` as real processes against a real sandbox: every scenario's webhooks arrive at a real
 * receiver, each verified as the provider's SDKs do (HS256 JWT with the webhook secret, then the crc32
 * claim against the raw body), and they are the events the scenario says it makes.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';
import { SCENARIOS } from '../../src/cli/trigger/scenarios.js';
import { pathOf } from '../../src/sandbox/domain/routes.js';

const SECRET = 'trigger-test-secret-0123456789';
const sb = useSandbox({ webhookSecret: SECRET, webhookRetry: 'fast' });
const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args, '--base-url', sb.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('paylink trigger', () => {
  it('runs every scenario: its webhooks arrive signed and whole, and are the events it describes', async () => {
    const results: Array<{ name: string; result: any }> = [];
    // Four processes at a time: the machine is shared.
    for (let i = 0; i < SCENARIOS.length; i += 4) {
      const batch = SCENARIOS.slice(i, i + 4);
      const runs = await Promise.all(batch.map((s) => run(['trigger', s.name, '--notify-url', rx.url, '--business', `trigger-${s.name}`, '--json'])));
      runs.forEach((r, j) => {
        expect(r.code, `${batch[j]!.name}: ${r.err}`).toBe(0);
        results.push({ name: batch[j]!.name, result: JSON.parse(r.out) });
      });
    }
    for (const { name, result } of results) {
      const scenario = SCENARIOS.find((s) => s.name === name)!;
      expect(result.scenario).toBe(name);
      expect(result.businessId).toBe(`trigger-${name}`);
      expect(Object.keys(result.ids).length, name).toBeGreaterThan(0);
      expect(
        result.events.map((e: any) => e.type),
        name,
      ).toEqual(scenario.events);
      for (const e of result.events) expect(e.deliveries, `${name} ${e.id}`).toEqual([{ url: rx.url, status: expect.any(String) }]);

      const ids = new Set(result.events.map((e: any) => e.id));
      const delivered = await rx.waitFor(ids.size, (d) => ids.has(d.body?.Id), 15_000);
      for (const d of delivered) {
        const claims = await verifyDelivery(d, SECRET);
        expect(claims.transmissionId).toBe(d.body.Id);
        const event = result.events.find((e: any) => e.id === d.body.Id);
        expect(d.body.Type).toBe(event.type);
        expect(d.body.Payload.body.id ?? d.body.Payload.body.transaction?.id).toBe(event.paymentId);
        expect(d.body.Payload.header).toBeDefined();
      }
    }
    const byName = Object.fromEntries(results.map((r) => [r.name, r.result]));
    // What the scenarios are about, in the payloads: a decline, a partial refund, a settled bank payment, a token.
    expect(byName['payment.declined'].events[0].result).toBe(-4);
    expect(byName['3ds.abandoned'].events.at(-1).result).toBe(-10);
    expect(byName['bank.expired'].events.at(-1).result).toBe(4);
    expect(byName['bank.cancelled'].events.at(-1).result).toBe(-10);
    expect(byName['checkout.tokenized'].ids.token).toEqual(expect.any(String));
    expect(byName['refund.partial'].events.map((e: any) => e.action)).toEqual(['payment', 'refund', 'payment']);
    expect(byName['afterpay.under-age'].events[0].result).toBe(-4);
    expect(byName['sepa-debit.captured'].events.map((e: any) => e.action)).toEqual([
      'authorize',
      'capture',
      'authorize',
      'capture',
      'authorize',
      'refund',
      'authorize',
    ]);
    // 3DS 2.0 and one-click (issue 29): the challenged payment ends approved, the one-click payment pays the saved card.
    expect(byName['payment.3ds2-frictionless'].events[0].result).toBe(0);
    expect(byName['payment.3ds2-challenge'].events.map((e: any) => e.result)).toEqual([2, 0]);
    expect(byName['payment.3ds2-downgrade'].events.map((e: any) => e.result)).toEqual([2, 0]);
    const downgraded = await fetch(
      `${sb.url}${pathOf('payments.get', { paymentId: byName['payment.3ds2-downgrade'].ids.payment })}?businessId=trigger-payment.3ds2-downgrade`,
    ).then((r) => r.json());
    expect(downgraded.body.threeDSecure).toMatchObject({ version: '1', authenticationResult: 'Y' });
    expect(downgraded.body.threeDSecure.flow).toBeUndefined();
    expect(byName['checkout.one-click'].events[0].result).toBe(0);
    expect(byName['checkout.one-click'].ids.token).toEqual(expect.any(String));
  }, 180_000);

  it('takes --amount, --currency, --brand and --set into the requests it sends', async () => {
    const r = await run([
      'trigger',
      'refund.partial',
      '--amount',
      '25',
      '--currency',
      'USD',
      '--brand',
      'mastercard',
      '--set',
      'body.transaction.descriptor=SHOP 7',
      '--business',
      'trigger-options',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    const result = JSON.parse(r.out);
    const payment = (await sb.get(`/gateway/v3/payments/${result.ids.payment}?businessId=trigger-options`)).body;
    expect(payment.body.transaction).toMatchObject({ amount: 25, currencyCode: 'USD', brandId: 1020 });
    const refund = (await sb.get(`/gateway/v3/payments/${result.ids.refund}?businessId=trigger-options`)).body;
    expect(refund.body.transaction.amount).toBe(12.5);
    const logged = (await sb.get('/__sandbox/requests?path=/gateway/v3/payments&businessId=trigger-options&limit=10')).body.body.requests;
    expect(logged[0].request.body.transaction.descriptor).toBe('SHOP 7');
    expect(logged[0].client).toBe('trigger');

    const bank = await run(['trigger', 'bank.approved', '--brand', 'sofort', '--business', 'trigger-options', '--json']);
    expect(bank.code, bank.err).toBe(0);
    const sofort = (await sb.get(`/gateway/v3/payments/${JSON.parse(bank.out).ids.payment}?businessId=trigger-options`)).body;
    expect(sofort).toMatchObject({ result: 0, body: { transaction: { brandId: 3020 } } });
  }, 60_000);

  it('lists the scenarios with --list, and refuses an unknown one with exit code 2', async () => {
    const list = await run(['trigger', '--list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out).map((s: any) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
    const text = await run(['trigger', '--list']);
    expect(text.out).toContain('payment.failed-retry');
    const unknown = await run(['trigger', 'payment.exploded']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('payment.approved');
    const none = await run(['trigger']);
    expect(none.code).toBe(2);
  });
});
