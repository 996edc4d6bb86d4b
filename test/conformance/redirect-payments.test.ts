/**
 * Payments by brand without card data, as the provider's clients make them (docs/api.md, "Redirect
 * payments"): a card brand with a returnUrl goes to the hosted card form of that payment, the bank brands
 * (iDEAL, Sofort, Giropay, EPS) to the sandbox bank page, PayPal to the wallet page with a form post, and
 * AfterPay answers at once. Request bodies follow the PHP SDK's tests/Test/Api/*Test.php.
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox, type JsonResponse } from '../helpers/sandbox.js';
import { customerReturns, customerSubmits, expectError, UUID } from './client.js';

const sb = useSandbox();
const BIZ = 'redirects';
const RETURN_URL = 'https://shop.example/back?order=7';

/** A payment request the way the PHP SDK's builders write it (action at the end, storeId, purchaseId). */
function brandPayment(brandId: number, patch: { transaction?: Record<string, unknown>; more?: Record<string, unknown>; action?: string } = {}) {
  return {
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('rp'), brandId, returnUrl: RETURN_URL, storeId: 1, ...patch.transaction },
      ...patch.more,
    },
    action: patch.action ?? 'payment',
  };
}

async function create(body: unknown): Promise<JsonResponse> {
  return sb.post('/gateway/v3/payments', body);
}

