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
  it("presses the bank page's Decline button with --outcome declined (-4, code 3001, exit 0)", async () => {
    // 4: a bank payment read before a button is pressed stays pending (docs/api.md).
    const made = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: { transaction: { amount: 4, currencyCode: 'EUR', trackingCode: uniqueCode('decline'), brandId: 3010 }, bank: {} },
    });
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

  const card = (number: string) => ({ number, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' });
  async function cardPayment(extra: Record<string, unknown>, transaction: Record<string, unknown> = {}): Promise<string> {
    const made = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: { transaction: { amount: 9, currencyCode: 'EUR', trackingCode: uniqueCode('card-page'), ...transaction }, ...extra },
    });
    expect(made.status, made.text).toBe(200);
    expect((made.body as { result: number }).result).toBe(2);
    return (made.body as { body: { id: string } }).body.id;
  }

  it("plays a direct payment's 3-D Secure page: 1234 approves, --3ds-cancel is -10, both as asked", async () => {
    const approved = await pay([await cardPayment({ card: card('4000000000003220') })]);
    expect(approved.code, approved.stderr + approved.stdout).toBe(0);
    expect(approved.json).toMatchObject({ kind: 'payment', page: '3ds', asExpected: true, payment: { result: 0 }, steps: [{ action: '3ds-submit' }] });
    const cancelled = await pay([await cardPayment({ card: card('4000000000003220') }), '--3ds-cancel']);
    expect(cancelled.code, cancelled.stderr + cancelled.stdout).toBe(0);
    expect(cancelled.json).toMatchObject({ page: '3ds', asExpected: true, payment: { result: -10 }, steps: [{ action: '3ds-cancel' }] });
    const refused = await runCli([
      'pay',
      await cardPayment({ card: card('4000000000003220') }),
      '--card',
      '4111111111111111',
      '--base-url',
      sb.url,
      '--business-id',
      BIZ,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('waits on its 3-D Secure page');
  });

  it("fills a card redirect payment's card form: the approve card, a declined card, and a 3-D Secure card's challenge", async () => {
    const redirect = { brandId: 1010, returnUrl: 'http://127.0.0.1:9/back' };
    const approved = await pay([await cardPayment({}, redirect)]);
    expect(approved.code, approved.stderr + approved.stdout).toBe(0);
    expect(approved.json).toMatchObject({ kind: 'payment', page: 'card-form', asExpected: true, payment: { result: 0 }, card: { lastFourDigits: '1111' } });
    expect(approved.json.returnUrl).toContain('http://127.0.0.1:9/back');
    const declined = await pay([await cardPayment({}, redirect), '--outcome', 'declined']);
    expect(declined.code, declined.stderr + declined.stdout).toBe(0);
    expect(declined.json).toMatchObject({ page: 'card-form', asExpected: true, payment: { result: -4 } });
    const challenged = await pay([await cardPayment({}, redirect), '--outcome', '3ds']);
    expect(challenged.code, challenged.stderr + challenged.stdout).toBe(0);
    expect(challenged.json.steps.map((s: { action: string }) => s.action)).toEqual(['pay', '3ds-submit']);
    expect(challenged.json.payment.result).toBe(0);
    expect(JSON.stringify(challenged.json)).not.toContain('4000000000003220');
  });
});
