/**
 * `paylink pay` on the pages issue 31 item 8 names: the bank page's Decline button (`--outcome declined`),
 * and `--3ds-cancel` on a link created with 3-D Secure counting as what was asked. Real processes against
 * a real sandbox.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'pay-pages';
const pay = (args: string[]) => runCli(['pay', ...args, '--json', '--no-follow', '--base-url', sb.url, '--business-id', BIZ]);

describe('paylink pay on bank pages and 3-D Secure links', () => {
  it('presses the bank page\'s Decline button with --outcome declined (-4, code 3001, exit 0)', async () => {
    // 4: a bank payment read before a button is pressed stays pending (docs/api.md).
    const made = await sb.post('/gateway/v3/payments', { action: 'payment', header: { businessId: BIZ }, body: { transaction: { amount: 4, currencyCode: 'EUR', trackingCode: uniqueCode('decline'), brandId: 3010 }, bank: {} } });
    expect(made.status, made.text).toBe(200);
    const id = (made.body as { body: { id: string } }).body.id;
    const run = await pay([id, '--outcome', 'declined']);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.json).toMatchObject({ kind: 'payment', page: 'bank', asExpected: true, payment: { result: -4 }, steps: [{ action: 'decline' }] });
    expect(run.json.status.body.error.code).toBe(3001);
  });

  it('counts --3ds-cancel on a link created with threeDSecure as asked (exit 0), and --3ds-code 0000 too', async () => {
    for (const flags of [['--3ds-cancel'], ['--3ds-code', '0000']]) {
      const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: BIZ, link: { threeDSecure: true } }));
      expect(created.status, created.text).toBe(200);
      const linkId = (created.body as { body: { link: { linkId: string } } }).body.link.linkId;
      const run = await pay([linkId, ...flags]);
      expect(run.code, `${flags.join(' ')}: ${run.stderr}${run.stdout}`).toBe(0);
      expect(run.json).toMatchObject({ kind: 'link', asExpected: true, payment: { result: -10 } });
      expect(run.json.steps.map((s: { action: string }) => s.action)).toEqual(['pay', flags[0] === '--3ds-cancel' ? '3ds-cancel' : '3ds-submit']);
    }
  });
});
