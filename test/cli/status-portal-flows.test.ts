/**
 * `paylink status <id>` shows the flows the provider's portal documents (issue 29, "Done when"): a SEPA Direct
 * Debit payment (brand, the account with its IBAN masked, captured and refunded amounts), a card payment's 3DS 2.0
 * results (flow, authentication result), a one-click checkout's offer (its customer id and the saved cards its
 * form offers) and the token its payment used. The real CLI against a real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { checkoutRequest, sepaDebitRequest, threeDSecure2PaymentRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
/** The business the CLI uses when none is configured. */
const BIZ = 'sandbox-business';
const cwd = mkdtempSync(join(tmpdir(), 'paylink-status-portal-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd });
}

describe('paylink status: the portal flows', () => {
  it('a SEPA Direct Debit payment: brand, the account with its IBAN masked, captured and refunded', async () => {
    const auth = await sb.post('/gateway/v3/payments', sepaDebitRequest(BIZ, 'sepa-status', 'authorize', 30));
    expect(auth.body.result, auth.text).toBe(0);
    const id = auth.body.body.transaction.id as string;
    const followUp = (kind: string, amount: number) =>
      sb.post(`/gateway/v3/payments/${id}/${kind}`, { header: { businessId: BIZ }, body: { transaction: { amount, currencyCode: 'EUR' } } });
    expect((await followUp('capture', 30)).body.result).toBe(0);
    expect((await followUp('refund', 10)).body.result).toBe(0);

    const run = await paylink(['status', id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Brand:\s+SEPA Direct Debit/);
    expect(run.stdout).toMatch(/Account:\s+Ada Lovelace DE89 ···· 3000/);
    expect(run.stdout).toMatch(/Captured:\s+30\.00 EUR/);
    expect(run.stdout).toMatch(/Refunded:\s+10\.00 EUR/);
    expect(run.stdout).not.toContain('370400440532');
    const json = JSON.parse((await paylink(['status', id, '--json'])).stdout);
    expect(json.account).toEqual({ name: 'SEPA Direct Debit', accountHolderName: 'Ada Lovelace', iban: 'DE89 ···· 3000' });
  });

  it('a 3DS 2.0 payment: version, flow and authentication result', async () => {
    const res = await sb.post('/gateway/v3/payments', threeDSecure2PaymentRequest(BIZ, '3ds2-status'));
    expect(res.body.result, res.text).toBe(0);
    const run = await paylink(['status', res.body.body.id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/3-D Secure:\s+version 2, flow FRICTIONLESS, enrolled Y, authentication Y/);
    const json = JSON.parse((await paylink(['status', res.body.body.id, '--json'])).stdout);
    expect(json.threeDSecure).toEqual({ version: '2', enrollmentResult: 'Y', authenticationResult: 'Y', flow: 'FRICTIONLESS' });
  });

  it('a one-click checkout: its customer, the saved cards it offers, and the token its payment used', async () => {
    const customerId = uniqueCode('status-cust');
    const saved = await sb.post('/gateway/v3/tokens', {
      header: { businessId: BIZ },
      body: { card: { number: '5555555555554444', expiryMonth: '12', expiryYear: '2035' }, customer: { customerId } },
    });
    const token = saved.body.body.token as string;
    const request = checkoutRequest({ businessId: BIZ, checkout: { returnUrl: 'http://127.0.0.1:9/r', oneClick: { useCustomerTokens: true } } });
    Object.assign(request.body, { customer: { customerId } });
    const created = await sb.post('/gateway/v3/checkouts', request);
    expect(created.body.result, created.text).toBe(2);
    const id = created.body.body.checkout.checkoutId as string;

    const before = await paylink(['status', id]);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(new RegExp(`One-click:\\s+the saved cards of customer ${customerId}`));
    expect(before.stdout).toMatch(new RegExp(`Saved cards:\\s+MasterCard ····4444 \\(${token}\\)`));
    const json = JSON.parse((await paylink(['status', id, '--json'])).stdout);
    expect(json.oneClick).toMatchObject({ useCustomerTokens: true, customerId, savedCards: [{ token, brandId: 1020, lastFourDigits: '4444' }] });

    const paid = await paylink(['pay', id, '--saved-card', '--no-follow', '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    const after = JSON.parse((await paylink(['status', id, '--json'])).stdout);
    expect(after.attempts[0]).toMatchObject({ result: 0, token });
    const payment = await paylink(['status', after.attempts[0].id]);
    expect(payment.stdout).toMatch(new RegExp(`Token:\\s+${token}`));
  });
});
