/**
 * `paylink pay <checkoutId> --saved-card`: the customer of a one-click checkout pays with the first saved card
 * its hosted page offers (its CVV only, as many digits as the card's brand takes), which makes a token payment; on a checkout that offers none it exits
 * 3 saying so. The real CLI against a real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { checkoutRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
/** The business the CLI uses when none is configured. */
const BIZ = 'sandbox-business';
const cwd = mkdtempSync(join(tmpdir(), 'paylink-pay-saved-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url], { cwd });
}

async function checkout(more: Record<string, unknown>, customerId?: string): Promise<string> {
  const request = checkoutRequest({ businessId: BIZ, checkout: { returnUrl: 'http://127.0.0.1:9/r', ...more } });
  if (customerId !== undefined) Object.assign(request.body, { customer: { customerId } });
  const res = await sb.post('/gateway/v3/checkouts', request);
  expect(res.body.result, res.text).toBe(2);
  return res.body.body.checkout.checkoutId as string;
}

describe('paylink pay --saved-card', () => {
  it('pays a one-click checkout with the saved card of its customer: a token payment', async () => {
    const customerId = uniqueCode('cli-cust');
    const saved = await sb.post('/gateway/v3/tokens', {
      header: { businessId: BIZ },
      body: { card: { number: '5555555555554444', expiryMonth: '12', expiryYear: '2035' }, customer: { customerId } },
    });
    const token = saved.body.body.token as string;
    const id = await checkout({ oneClick: { useCustomerTokens: true } }, customerId);
    const run = await paylink(['pay', id, '--saved-card', '--no-follow', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const status = await sb.get(`/gateway/v3/checkouts/${id}?businessId=${BIZ}`);
    expect(status.body.description).toBe('Completed');
    expect(status.body.body.payments[0].body.token.token).toBe(token);
  });

  it("types the saved card's own CVV length: four digits for an American Express card", async () => {
    const customerId = uniqueCode('cli-amex');
    const saved = await sb.post('/gateway/v3/tokens', {
      header: { businessId: BIZ },
      body: { card: { number: '378282246310005', expiryMonth: '12', expiryYear: '2035' }, customer: { customerId } },
    });
    expect(saved.body.result, saved.text).toBe(0);
    const id = await checkout({ oneClick: { useCustomerTokens: true } }, customerId);
    const run = await paylink(['pay', id, '--saved-card', '--no-follow', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const status = await sb.get(`/gateway/v3/checkouts/${id}?businessId=${BIZ}`);
    expect(status.body.description).toBe('Completed');
    expect(status.body.body.payments[0].body.token.token).toBe(saved.body.body.token);
  });

  it('exits 3 on a checkout whose page offers no saved card, paying nothing', async () => {
    const id = await checkout({});
    const run = await paylink(['pay', id, '--saved-card', '--no-follow']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('offers no saved card');
    expect((await sb.get(`/gateway/v3/checkouts/${id}?businessId=${BIZ}`)).body.result).toBe(2);
  });
});
