/**
 * What the CLI refuses before sending anything (issue 32, items 13 and 14b), as real processes against a
 * real sandbox: `trigger --set` keys that reach a prototype, and `paylink api` paths that leave the API
 * for the sandbox's admin endpoints. Both are usage errors (exit 2), and the sandbox sees no request.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { setPath } from '../../src/cli/trigger/run.js';
import { UsageError } from '../../src/cli/errors.js';

const sb = useSandbox();

function paylink(args: string[]) {
  return runCli([...args, '--base-url', sb.url]);
}

/** A link made through the API, which a reset of the sandbox would delete. */
async function sentinelLink(): Promise<string> {
  const run = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run.json.body.link.linkId as string;
}

async function stillThere(linkId: string): Promise<boolean> {
  return (await fetch(`${sb.url}/gateway/v3/paymentlinks/${linkId}?businessId=sandbox-business`)).status === 200;
}

describe('trigger --set refuses keys that reach a prototype (issue 32, item 13)', () => {
  it.each(['__proto__.polluted=1', 'body.constructor.prototype.polluted=1', 'body.prototype=1'])('exits 2 for --set %s', async (set) => {
    const run = await paylink(['trigger', 'payment.approved', '--set', set, '--json']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.json.error.message).toContain('are refused');
  });

  it('never writes to Object.prototype', () => {
    expect(() => setPath({}, '__proto__.polluted', 1)).toThrow(UsageError);
    expect(() => setPath({}, 'a.constructor.prototype.polluted', 1)).toThrow(UsageError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const doc: Record<string, unknown> = { body: {} };
    setPath(doc, 'body.transaction.descriptor', 'SHOP 7');
    expect(doc).toEqual({ body: { transaction: { descriptor: 'SHOP 7' } } });
  });
});

describe('paylink api stays in the API (issue 32, item 14b)', () => {
  it.each([
    '../../__sandbox/reset',
    '/gateway/v3/../../__sandbox/reset',
    'payments/%2e%2e/%2E%2E/%2e%2e/__sandbox/reset',
    'payments/..\\..\\..\\__sandbox/reset',
    './payments',
  ])('exits 2 for POST %s, and the sandbox is not reset', async (path) => {
    const linkId = await sentinelLink();
    const run = await paylink(['api', 'POST', path, '--json']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.json.error.message).toContain('leaves the API');
    expect(await stillThere(linkId)).toBe(true);
  });

  it('still sends a path under the API', async () => {
    const run = await paylink(['api', 'GET', 'payments/no-such-payment']);
    expect(run.code).not.toBe(2);
  });
});
