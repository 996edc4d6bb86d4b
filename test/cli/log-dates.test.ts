/**
 * Issue 31, item 17's leftovers as real processes: `logs` and `events list` show dates once the sandbox
 * clock moved off today (not only times), and `events list` prints a header over its columns.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'dates-shop';

async function payment(): Promise<string> {
  const paid = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 3, currencyCode: 'EUR', trackingCode: uniqueCode('dates') },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' },
    },
  });
  expect(paid.status, paid.text).toBe(200);
  return (paid.body as { body: { id: string } }).body.id;
}

describe('dates in logs and events list', () => {
  it('prints the time alone today, the date and time once the clock moved to another day; events list has a header', async () => {
    const today = await payment();
    const before = await runCli(['logs', '--path', 'payments', '--base-url', sb.url]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} POST/m);

    expect((await sb.post('/__sandbox/clock', { advance: '3d' })).status).toBe(200);
    const later = await payment();
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const after = await runCli(['logs', '--path', 'payments', '--base-url', sb.url]);
    expect(after.stdout).toMatch(new RegExp(`^${day} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} POST`, 'm'));

    const events = await runCli(['events', 'list', '--business-id', BIZ, '--base-url', sb.url]);
    expect(events.code, events.stderr).toBe(0);
    const lines = events.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+EVENT\s+TYPE\s+ACTION\s+RESULT\s+PAYMENT\s+DELIVERIES$/);
    expect(lines.find((l) => l.includes(later))).toMatch(new RegExp(`^${day} `));
    expect(lines.find((l) => l.includes(today))).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3}\s/);
    await sb.post('/__sandbox/clock', { reset: true });
  });
});
