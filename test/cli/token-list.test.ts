/**
 * `paylink token list` (issue 23, extras): the business's saved card tokens, newest first, never a card
 * number. The real CLI against a real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const cwd = mkdtempSync(join(tmpdir(), 'paylink-token-list-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd });
}

describe('paylink token list', () => {
  it("lists the business's tokens newest first, with last four digits and the outcome they replay, and only its own", async () => {
    const first = JSON.parse((await paylink(['--business-id', 'shop-1', 'token', 'create', '--card', '5555555555554444', '--json'])).stdout).body
      .token as string;
    const second = JSON.parse((await paylink(['--business-id', 'shop-1', 'token', 'create', '--outcome', 'declined', '--json'])).stdout).body.token as string;
    await paylink(['--business-id', 'shop-2', 'token', 'create', '--json']);

    const run = await paylink(['--business-id', 'shop-1', 'token', 'list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const list = JSON.parse(run.stdout);
    expect(list).toMatchObject({ kind: 'token', businessId: 'shop-1', total: 2 });
    expect(list.items.map((t: { token: string }) => t.token)).toEqual([second, first]);
    expect(list.items[1]).toMatchObject({ brandId: 1020, lastFourDigits: '4444', behaviour: 'approved' });
    expect(list.items[0]).toMatchObject({ behaviour: 'declined' });
    expect(run.stdout).not.toContain('5555555555554444');

    const human = await paylink(['--business-id', 'shop-1', 'token', 'list']);
    expect(human.stdout).toContain(first);
    expect(human.stdout).toContain('MasterCard ····4444');
    const none = await paylink(['--business-id', 'shop-3', 'token', 'list']);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No tokens of business shop-3 match.');
  });

  it("shows the customer id a token is keyed by, and --customer lists only that customer's tokens", async () => {
    const biz = ['--business-id', 'shop-customers'];
    const saved = JSON.parse(
      (await paylink([...biz, 'token', 'create', '--card', '4111111111111111', '--customer', '{"customerId":"cust-42"}', '--json'])).stdout,
    ).body.token as string;
    const other = JSON.parse((await paylink([...biz, 'token', 'create', '--card', '5555555555554444', '--json'])).stdout).body.token as string;

    const all = JSON.parse((await paylink([...biz, 'token', 'list', '--json'])).stdout);
    expect(all.items.find((t: { token: string }) => t.token === saved)).toMatchObject({ customerId: 'cust-42' });
    expect(all.items.find((t: { token: string }) => t.token === other)).not.toHaveProperty('customerId');

    const mine = await paylink([...biz, 'token', 'list', '--customer', 'cust-42', '--json']);
    expect(mine.code, mine.stderr).toBe(0);
    expect(JSON.parse(mine.stdout)).toMatchObject({ total: 1, items: [{ token: saved, customerId: 'cust-42' }] });

    const human = await paylink([...biz, 'token', 'list']);
    expect(human.stdout).toContain('CUSTOMER');
    expect(human.stdout).toContain('cust-42');
    const nobody = await paylink([...biz, 'token', 'list', '--customer', 'cust-0']);
    expect(nobody.code).toBe(0);
    expect(nobody.stderr).toContain('No tokens of business shop-customers match.');
  });
});