async function read(id: string): Promise<JsonResponse> {
  const res = await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`);
  expect(res.status, res.text).toBe(200);
  return res;
}

/** Expects the browser back on the merchant's returnUrl with the shop's own query kept and `id` added. */
function expectBackAt(url: URL, paymentId: string): void {
  expect(`${url.origin}${url.pathname}`).toBe('https://shop.example/back');
  expect(url.searchParams.get('order')).toBe('7');
  expect(url.searchParams.get('id')).toBe(paymentId);
}

function expectPending(res: JsonResponse): { id: string; redirect: { method: string; url: string; fields?: Record<string, string> } } {
  expect([res.status, res.body.result, res.body.description], res.text).toEqual([200, 2, 'Pending']);
  expect(res.body.body.id).toMatch(UUID);
  expect(res.body.body.transaction.id).toBe(res.body.body.id);
  expect(res.body.body.redirect.url.startsWith(sb.url)).toBe(true);
  return { id: res.body.body.id, redirect: res.body.body.redirect };
}

describe('bank brands (iDEAL 3010, Sofort 3020, Giropay 3025, EPS 3030)', () => {
  const banks: Array<[number, string, string, string | undefined]> = [
    [3010, 'iDEAL', 'NL', 'NL'],
    [3020, 'Sofort', 'NL', undefined],
    [3025, 'Giropay', 'DE', 'DE'],
    [3030, 'EPS', 'AT', 'AT'],
  ];
  for (const [brandId, name, country, home] of banks) {
    it(`answers a ${name} payment 2 Pending with a GET redirect to the bank page and body.bank named ${name}`, async () => {
      const res = await create(
        brandPayment(brandId, { transaction: { amount: 1, descriptor: 'DESC', purchaseId: '1234' }, more: { bank: { countryCode: country } } }),
      );
      const { id, redirect } = expectPending(res);
      expect(redirect).toEqual({ method: 'GET', url: `${sb.url}/gateway/v3/web/bank/${id}` });
      expect(res.body.body.transaction).toMatchObject({ brandId, amount: 1, currencyCode: 'EUR', descriptor: 'DESC' });
      expect(res.body.body.bank).toEqual({ name, countryCode: country });
    });

    it(`answers ${name} without body.bank.countryCode with ${home ? `its home country ${home}` : 'no country'}`, async () => {
      const res = await create(brandPayment(brandId, { more: { bank: {} } }));
      expectPending(res);
      expect(res.body.body.bank).toEqual(home ? { name, countryCode: home } : { name });
    });

    it(`refuses a ${name} payment in currency FAKE with a typed 400 -1 (the PHP SDK's failure case)`, async () => {
      const res = await create(brandPayment(brandId, { transaction: { currencyCode: 'FAKE', countryCode: 'ZZ' }, more: { bank: { countryCode: country } } }));
      expectError(res, { result: -1, status: 400, code: 1002, path: 'body.transaction.currencyCode' });
    });

    it(`finds the ${name} payment by tracking code in a top-level array (settled by the amount convention)`, async () => {
      const trackingCode = uniqueCode('rp-tc');
      const created = await create(brandPayment(brandId, { transaction: { amount: 1, trackingCode }, more: { bank: { countryCode: country } } }));
      const found = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${trackingCode}`);
      expect(found.status).toBe(200);
      expect(Array.isArray(found.body)).toBe(true);
      expect(found.body.map((p: any) => p.body.id)).toEqual([created.body.body.id]);
      // Amount 1 approves on read: the payer's account is then known, every value a string.
      expect(found.body[0].result).toBe(0);
      const bank = found.body[0].body.bank;
      expect(bank.name).toBe(name);
      for (const key of ['accountHolderName', 'iban', 'bic']) expect(typeof bank[key], key).toBe('string');
      expect(bank.iban).toMatch(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/);
    });
  }

  it('keeps the iDEAL amount convention without the page: 2 is -10, 3 Timeout, 5 -2, 7 stays Pending', async () => {
    for (const [amount, result] of [
      [2, -10],
      [3, 4],
      [5, -2],
      [7, 2],
    ] as const) {
      const created = await create(brandPayment(3010, { transaction: { amount }, more: { bank: { countryCode: 'NL', issuerId: 20 } } }));
      const res = await read(created.body.body.id);
      expect(res.body.result, `amount ${amount}`).toBe(result);
      if (result !== 0) expect(res.body.body.bank.iban).toBeUndefined();
    }
  });

  it('Sofort takes CHF and refuses USD; Giropay and EPS take EUR only', async () => {
    expectPending(await create(brandPayment(3020, { transaction: { currencyCode: 'CHF' }, more: { bank: {} } })));
    expectError(await create(brandPayment(3020, { transaction: { currencyCode: 'USD' }, more: { bank: {} } })), {
      result: -1,
      code: 1002,
      path: 'body.transaction.currencyCode',
    });
    for (const brandId of [3025, 3030]) {
      expectError(await create(brandPayment(brandId, { transaction: { currencyCode: 'GBP' }, more: { bank: {} } })), {
        result: -1,
        code: 1002,
        path: 'body.transaction.currencyCode',
      });
    }
  });

  it('refuses a bank payment with a card, or a returnUrl that is not http(s)', async () => {
    const bank = { bank: { countryCode: 'DE' } };
    expectError(await create(brandPayment(3025, { more: { ...bank, card: { number: '4111111111111111' } } })), {
      result: -1,
      code: 1002,
      path: 'body.transaction.brandId',
    });
    expectError(await create(brandPayment(3025, { transaction: { returnUrl: 'javascript:alert(1)' }, more: bank })), {
      result: -1,
      code: 1002,
      path: 'body.transaction.returnUrl',
    });
  });

  it('settles a Sofort payment on the bank page: approve goes back to the returnUrl with the id, and the GET shows 0 with the account', async () => {
    const created = await create(brandPayment(3020, { more: { bank: { countryCode: 'DE' } } }));
    const { id, redirect } = expectPending(created);
    const back = await customerReturns(redirect.url, { button: /approve/i });
    expectBackAt(back, id);
    const res = await read(id);
    expect([res.body.result, res.body.description]).toEqual([0, 'Ok']);
    expect(res.body.body.redirect).toBeUndefined();
    expect(res.body.body.bank).toEqual({
      name: 'Sofort',
      countryCode: 'DE',
      accountHolderName: 'Sandbox Customer',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
    });
  });

  it('settles the bank page as -10 on cancel and -2 on fail, each back on the returnUrl', async () => {
    for (const [button, result, code] of [
      [/cancel/i, -10, 3011],
      [/fail/i, -2, 3006],
    ] as const) {
      const { id, redirect } = expectPending(await create(brandPayment(3030, { more: { bank: { countryCode: 'AT' } } })));
      expectBackAt(await customerReturns(redirect.url, { button }), id);
      const res = await read(id);
      expect([res.body.result, res.body.body.error.code]).toEqual([result, code]);
      expect(res.body.body.bank).toEqual({ name: 'EPS', countryCode: 'AT' });
    }
  });

  it('shows the outcome on the bank page of a payment without a returnUrl', async () => {
    const { transaction, ...rest } = brandPayment(3010, { more: { bank: { countryCode: 'NL' } } }).body;
    const { returnUrl: _none, ...withoutReturn } = transaction;
    const { id, redirect } = expectPending(await create({ header: { businessId: BIZ }, action: 'payment', body: { ...rest, transaction: withoutReturn } }));
    const outcome = await customerSubmits(redirect.url, { button: /approve/i });
    expect(outcome.kind).toBe('page');
    if (outcome.kind === 'page') expect(outcome.html).toContain('data-paylink-state="result"');
    expect((await read(id)).body.result).toBe(0);
  });
});

describe('PayPal 4010 (wallet)', () => {
  it('answers 2 Pending with a POST redirect whose fields are a non-empty object of strings', async () => {
    const res = await create(brandPayment(4010, { transaction: { amount: 1 } }));
    const { id, redirect } = expectPending(res);
    expect(redirect).toEqual({ method: 'POST', url: `${sb.url}/gateway/v3/web/wallet/${id}`, fields: { token: id } });
    expect(res.body.body.bank).toBeUndefined();
  });

  it('takes the redirect as a form post from the merchant, then approve sends the customer back and the GET shows 0', async () => {
    const { id, redirect } = expectPending(await create(brandPayment(4010)));
    // The merchant's page posts the fields (from its own origin: a cross-site post, which only shows the page).
    const entry = await fetch(redirect.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      body: new URLSearchParams(redirect.fields).toString(),
    });
    // The same page a GET shows, answered to the post itself.
    expect(entry.status).toBe(200);
    const page = redirect.url;
    const html = await entry.text();
    expect(html).toContain('PayPal');
    expect(html).toContain('data-paylink-state="form"');
    expect((await read(id)).body.result).toBe(2);
    expectBackAt(await customerReturns(page, { button: /approve/i }), id);
    const res = await read(id);
    expect([res.body.result, res.body.body.redirect]).toEqual([0, undefined]);
  });

  it('refuses a button pressed from another site', async () => {
    const { id, redirect } = expectPending(await create(brandPayment(4010)));
    const res = await fetch(redirect.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      body: 'action=approve',
    });
    expect(res.status).toBe(403);
    expect((await read(id)).body.result).toBe(2);
  });

  it('settles as -10 when the customer cancels at the wallet', async () => {
    const { id, redirect } = expectPending(await create(brandPayment(4010, { transaction: { currencyCode: 'USD' } })));
    expectBackAt(await customerReturns(redirect.url, { button: /cancel/i }), id);
    const res = await read(id);
    expect([res.body.result, res.body.body.error.code, res.body.body.transaction.currencyCode]).toEqual([-10, 3011, 'USD']);
  });

  it('refuses a currency PayPal never took', async () => {
    expectError(await create(brandPayment(4010, { transaction: { currencyCode: 'XOF' } })), { result: -1, code: 1002, path: 'body.transaction.currencyCode' });
  });
});

describe('AfterPay 5020 (invoice)', () => {
  const customer = {
    ipAddress: '127.0.0.1',
    birthDate: '1991-11-23',
    email: 'john.doe@example.com',
    familyName: 'Doe',
    givenName: 'John',
    phoneNumber: '+31 (0)40 1234567',
    sex: 'M',
  };
  const address = { city: 'Eindhoven', countryCode: 'NL', houseNumber: '16', street: 'Marconilaan', zip: '5621 AA' };
  const afterpay = (patch: Record<string, unknown> = {}, transaction: Record<string, unknown> = {}) =>
    brandPayment(5020, {
      transaction: { amount: 50, countryCode: 'NL', languageCode: 'nl', ...transaction },
      more: {
        billingAddress: address,
        customer,
        order: {
          orderLines: [
            { description: 'Order Line', itemAmount: 50, productCode: 'ABC123', purchaseType: '4', quantity: 1, taxPercentage: 21, totalAmount: 50 },
          ],
        },
        shippingAddress: { ...address, customer },
        ...patch,
      },
    });

  it('answers 0 Ok at once for the AfterpayTest request, and the GET and the tracking-code lookup agree', async () => {
    const body = afterpay();
    const res = await create(body);
    expect([res.status, res.body.result, res.body.description], res.text).toEqual([200, 0, 'Ok']);
    expect(res.body.body.transaction).toMatchObject({ action: 'payment', amount: 50, brandId: 5020, currencyCode: 'EUR' });
    expect(res.body.body.redirect).toBeUndefined();
    expect((await read(res.body.body.id)).body.result).toBe(0);
    const found = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${body.body.transaction.trackingCode}`);
    expect(found.body.map((p: any) => [p.body.id, p.result])).toEqual([[res.body.body.id, 0]]);
  });

  it('takes the details loosely (numbers as strings, extra fields, none at all) and refuses wrong types with 1002', async () => {
    const loose = await create(afterpay({ order: { orderLines: [{ itemAmount: '50.00', quantity: '1', note: { any: 'thing' } }] }, extra: [1, 2] }));
    expect(loose.body.result, loose.text).toBe(0);
    const bare = await create(brandPayment(5020));
    expect(bare.body.result, bare.text).toBe(0);
    const wrong: Array<[Record<string, unknown>, string]> = [
      [{ customer: 'John' }, 'body.customer'],
      [{ customer: { email: { at: 'x' } } }, 'body.customer.email'],
      [{ billingAddress: [address] }, 'body.billingAddress'],
      [{ shippingAddress: { ...address, customer: 7 } }, 'body.shippingAddress.customer'],
      [{ order: { orderLines: {} } }, 'body.order.orderLines'],
      [{ order: { orderLines: ['line'] } }, 'body.order.orderLines[0]'],
      [{ order: { orderLines: [{ quantity: 'many' }] } }, 'body.order.orderLines[0].quantity'],
    ];
    for (const [patch, path] of wrong) expectError(await create(afterpay(patch)), { result: -1, code: 1002, path });
  });

  it('can authorize, then capture like a card payment', async () => {
    const authorized = await create({ ...afterpay(), action: 'authorize' });
    expect([authorized.body.result, authorized.body.body.transaction.action]).toEqual([0, 'authorize']);
    const id = authorized.body.body.id;
    const capture = await sb.post(`/gateway/v3/payments/${id}/capture`, { header: { businessId: BIZ }, body: { transaction: { amount: 50 } } });
    expect([capture.status, capture.body.result], capture.text).toEqual([200, 0]);
  });

  it('takes SEK and refuses USD', async () => {
    expect((await create(afterpay({}, { currencyCode: 'SEK' }))).body.result).toBe(0);
    expectError(await create(afterpay({}, { currencyCode: 'USD' })), { result: -1, code: 1002, path: 'body.transaction.currencyCode' });
  });
});

