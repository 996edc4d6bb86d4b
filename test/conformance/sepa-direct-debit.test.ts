/**
 * SEPA Direct Debit (brand 6010) as a payment brand, written from its brand sheet on the provider's portal
 * (EUR; workflows authorize, capture, partial capture, refund, recurring; session timeout 1800 s) and from the
 * reference's `body.bank` block (docs/api.md, "SEPA Direct Debit"). The same brand id stays the SEPA credit
 * brand of /credits (test/conformance/sepa-credits.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { brandSessionMs } from '../../src/sandbox/domain/brands.js';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { expectError } from './client.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

const sb = useSandbox();
const BIZ = 'sepa-dd';
const ACCOUNT = { iban: 'DE89 3704 0044 0532 0130 00', accountHolderName: 'Ada Lovelace', bic: 'cobadeffxxx' };

function debit(patch: { action?: string; businessId?: string; transaction?: Record<string, unknown>; bank?: Record<string, unknown> | null } = {}) {
  const body: Record<string, unknown> = {
    transaction: { amount: 25, currencyCode: 'EUR', brandId: 6010, trackingCode: uniqueCode('sepa-dd'), ...patch.transaction },
  };
  if (patch.bank !== null) body.bank = { ...ACCOUNT, ...patch.bank };
  return { action: patch.action ?? 'payment', header: { businessId: patch.businessId ?? BIZ }, body };
}

const pay = (body: unknown) => sb.post('/gateway/v3/payments', body);
const followUp = (id: string, kind: string, amount: number) =>
  sb.post(`/gateway/v3/payments/${id}/${kind}`, { header: { businessId: BIZ }, body: { transaction: { amount, currencyCode: 'EUR' } } });

describe('SEPA Direct Debit 6010: the account in body.bank is debited', () => {
  it('answers a payment 0 Ok at once, brand 6010, the account echoed in body.bank (IBAN without spaces, BIC upper case)', async () => {
    const res = await pay(debit());
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.transaction).toMatchObject({ action: 'payment', amount: 25, currencyCode: 'EUR', brandId: 6010 });
    expect(res.body.body.bank).toEqual({ name: 'SEPA Direct Debit', iban: 'DE89370400440532013000', accountHolderName: 'Ada Lovelace', bic: 'COBADEFFXXX' });
    expect(res.body.body).not.toHaveProperty('redirect');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.transaction.id}?businessId=${BIZ}`);
    expect([read.body.result, read.body.body.bank.iban], read.text).toEqual([0, 'DE89370400440532013000']);
  });

  it('keeps authorize (the sheet lists authorize -> capture): capture in part, capture the rest, then refund', async () => {
    const auth = await pay(debit({ action: 'authorize', transaction: { amount: 30 } }));
    expect([auth.body.result, auth.body.body.transaction.action], auth.text).toEqual([0, 'authorize']);
    const id = auth.body.body.transaction.id;
    const first = await followUp(id, 'capture', 10);
    expect(first.body.result, first.text).toBe(0);
    const rest = await followUp(id, 'capture', 20);
    expect(rest.body.result, rest.text).toBe(0);
    const refund = await followUp(id, 'refund', 30);
    expect(refund.body.result, refund.text).toBe(0);
  });

  it('refunds a payment in part', async () => {
    const res = await pay(debit());
    const refund = await followUp(res.body.body.transaction.id, 'refund', 5);
    expect(refund.body.result, refund.text).toBe(0);
  });

  it('debits the same account again (recurring: each debit names its account)', async () => {
    const first = await pay(debit());
    const second = await pay(debit());
    expect([first.body.result, second.body.result]).toEqual([0, 0]);
    expect(second.body.body.transaction.id).not.toBe(first.body.body.transaction.id);
  });

  it('sends Transaction.Create for the debit', async () => {
    const rx: Receiver = await startReceiver();
    try {
      const secret = 'sepa-dd-secret-1234';
      const hook = await sb.post('/__sandbox/webhooks', { businessId: 'sepa-dd-hooks', url: rx.url, secret });
      expect(hook.body.result, hook.text).toBe(0);
      const res = await pay(debit({ businessId: 'sepa-dd-hooks' }));
      const [delivery] = await rx.waitFor(
        1,
        (d) => d.body?.Type === 'Transaction.Create' && d.body?.Payload?.body?.transaction?.id === res.body.body.transaction.id,
      );
      await verifyDelivery(delivery!, secret);
      expect(delivery!.body.Payload.body.transaction.brandId).toBe(6010);
    } finally {
      await rx.close();
    }
  });
});

describe('SEPA Direct Debit 6010: refusals (the input-error envelope)', () => {
  it('refuses a debit without body.bank', async () => {
    expectError(await pay(debit({ bank: null })), { result: -1, code: 1004, path: 'body.bank' });
  });
  it('refuses an IBAN with wrong check digits', async () => {
    expectError(await pay(debit({ bank: { iban: 'DE00370400440532013000' } })), { result: -1, code: 1002, path: 'body.bank.iban' });
  });
  it('refuses a debit without the account holder', async () => {
    expectError(await pay(debit({ bank: { accountHolderName: undefined } })), { result: -1, code: 1004, path: 'body.bank.accountHolderName' });
  });
  it('refuses a currency other than EUR', async () => {
    expectError(await pay(debit({ transaction: { currencyCode: 'USD' } })), { result: -1, code: 1002, path: 'body.transaction.currencyCode' });
  });
  it('refuses a card beside the account', async () => {
    const body = debit();
    (body.body as Record<string, unknown>).card = { number: '4111111111111111', expiryMonth: 12, expiryYear: 2040 };
    expectError(await pay(body), { result: -1, code: 1002, path: 'body.transaction.brandId' });
  });
});

describe('SEPA Direct Debit 6010 in the brand data', () => {
  it("is in the default list of a link created without brandIds, where the portal's answers show it", async () => {
    const request = linkRequest({ businessId: BIZ });
    delete (request.body.link as Record<string, unknown>).brandIds;
    const res = await sb.post('/gateway/v3/paymentlinks', request);
    expect(res.body.result, res.text).toBe(0);
    expect(res.body.body.link.brandIds).toContain(6010);
  });

  it("has the sheet's session timeout, 1800 s", () => {
    expect(brandSessionMs(6010)).toBe(1_800_000);
  });
});
