/**
 * `paylink faults add|list|remove|clear` as real processes against a real sandbox, and `paylink logs`
 * marking a faulted request with the rule that fired.
 */
import { describe, expect, it } from 'vitest';
import { eventually, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/cli.js';

const sb = useSandbox();

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { child, out, err } = spawnCli([...args, '--base-url', sb.url]);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out: out(), err: err() })));
}

describe('paylink faults', () => {
  it('adds a ghost rule, lists it, marks the faulted request in paylink logs, and removes it', async () => {
    const added = await run(['faults', 'add', '--method', 'POST', '--path', 'payments', '--kind', 'ghost', '--as', 'reset', '--times', '1', '--json']);
    expect(added.code, added.err).toBe(0);
    const rule = JSON.parse(added.out);
    expect(rule).toMatchObject({ kind: 'ghost', ghostAs: 'reset', times: 1, remaining: 1, match: { method: 'POST', path: 'payments' } });

    const listed = await run(['faults', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(rule.id);
    expect(listed.out).toContain('1 of 1 left');

    const code = uniqueCode('cli-ghost');
    const sent = await fetch(`${sb.url}/gateway/v3/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'payment',
        header: { businessId: 'sandbox-business' },
        body: {
          transaction: { amount: 5, currencyCode: 'EUR', trackingCode: code },
          card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' },
        },
      }),
    }).then(
      () => 'answered',
      () => 'no answer',
    );
    expect(sent).toBe('no answer');

    const logs = await eventually(
      () => run(['logs', '--path', '/gateway/v3/payments', '--no-color']),
      (l) => l.out.includes(`fault ${rule.id} ghost`),
    );
    expect(logs.out).toContain(`fault ${rule.id} ghost: acted, 200 withheld, connection reset`);

    const removed = await run(['faults', 'remove', rule.id]);
    expect(removed.code).toBe(0);
    expect(removed.out + removed.err).toContain(`Removed fault rule ${rule.id}`);
    const again = await run(['faults', 'remove', rule.id]);
    expect(again.code).toBe(3);
  });

  it('refuses bad flags with a message and exit code 2, before calling the sandbox', async () => {
    const noKind = await run(['faults', 'add', '--path', 'payments']);
    expect(noKind.code).toBe(2);
    expect(noKind.err).toContain('--kind');
    const badLatency = await run(['faults', 'add', '--kind', 'latency', '--latency', 'soon']);
    expect(badLatency.code).toBe(2);
    expect(badLatency.err).toContain('--latency');
    const badAmount = await run(['faults', 'add', '--kind', 'reset', '--amount', 'ten']);
    expect(badAmount.code).toBe(2);
  });

  it("answers the sandbox's refusal of a rule with exit code 3 and its message, and what the CLI can check with exit 2", async () => {
    const refused = await run(['faults', 'add', '--kind', 'latency', '--latency', '999999']);
    expect(refused.code, refused.err).toBe(3);
    expect(refused.err).toContain('latency');
    const checked = await run(['faults', 'add', '--kind', 'status', '--status', '418']);
    expect(checked.code).toBe(2);
    expect(checked.err).toContain('--status');
  });

  it('clears every rule, with a range latency and a probability given as flags', async () => {
    const a = await run(['faults', 'add', '--kind', 'latency', '--latency', '200-800', '--probability', '0.5', '--json']);
    expect(a.code, a.err).toBe(0);
    expect(JSON.parse(a.out)).toMatchObject({ latencyMs: [200, 800], probability: 0.5 });
    const cleared = await run(['faults', 'clear', '--json']);
    expect(JSON.parse(cleared.out).removed).toBeGreaterThanOrEqual(1);
    const listed = await run(['faults', 'list', '--json']);
    expect(JSON.parse(listed.out)).toEqual([]);
  });
});
