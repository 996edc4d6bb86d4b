import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../src/sandbox/domain/test-cards.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'biz-pay';

function cvvFor(number: string): string {
  return number.startsWith('37') || number.startsWith('34') ? '1234' : '123';
}

function payment(
  patch: {
    action?: unknown;
    businessId?: string;
    transaction?: Record<string, unknown>;
    card?: Record<string, unknown> | null;
    number?: string;
    bank?: Record<string, unknown>;
  } = {},
) {
  const number = patch.number ?? '4111111111111111';
  const body: Record<string, unknown> = {
    transaction: { amount: 10.5, currencyCode: 'EUR', trackingCode: uniqueCode('pay'), ...patch.transaction },
  };
  if (patch.card !== null) {
    body.card = { number, cvv: cvvFor(number), expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace', ...patch.card };
  }
  if (patch.bank) body.bank = patch.bank;
  return { action: 'action' in patch ? patch.action : 'payment', header: { businessId: patch.businessId ?? BIZ }, body };
}

const EXPECTED_STATUS: Record<number, number> = { 0: 200, 2: 200, [-7]: 500 };

describe('POST /gateway/v3/payments with every test card', () => {
  for (const card of TEST_CARDS) {
    it(`answers ${card.label} (${card.number}) with result ${card.result} and stores it for GET`, async () => {
      const created = await sb.post('/gateway/v3/payments', payment({ number: card.number }));
      expect(created.status).toBe(EXPECTED_STATUS[card.result] ?? 400);
      expect(created.body.result).toBe(card.result);
      expect(created.body.header.requestCode).toMatch(/^\d+\.[0-9a-f-]{36}$/);
      const id = created.body.body.transaction.id as string;
      expect(created.body.body.id).toBe(id);
      expect(created.body.body.transaction.brandId).toBe(card.brandId);
      expect(created.body.body.card.lastFourDigits).toBe(card.number.slice(-4));
      expect(created.body.body.card.firstSixDigits).toBe(card.number.slice(0, 6));
      expect(created.text).not.toContain(card.number);
      if (card.result === 0) {
        expect(created.body.description).toBe('Ok');
        expect(created.body.body.card.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
        expect(created.body.body.card.cvvResult).toBe('M');
        expect(created.body.body.card.avsResult).toBe('Y');
      } else if (card.result === 2) {
        expect(created.body.body.redirect.url).toBe(`${sb.url}/gateway/v3/web/3ds/${id}`);
      } else {
        expect(created.body.body.error.code).toBeGreaterThan(3000);
      }
      if (card.outcome === 'cvv-mismatch') expect(created.body.body.card.cvvResult).toBe('N');
      const read = await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`);
      // A GET answers 200 whatever the result, as the provider did; the body is the creation's.
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
    });
  }

  it('declines a Luhn-valid number of no brand the sandbox knows, saying only test cards are taken, and keeps no digits of it', async () => {
    const res = await sb.post('/gateway/v3/payments', payment({ number: '9000000000001884' }));
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(-4);
    expect(res.body.body.error.message).toMatch(/only test cards/);
    expect(res.body.body.card).toBeUndefined();
    expect(res.text).not.toContain('1884');
  });

  it('declines a past expiry as an expired card', async () => {
    const res = await sb.post('/gateway/v3/payments', payment({ card: { expiryMonth: '01', expiryYear: '2020' } }));
    expect([res.status, res.body.result, res.body.body.error.code]).toEqual([400, -4, 3003]);
  });

  it('fails a retry card on the first attempt for a trackingCode and approves the next attempt', async () => {
    for (const number of ['4000000000000101', '4000000000000325']) {
      const trackingCode = uniqueCode('retry');
      const first = await sb.post('/gateway/v3/payments', payment({ number, transaction: { trackingCode } }));
      expect(first.body.result).toBeLessThan(0);
      const second = await sb.post('/gateway/v3/payments', payment({ number, transaction: { trackingCode } }));
      expect(second.body.result).toBe(0);
    }
  });
});

describe('validation of the payment body', () => {
  const cases: Array<[string, unknown, number, string]> = [
    ['missing action', payment({ action: undefined }), 1004, 'action'],
    ['missing body', { action: 'payment', header: { businessId: BIZ } }, 1004, 'body'],
    ['missing transaction', { action: 'payment', header: { businessId: BIZ }, body: {} }, 1004, 'body.transaction'],
    ['negative amount', payment({ transaction: { amount: -1 } }), 1002, 'body.transaction.amount'],
    ['non-numeric string amount', payment({ transaction: { amount: '10 EUR' } }), 1002, 'body.transaction.amount'],
    ['too many decimals', payment({ transaction: { amount: 1.234 } }), 1002, 'body.transaction.amount'],
    ['unknown currency', payment({ transaction: { currencyCode: 'XXX' } }), 1002, 'body.transaction.currencyCode'],
    ['too long trackingCode', payment({ transaction: { trackingCode: 'x'.repeat(101) } }), 1002, 'body.transaction.trackingCode'],
    ['unknown brandId', payment({ transaction: { brandId: 9999 } }), 1002, 'body.transaction.brandId'],
    ['brandId of another brand', payment({ transaction: { brandId: 1020 } }), 1002, 'body.transaction.brandId'],
    ['bad tokenize', payment({ transaction: { tokenize: 'maybe' } }), 1002, 'body.transaction.tokenize'],
    ['card and token', payment({ transaction: { token: 'abc' } }), 1002, 'body.card'],
    ['card not an object', { ...payment(), body: { ...payment().body, card: 'x' } }, 1002, 'body.card'],
    ['missing number', payment({ card: { number: undefined } }), 1004, 'body.card.number'],
    ['letters in the number', payment({ card: { number: '4111abcd11111111' } }), 1002, 'body.card.number'],
    ['Luhn-invalid number', payment({ card: { number: '4111111111111112' } }), 1002, 'body.card.number'],
    ['short cvv', payment({ card: { cvv: '12' } }), 1002, 'body.card.cvv'],
    ['missing expiryMonth', payment({ card: { expiryMonth: undefined } }), 1004, 'body.card.expiryMonth'],
    ['month 13', payment({ card: { expiryMonth: '13' } }), 1002, 'body.card.expiryMonth'],
    ['missing expiryYear', payment({ card: { expiryYear: undefined } }), 1004, 'body.card.expiryYear'],
    ['three-digit year', payment({ card: { expiryYear: '203' } }), 1002, 'body.card.expiryYear'],
    ['holderName not a string', payment({ card: { holderName: 42 } }), 1002, 'body.card.holderName'],
    ['bank payment without bank', payment({ card: null, transaction: { brandId: 3010 } }), 1004, 'body.bank'],
    ['bank on a card payment', payment({ bank: { countryCode: 'NL', issuerId: 'INGBNL2A' } }), 1002, 'body.bank'],
    ['bad bank country', payment({ card: null, transaction: { brandId: 3010 }, bank: { countryCode: 'NLD', issuerId: 'X' } }), 1002, 'body.bank.countryCode'],
  ];
  for (const [name, body, code, path] of cases) {
    it(`refuses ${name} with -1 ${code} naming ${path}, storing nothing`, async () => {
      const res = await sb.post('/gateway/v3/payments', body);
      expect(res.status).toBe(400);
      expect(res.body.result).toBe(-1);
      expect(res.body.body.error.code).toBe(code);
      expect(res.body.body.error.message).toContain(`${path}.`);
      expect(res.body.body.transaction).toBeUndefined();
    });
  }

  it('accepts a card number typed with spaces', async () => {
    const res = await sb.post('/gateway/v3/payments', payment({ card: { number: '4111 1111 1111 1111' } }));
    expect(res.body.result).toBe(0);
  });
});

async function post(path: string, amount?: number, businessId = BIZ) {
  const body = amount === undefined ? {} : { transaction: { amount } };
  return sb.post(path, { header: { businessId }, body });
}

describe('authorize, capture, cancel and refund', () => {
  it('authorizes, captures in two parts, refuses capturing beyond the amount, then refunds at most what was captured', async () => {
    const auth = await sb.post('/gateway/v3/payments', payment({ action: 'AUTHORIZE', transaction: { amount: 30 } }));
    expect(auth.body.result).toBe(0);
    expect(auth.body.body.transaction.action).toBe('authorize');
    const id = auth.body.body.id as string;

    const refundEarly = await post(`/gateway/v3/payments/${id}/refund`);
    expect([refundEarly.status, refundEarly.body.result]).toEqual([400, -8]);

    const c1 = await post(`/gateway/v3/payments/${id}/capture`, 10);
    expect(c1.body.result).toBe(0);
    expect(c1.body.body.transaction).toMatchObject({ action: 'capture', parentId: id, amount: 10 });
    const tooMuch = await post(`/gateway/v3/payments/${id}/capture`, 25);
    expect(tooMuch.body.result).toBe(-8);
    const c2 = await post(`/gateway/v3/payments/${id}/capture`);
    expect(c2.body.body.transaction.amount).toBe(20);
    const c3 = await post(`/gateway/v3/payments/${id}/capture`);
    expect(c3.body.result).toBe(-8);

    const cancel = await post(`/gateway/v3/payments/${id}/cancel`);
    expect(cancel.body.result).toBe(-8);

    const r1 = await post(`/gateway/v3/payments/${id}/refund`, 29.99);
    expect(r1.body.result).toBe(0);
    const r2 = await post(`/gateway/v3/payments/${id}/refund`, 0.02);
    expect(r2.body.result).toBe(-8);
    const r3 = await post(`/gateway/v3/payments/${id}/refund`);
    expect([r3.body.result, r3.body.body.transaction.amount]).toEqual([0, 0.01]);

    const original = await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`);
    expect(original.body.body.transaction).toMatchObject({ capturedAmount: 30, refundedAmount: 30 });
    const all = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${auth.body.body.trackingCode}`);
    expect(all.body.map((e: any) => e.body.transaction.action)).toEqual(['authorize', 'capture', 'capture', 'refund', 'refund']);
  });

  it('refuses anything on a failed original with -8', async () => {
    const failed = await sb.post('/gateway/v3/payments', payment({ action: 'authorize', number: '4000000000000002' }));
    const id = failed.body.body.id as string;
    for (const op of ['capture', 'cancel', 'refund']) {
      const res = await post(`/gateway/v3/payments/${id}/${op}`);
      expect([res.status, res.body.result]).toEqual([400, -8]);
    }
  });
});

describe('bank redirect payments (iDEAL)', () => {
  const bank = { countryCode: 'nl', issuerId: 'INGBNL2A' };
  const bankPayment = (amount: number) => payment({ card: null, transaction: { brandId: 3010, amount }, bank });

  it('answers Pending with a redirect to the sandbox bank page', async () => {
    const res = await sb.post('/gateway/v3/payments', bankPayment(10));
    expect([res.status, res.body.result, res.body.description]).toEqual([200, 2, 'Pending']);
    const id = res.body.body.id as string;
    expect(res.body.body.redirect).toEqual({ method: 'GET', url: `${sb.url}/gateway/v3/web/bank/${id}` });
    expect(res.body.body.bank).toEqual({ name: 'ING', countryCode: 'NL', issuerId: 'INGBNL2A' });
  });

  it('settles the payment from the bank page: approve gives 0, and the page then shows the result', async () => {
    const created = await sb.post('/gateway/v3/payments', bankPayment(10));
    const url = created.body.body.redirect.url as string;
    const page = await fetch(url);
    const html = await page.text();
    expect(html).toContain('data-paylink-state="form"');
    expect(html).toContain('value="approve"');
    const submit = await fetch(url, { method: 'POST', body: new URLSearchParams({ action: 'approve' }), redirect: 'manual' });
    expect(submit.status).toBe(303);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=${BIZ}`);
    expect([read.status, read.body.result]).toEqual([200, 0]);
    expect(await (await fetch(url)).text()).toContain('data-paylink-state="result"');
  });

  it('settles the payment as -10 when the customer cancels at the bank', async () => {
    const created = await sb.post('/gateway/v3/payments', bankPayment(10));
    await fetch(created.body.body.redirect.url, { method: 'POST', body: new URLSearchParams({ action: 'cancel' }), redirect: 'manual' });
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=${BIZ}`);
    expect([read.status, read.body.result]).toEqual([200, -10]);
  });

  it('answers an unknown bank page with a 404 page', async () => {
    const res = await fetch(`${sb.url}/gateway/v3/web/bank/00000000-0000-4000-8000-000000000000`);
    expect(res.status).toBe(404);
  });
});