describe('card brands paid on the hosted card form (redirect)', () => {
  async function cardRedirect(brandId = 1010, transaction: Record<string, unknown> = {}) {
    const res = await create(brandPayment(brandId, { transaction }));
    const pending = expectPending(res);
    expect(pending.redirect).toEqual({ method: 'GET', url: `${sb.url}/gateway/v3/web/payments/${pending.id}` });
    expect(res.body.body.card).toBeUndefined();
    return pending;
  }

  it('answers 2 Pending with a GET redirect to the card form of that payment, and the GET says Pending', async () => {
    const { id } = await cardRedirect();
    const res = await read(id);
    expect([res.body.result, res.body.body.redirect.url]).toEqual([2, `${sb.url}/gateway/v3/web/payments/${id}`]);
  });

  it('approves on the form: back on the returnUrl with the id, and the same payment reads 0 with the card', async () => {
    const { id, redirect } = await cardRedirect();
    expectBackAt(await customerReturns(redirect.url, { number: '4111111111111111' }), id);
    const res = await read(id);
    expect([res.body.result, res.body.body.id, res.body.body.redirect]).toEqual([0, id, undefined]);
    expect(res.body.body.card).toMatchObject({ lastFourDigits: '1111', firstSixDigits: '411111' });
    expect(JSON.stringify(res.body)).not.toContain('4111111111111111');
  });

  it('ends the payment on a declined card (one attempt): back on the returnUrl, the GET shows -4, the form is closed', async () => {
    const { id, redirect } = await cardRedirect();
    expectBackAt(await customerReturns(redirect.url, { number: '4000000000000002' }), id);
    const res = await read(id);
    expect([res.body.result, res.body.body.error.code]).toEqual([-4, 3001]);
    // The page now says how it ended, offers no card form, and leads back to the shop.
    const html = await (await fetch(redirect.url)).text();
    expect(html).toContain('data-paylink-state="declined"');
    expect(html).not.toContain('name="cardNumber"');
    expect(html).toContain(`id=${id}`);
  });

  it('ends as -10 when the customer presses decline, back on the returnUrl', async () => {
    const { id, redirect } = await cardRedirect();
    expectBackAt(await customerReturns(redirect.url, { button: /decline/i }), id);
    const res = await read(id);
    expect([res.body.result, res.body.body.error.code, res.body.body.card]).toEqual([-10, 3011, undefined]);
  });

  it('goes through 3-D Secure with code 1234 and then back on the returnUrl; a wrong code ends it as -10', async () => {
    const ok = await cardRedirect(1010);
    expectBackAt(await customerReturns(ok.redirect.url, { number: '4000000000003220', challengeCode: '1234' }), ok.id);
    expect((await read(ok.id)).body.result).toBe(0);

    const wrong = await cardRedirect(1010);
    expectBackAt(await customerReturns(wrong.redirect.url, { number: '4000000000003220', challengeCode: '0000' }), wrong.id);
    const failed = await read(wrong.id);
    expect([failed.body.result, failed.body.body.error.code]).toEqual([-10, 3014]);
  });

  it('shows the form again on bad input and charges nothing; a card of another brand is an input error', async () => {
    const { id, redirect } = await cardRedirect(1010);
    const bad = await customerSubmits(redirect.url, { number: '4111111111111112' });
    expect(bad.kind).toBe('page');
    if (bad.kind === 'page') {
      expect(bad.html).toContain('name="cardNumber"');
      expect(bad.html).not.toContain('4111111111111112');
    }
    const other = await customerSubmits(redirect.url, { number: '5555555555554444' });
    expect(other.kind).toBe('page');
    if (other.kind === 'page') expect(other.html).toMatch(/MasterCard is not accepted here/);
    expect((await read(id)).body.result).toBe(2);
    expectBackAt(await customerReturns(redirect.url), id);
    expect((await read(id)).body.result).toBe(0);
  });

  it('makes an authorization on the form when asked, which can then be captured', async () => {
    const auth = await create(brandPayment(1010, { action: 'authorize' }));
    const { id, redirect } = expectPending(auth);
    expectBackAt(await customerReturns(redirect.url), id);
    const read1 = await read(id);
    expect([read1.body.result, read1.body.body.transaction.action]).toEqual([0, 'authorize']);
    const capture = await sb.post(`/gateway/v3/payments/${id}/capture`, { header: { businessId: BIZ }, body: { transaction: { amount: 10 } } });
    expect(capture.body.result, capture.text).toBe(0);
  });

  it('is found by tracking code (a top-level array) before and after the customer paid', async () => {
    const trackingCode = uniqueCode('rp-card');
    const { id, redirect } = await cardRedirect(1010, { trackingCode });
    const before = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${trackingCode}`);
    expect(before.body.map((p: any) => [p.body.id, p.result])).toEqual([[id, 2]]);
    await customerReturns(redirect.url);
    const after = await sb.get(`/gateway/v3/payments?businessId=${BIZ}&trackingCode=${trackingCode}`);
    expect(after.body.map((p: any) => [p.body.id, p.result])).toEqual([[id, 0]]);
  });

  it('refuses a returnUrl that is not http(s), and without a returnUrl still wants the card', async () => {
    expectError(await create(brandPayment(1010, { transaction: { returnUrl: 'javascript:alert(1)' } })), {
      result: -1,
      code: 1002,
      path: 'body.transaction.returnUrl',
    });
    expectError(await create(brandPayment(1010, { transaction: { returnUrl: null } })), { result: -1, code: 1004, path: 'body.card' });
  });

  it('escapes what the merchant sent on the form page', async () => {
    const { redirect } = await cardRedirect(1010, { trackingCode: '<script>alert(1)</script>' });
    const html = await (await fetch(redirect.url)).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('answers an unknown payment form, and the form of a payment that is not a card redirect, with 404', async () => {
    expect((await fetch(`${sb.url}/gateway/v3/web/payments/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const bank = expectPending(await create(brandPayment(3010, { more: { bank: {} } })));
    expect((await fetch(`${sb.url}/gateway/v3/web/payments/${bank.id}`)).status).toBe(404);
    expect((await fetch(`${sb.url}/gateway/v3/web/wallet/${bank.id}`)).status).toBe(404);
  });
});
