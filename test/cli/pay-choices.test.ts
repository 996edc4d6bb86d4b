/**
 * Links nobody can pay and cards that cannot fit (issue 23, items 6 and 7): `link create` / `checkout
 * create` refuse brands without a test card; `pay` picks a card of a brand the page accepts for the
 * outcome, or says none exists before sending anything; `pay --save-card` on a checkout without
 * `--tokenize inquire` exits 3 naming why. The real CLI against a real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const cwd = mkdtempSync(join(tmpdir(), 'paylink-pay-choices-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd });
}

const RETURN = ['--return-url', 'http://127.0.0.1:9/r'];

async function requestCount(): Promise<number> {
  return (await sb.get('/__sandbox/requests?limit=1')).body.body.lastSeq as number;
}

describe('brands without a test card (item 6)', () => {
  it('refuses `link create --brand ideal` up front, sending nothing', async () => {
    const before = await requestCount();
    for (const brand of ['ideal']) {
      const run = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', ...RETURN, '--brand', brand]);
      expect(run.code, brand).toBe(2);
      expect(run.stderr).toContain('--brand: no test card exists for');
      expect(run.stderr).toContain('Offer a brand that has test cards: VISA, MasterCard');
    }
    const checkout = await paylink(['checkout', 'create', '--amount', '5', '--currency', 'EUR', ...RETURN, '--brand', 'ideal']);
    expect(checkout.code).toBe(2);
    expect(checkout.stderr).toContain('iDEAL is not a card brand');
    expect(await requestCount()).toBe(before);
  });

  it('creates a link of VISA and iDEAL, warning that iDEAL has no test card', async () => {
    const run = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', ...RETURN, '--brand', 'visa,ideal']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('no test card exists for iDEAL');
  });

  it('pays a VPay-only link, now that every card brand has test cards (issue 31, item 16)', async () => {
    const link = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', ...RETURN, '--brand', 'vpay', '--json']);
    expect(link.code, link.stderr).toBe(0);
    const id = link.json.body.link.linkId as string;
    const declined = await paylink(['pay', id, '--outcome', 'declined', '--no-follow', '--json']);
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.json).toMatchObject({ asExpected: true, card: { brandId: 1015, outcome: 'declined' } });
  });

  it('pays a MasterCard-only link with a MasterCard card of the outcome asked for', async () => {
    const link = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', ...RETURN, '--brand', 'mastercard', '--json']);
    const id = link.json.body.link.linkId as string;
    const declined = await paylink(['pay', id, '--outcome', 'declined', '--no-follow', '--json']);
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.json).toMatchObject({ asExpected: true, card: { brandId: 1020, outcome: 'declined' } });
  });

  it('says before paying that no MasterCard test card gives insufficient-funds, and which outcomes it has', async () => {
    const link = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', ...RETURN, '--brand', 'mastercard', '--json']);
    const id = link.json.body.link.linkId as string;
    const run = await paylink(['pay', id, '--outcome', 'insufficient-funds', '--no-follow']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--outcome insufficient-funds: the page accepts MasterCard, and the test card for insufficient-funds is VISA');
    expect(run.stderr).toContain('Outcomes with a test card of MasterCard: approved, declined, failed, 3ds');
    expect(run.stderr).not.toContain('is not accepted here');
    const status = await paylink(['link', 'get', id, '--json']);
    expect(status.json.body.payments ?? []).toEqual([]);
  });
});

describe('pay --save-card (item 7)', () => {
  it('exits 3 naming the reason on a checkout created without --tokenize inquire, paying nothing', async () => {
    const created = await paylink(['checkout', 'create', '--amount', '5', '--currency', 'EUR', ...RETURN, '--json']);
    const id = created.json.body.checkout.checkoutId as string;
    const run = await paylink(['pay', id, '--save-card', '--no-follow', '--json']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`--save-card: the checkout ${id} was created with tokenize FALSE, so its page offers no "save card" box`);
    expect(run.json.error.exitCode).toBe(3);
    const status = await paylink(['checkout', 'get', id, '--json']);
    expect(status.json.description).toBe('Pending');
  });
});
