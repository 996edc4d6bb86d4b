/**
 * The card the CLI sends by default expires three years after the sandbox clock's year, not this machine's:
 * with the clock set nine years ahead, `payment create`, `token create` and `trigger` still pay with a card
 * the sandbox accepts (its expiry is judged by the sandbox clock), as `pay` already did. Real processes
 * against a real sandbox.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/cli.js';

const sb = useSandbox();
const CLOCK_YEAR = new Date().getUTCFullYear() + 9;

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { child, out, err } = spawnCli([...args, '--base-url', sb.url, '--business-id', 'cli-clock-year', '--no-color']);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out: out(), err: err() })));
}

describe('the default card expiry follows the sandbox clock', () => {
  it('payment create, token create and trigger pay with a card that has not expired by the sandbox clock', async () => {
    expect((await sb.post('/__sandbox/clock', { set: `${CLOCK_YEAR}-06-01T12:00:00Z`, freeze: true })).status).toBe(200);

    const payment = await run(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--json']);
    expect(payment.code, payment.err).toBe(0);
    expect(JSON.parse(payment.out)).toMatchObject({ result: 0 });

    const token = await run(['token', 'create', '--json']);
    expect(token.code, token.err).toBe(0);
    const tokenEnvelope = JSON.parse(token.out);
    expect(tokenEnvelope.result).toBe(0);
    const saved = (await sb.get(`/__sandbox/tokens?businessId=cli-clock-year`)).body.body.items as Array<{ token: string; expiryYear: string }>;
    expect(saved.find((t) => t.token === tokenEnvelope.body.token)?.expiryYear).toBe(String(CLOCK_YEAR + 3));

    const trigger = await run(['trigger', 'payment.approved', '--business', 'cli-clock-year', '--json']);
    expect(trigger.code, trigger.err).toBe(0);
    expect(JSON.parse(trigger.out).scenario).toBe('payment.approved');

    // An AfterPay customer born "ten years ago" is under age by the sandbox clock (by this machine's year, 19).
    const underAge = await run(['trigger', 'afterpay.under-age', '--business', 'cli-clock-year', '--json']);
    expect(underAge.code, underAge.err).toBe(0);
    const paymentId = JSON.parse(underAge.out).ids.payment as string;
    const afterpay = await sb.get(`/gateway/v3/payments/${paymentId}?businessId=cli-clock-year`);
    expect(afterpay.body.result).not.toBe(0);
  });

  it('keeps an explicit --expiry-year as given', async () => {
    const year = String(CLOCK_YEAR + 1);
    const token = await run(['token', 'create', '--expiry-year', year, '--json']);
    expect(token.code, token.err).toBe(0);
    const saved = (await sb.get(`/__sandbox/tokens?businessId=cli-clock-year`)).body.body.items as Array<{ token: string; expiryYear: string }>;
    expect(saved.find((t) => t.token === JSON.parse(token.out).body.token)?.expiryYear).toBe(year);
  });
});
