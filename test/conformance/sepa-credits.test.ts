/**
 * Credits to a bank account (SEPA, brand 6010) and how a waiting credit settles (docs/api.md, "Credits to
 * a bank account"), and credits read by tracking code as one answer. Plain HTTP against a real sandbox
 * whose clock the tests move (a sandbox of its own: the clock is shared).
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { expectInputError } from './client.js';

const sb = useSandbox();
const BIZ = 'sepa-shop';
// A Friday, 10:00 UTC.
const FRIDAY = '2030-01-04T10:00:00Z';

function sepaCredit(patch: { transaction?: Record<string, unknown>; bank?: Record<string, unknown> | null; card?: Record<string, unknown> } = {}) {
  return {
    header: { businessId: BIZ },
    body: {
      transaction: { storeId: 1, trackingCode: uniqueCode('sepa'), amount: 1, currencyCode: 'EUR', brandId: 6010, countryCode: 'NL', ...patch.transaction },
      ...(patch.bank === null
        ? {}
        : { bank: { accountHolderName: 'John Doe', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', countryCode: 'NL', ...patch.bank } }),
      ...(patch.card ? { card: patch.card } : {}),
      customer: { customerId: '123456789', givenName: 'John', familyName: 'Doe 😁', email: 'john.doe@domain.test' },
    },
  };
}

async function setClock(body: Record<string, unknown>) {
  const res = await sb.post('/__sandbox/clock', body);
  expect(res.status, res.text).toBe(200);
}

describe('SEPA credits to a bank account', () => {
  it("answers 1 Waiting, action credit, the credit's id and body.bank echoing the account, iban included", async () => {
    await setClock({ set: FRIDAY, freeze: true });
    const res = await sb.post('/gateway/v3/credits', sepaCredit());
    expect([res.status, res.body.result, res.body.description], res.text).toEqual([200, 1, 'Waiting']);
    const { transaction, bank } = res.body.body;
    expect(transaction).toMatchObject({ action: 'credit', amount: 1, currencyCode: 'EUR', brandId: 6010 });
    expect(transaction.id).toEqual(expect.any(String));
    expect(res.body.body.id).toBe(transaction.id);
    expect(bank).toEqual({ countryCode: 'NL', accountHolderName: 'John Doe', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' });
    expect(res.body.body.card).toBeUndefined();
    // Sandbox extension: when it settles (the next business day: Friday's on Monday).
    expect(transaction.settlesAt).toBe('2030-01-07T10:00:00Z');
  });

  it('settles 0 Ok when the clock reaches the next business day, with a Transaction.Update event, and not before', async () => {
    await setClock({ set: FRIDAY, freeze: true });
    const created = await sb.post('/gateway/v3/credits', sepaCredit());
    const id = created.body.body.id;
    await setClock({ advance: '2d' });
    const sunday = await sb.get(`/gateway/v3/credits/${id}?businessId=${BIZ}`);
    expect([sunday.status, sunday.body.result], sunday.text).toEqual([200, 1]);
    await setClock({ advance: '1d' });
    const monday = await sb.get(`/gateway/v3/credits/${id}?businessId=${BIZ}`);
    expect([monday.status, monday.body.result, monday.body.description], monday.text).toEqual([200, 0, 'Ok']);
    expect(monday.body.body.transaction.settlesAt).toBeUndefined();
    expect(monday.body.body.bank.iban).toBe('NL91ABNA0417164300');
    const events = await sb.get(`/__sandbox/events?paymentId=${id}`);
    const seen = events.body.body.events.map((e: any) => [e.type, e.result]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['Transaction.Create', 1],
        ['Transaction.Update', 0],
      ]),
    );
  });

  it('settles every due credit when the clock is set past them, as a clock advance does', async () => {
    await setClock({ set: '2030-01-08T09:00:00Z', freeze: true });
    const ids = [];
    for (let n = 0; n < 3; n++) ids.push((await sb.post('/gateway/v3/credits', sepaCredit())).body.body.id);
    await setClock({ set: '2030-01-09T09:00:00Z', freeze: true });
    // Settled by the clock move itself: the events exist before anyone reads the credits.
    for (const id of ids) {
      const events = await sb.get(`/__sandbox/events?paymentId=${id}`);
      expect(
        events.body.body.events.map((e: any) => e.type),
        id,
      ).toContain('Transaction.Update');
    }
    for (const id of ids) expect((await sb.get(`/gateway/v3/credits/${id}?businessId=${BIZ}`)).body.result).toBe(0);
  });

  it('takes a bank account without brandId as SEPA, and refuses a bad account or a card beside it', async () => {
    await setClock({ reset: true });
    const implied = await sb.post('/gateway/v3/credits', sepaCredit({ transaction: { brandId: null } }));
    expect([implied.body.result, implied.body.body.transaction.brandId], implied.text).toEqual([1, 6010]);
    expectInputError(await sb.post('/gateway/v3/credits', sepaCredit({ bank: { iban: 'NL92ABNA0417164300' } })), 1002, 'body.bank.iban');
    expectInputError(await sb.post('/gateway/v3/credits', sepaCredit({ bank: { iban: null } })), 1004, 'body.bank.iban');
    expectInputError(await sb.post('/gateway/v3/credits', sepaCredit({ bank: { accountHolderName: '' } })), 1002, 'body.bank.accountHolderName');
    expectInputError(await sb.post('/gateway/v3/credits', sepaCredit({ bank: { bic: 'ABN' } })), 1002, 'body.bank.bic');
    expectInputError(await sb.post('/gateway/v3/credits', sepaCredit({ bank: null })), 1004, 'body.bank');
    expectInputError(await sb.post('/gateway/v3/credits', sepaCredit({ transaction: { currencyCode: 'USD' } })), 1002, 'body.transaction.currencyCode');
    expectInputError(
      await sb.post('/gateway/v3/credits', sepaCredit({ card: { number: '4111111111111111', expiryMonth: '12', expiryYear: '2035', holderName: 'A B' } })),
      1002,
      'body.card',
    );
  });

  it('holds the tracking code while waiting (2001 for a second credit with it)', async () => {
    const trackingCode = uniqueCode('held');
    expect((await sb.post('/gateway/v3/credits', sepaCredit({ transaction: { trackingCode } }))).body.result).toBe(1);
    const again = await sb.post('/gateway/v3/credits', sepaCredit({ transaction: { trackingCode } }));
    expect([again.body.result, again.body.body.error?.code], again.text).toEqual([-8, 2001]);
  });
});

describe('credits looked up by tracking code', () => {
  it('answer ONE envelope, the credit, not an array (payments by tracking code stay a list)', async () => {
    const trackingCode = uniqueCode('one');
    const created = await sb.post('/gateway/v3/credits', sepaCredit({ transaction: { trackingCode } }));
    const found = await sb.get(`/gateway/v3/credits?businessId=${BIZ}&trackingCode=${trackingCode}`);
    expect(found.status).toBe(200);
    expect(Array.isArray(found.body)).toBe(false);
    expect(found.body).toEqual(created.body);
    const payments = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${trackingCode}`);
    expect(payments.body).toEqual([]);
  });

  it('answer the credit holding the code after failed attempts with it, and 404 (envelope) for a code nobody used', async () => {
    const trackingCode = uniqueCode('retry');
    const card = (number: string) => ({ number, expiryMonth: '12', expiryYear: '2035', holderName: 'A B' });
    const declined = await sb.post('/gateway/v3/credits', {
      header: { businessId: BIZ },
      body: { transaction: { trackingCode, amount: 2, currencyCode: 'EUR' }, card: card('4000000000000002') },
    });
    expect(declined.body.result).toBe(-4);
    const paid = await sb.post('/gateway/v3/credits', {
      header: { businessId: BIZ },
      body: { transaction: { trackingCode, amount: 2, currencyCode: 'EUR' }, card: card('4111111111111111') },
    });
    expect(paid.body.result).toBe(0);
    const found = await sb.get(`/gateway/v3/credits?businessId=${BIZ}&trackingCode=${trackingCode}`);
    expect(found.body.body.id).toBe(paid.body.body.id);
    const none = await sb.get(`/gateway/v3/credits?businessId=${BIZ}&trackingCode=${uniqueCode('none')}`);
    expect([none.status, none.body.result, none.body.body.error.code]).toEqual([404, -2, 1404]);
  });
});

describe('the dashboard', () => {
  it("lists the credits waiting to settle with their settlement time, and shows it on the credit's page", async () => {
    await setClock({ set: FRIDAY, freeze: true });
    const created = await sb.post('/gateway/v3/credits', sepaCredit({ transaction: { amount: 42 } }));
    const id = created.body.body.id;
    const overview = await fetch(`${sb.url}/`).then((r) => r.text());
    expect(overview).toContain('Credits waiting to settle');
    expect(overview).toContain(id);
    expect(overview).toContain('2030-01-07T10:00:00Z');
    const detail = await fetch(`${sb.url}/__sandbox/dashboard/payments/${id}`).then((r) => r.text());
    expect(detail).toContain('Settles at');
    // Monday 10:00: it settled with the clock move, and nothing else is waiting.
    await setClock({ advance: '3d' });
    expect(await fetch(`${sb.url}/`).then((r) => r.text())).not.toContain('Credits waiting to settle');
  });
});
