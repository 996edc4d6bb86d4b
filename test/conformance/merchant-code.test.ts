/**
 * What merchant code written against the provider saw (issue 21, docs/compatibility.md): functional suites
 * that ran against its staging environment, shop integrations, a generic payment-library driver, and
 * HTTP exchanges recorded from it. Written from that behaviour, with plain HTTP.
 */
import { describe, expect, it } from 'vitest';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { customerReturns, expectInputError } from './client.js';

const sb = useSandbox();

describe('link creation answers as the retrieval does', () => {
  it('carries threeDSecure false and tokenize FALSE by default', async () => {
    const res = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.link).toMatchObject({ status: 'READY', threeDSecure: false, tokenize: 'FALSE' });
  });

  it('carries threeDSecure true when the link asked for it, with body.threeDSecure {version: "2"} beside it', async () => {
    const request = linkRequest({ link: { threeDSecure: true, tokenize: 'true' } });
    const res = await sb.post('/gateway/v3/paymentlinks', { ...request, body: { ...request.body, threeDSecure: { version: '2' } } });
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.link).toMatchObject({ status: 'READY', threeDSecure: true, tokenize: 'TRUE' });
    const read = await sb.get(`/gateway/v3/paymentlinks/${res.body.body.link.linkId}?businessId=biz-1`);
    expect(read.body.body.link).toEqual(res.body.body.link);
  });

  it('refuses a 3-D Secure version that is not one', async () => {
    const request = linkRequest({ link: { threeDSecure: true } });
    const res = await sb.post('/gateway/v3/paymentlinks', { ...request, body: { ...request.body, threeDSecure: { version: 'three' } } });
    expectInputError(res, 1002, 'body.threeDSecure.version');
  });

  it('takes the customer, addresses, order and option a link request may carry beside the link', async () => {
    const request = linkRequest({ transaction: { trackingCode: uniqueCode('extras') } });
    const res = await sb.post('/gateway/v3/paymentlinks', {
      ...request,
      body: {
        ...request.body,
        customer: { givenName: 'Ada', familyName: 'Lovelace', birthDate: '1987-07-28T00:00:00+00:00' },
        billingAddress: { street: 'Straat', houseNumber: '1', city: 'Stad', zip: '1111AA', countryCode: 'NL' },
        order: { orderLines: [{ productCode: 'A', itemAmount: 1.5, quantity: 1, totalAmount: 1.5 }] },
      },
    });
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
  });
});

const BIZ = 'merchant-code';

function idealPayment(amount: number, bank: Record<string, unknown>, more: Record<string, unknown> = {}) {
  return {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount, currencyCode: 'EUR', brandId: 3010, trackingCode: uniqueCode('ideal'), returnUrl: 'https://shop.example/back', ...more },
      bank,
    },
  };
}

async function postForm(path: string, fields: Record<string, string>) {
  return fetch(sb.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("iDEAL answers name the bank in the provider's form", () => {
  it("names the bank of the issuerId sent, as a number, a string or the bank's BIC", async () => {
    for (const [issuerId, name] of [
      [10, 'ABN_AMRO'],
      ['20', 'RABOBANK'],
      [30, 'ING'],
      [40, 'SNS_BANK'],
      [50, 'ASN_BANK'],
      [60, 'REGIOBANK'],
      [70, 'TRIODOS_BANK'],
      [80, 'KNAB'],
      [100, 'VAN_LANSCHOT'],
      [110, 'BUNQ'],
      ['INGBNL2A', 'ING'],
    ] as const) {
      const res = await sb.post('/gateway/v3/payments', idealPayment(10, { issuerId }));
      expect([res.status, res.body.result], res.text).toEqual([200, 2]);
      expect(res.body.body.bank, String(issuerId)).toMatchObject({ name, countryCode: 'NL' });
    }
  });

  it("answers the paid payment with the payer's account at that bank: account number, IBAN of that bank, its BIC", async () => {
    const created = await sb.post('/gateway/v3/payments', idealPayment(1, { issuerId: 20 }));
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=${BIZ}`);
    expect(read.body.result, read.text).toBe(0);
    const bank = read.body.body.bank;
    expect(bank).toMatchObject({
      name: 'RABOBANK',
      countryCode: 'NL',
      bic: 'RABONL2U',
      accountHolderName: expect.any(String),
      accountNumber: expect.stringMatching(/^\d{10}$/),
    });
    expect(bank.iban).toMatch(/^NL\d{2}RABO\d{10}$/);
    expect(bank.iban.endsWith(bank.accountNumber)).toBe(true);
    // ISO 13616: the IBAN's check digits hold.
    const rearranged = (bank.iban.slice(4) + bank.iban.slice(0, 4)).replace(/[A-Z]/g, (c: string) => String(c.charCodeAt(0) - 55));
    expect(BigInt(rearranged) % 97n).toBe(1n);
  });

  it('lets the customer choose the bank on the bank page when the merchant sent no issuerId, and names it then', async () => {
    const created = await sb.post('/gateway/v3/payments', idealPayment(10, {}));
    expect(created.body.body.bank.name).toBe('iDEAL');
    const path = new URL(created.body.body.redirect.url).pathname;
    const page = await fetch(sb.url + path).then((r) => r.text());
    expect(page).toContain('name="issuerId"');
    expect(page).toContain('value="70"');
    const posted = await postForm(path, { issuerId: '70', action: 'approve' });
    expect(posted.status).toBe(303);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=${BIZ}`);
    expect(read.body.result).toBe(0);
    expect(read.body.body.bank).toMatchObject({ name: 'TRIODOS_BANK', issuerId: '70', bic: 'TRIONL2U' });
  });

  it("answers a payment the bank declined -4 with the provider's words, HTTP 200 on the GET, the bank still named", async () => {
    const created = await sb.post('/gateway/v3/payments', idealPayment(10, { issuerId: 10 }));
    const path = new URL(created.body.body.redirect.url).pathname;
    expect(await fetch(sb.url + path).then((r) => r.text())).toContain('value="decline"');
    const posted = await postForm(path, { action: 'decline' });
    expect(posted.status).toBe(303);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=${BIZ}`);
    expect([read.status, read.body.result, read.body.description]).toEqual([200, -4, 'Declined']);
    expect(read.body.body.error).toMatchObject({
      code: 3001,
      message: 'Transaction declined by authorization system',
      detailedMessage: 'Transaction declined by authorization system',
    });
    expect(read.body.body.bank).toEqual({ name: 'ABN_AMRO', countryCode: 'NL', issuerId: '10' });
  });

  it("keeps the brand's name for an issuer it does not know, and for the other bank brands", async () => {
    const unknown = await sb.post('/gateway/v3/payments', idealPayment(10, { issuerId: 'X' }));
    expect(unknown.body.body.bank).toMatchObject({ name: 'iDEAL', issuerId: 'X' });
    const sofort = await sb.post('/gateway/v3/payments', {
      ...idealPayment(10, { countryCode: 'DE', issuerId: 10 }),
      body: {
        ...idealPayment(10, {}).body,
        transaction: { ...idealPayment(10, {}).body.transaction, brandId: 3020 },
        bank: { countryCode: 'DE', issuerId: 10 },
      },
    });
    expect(sofort.body.body.bank.name, sofort.text).toBe('Sofort');
  });
});

describe('every optional field sent, null or empty, as generic payment libraries send them', () => {
  const everyField = (more: { transaction?: Record<string, unknown>; card?: Record<string, unknown> } = {}) => ({
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: {
        amount: '10.00',
        currencyCode: 'EUR',
        countryCode: null,
        trackingCode: uniqueCode('lib'),
        brandId: '',
        languageCode: 'en',
        methodId: '1',
        notifyUrl: '',
        returnUrl: null,
        storeId: null,
        invoiceId: null,
        source: null,
        descriptor: '',
        type: 'SINGLE',
        payTimeout: null,
        token: null,
        tokenize: null,
        ...more.transaction,
      },
      card: { holderName: 'Ada Lovelace', number: '4111111111111111', expiryMonth: 12, expiryYear: 2035, cvv: '', issueNumber: null, ...more.card },
      customer: { customerId: null, givenName: 'Ada', familyName: null, email: '', sex: null, birthDate: null, phoneNumber: '' },
      billingAddress: { street: null, city: '', countryCode: null },
      bank: null,
    },
  });

  it('takes a card payment whose unset fields are null or "" as if they were absent', async () => {
    const res = await sb.post('/gateway/v3/payments', everyField());
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.transaction.brandId).toBe(1010);
    expect(res.body.body.transaction.descriptor).toBeUndefined();
    expect(res.body.body.card.cvvResult).toBe('P');
  });

  it('still refuses a malformed value that is not empty', async () => {
    expectInputError(
      await sb.post('/gateway/v3/payments', everyField({ transaction: { notifyUrl: 'ftp://shop.example/hook' } })),
      1002,
      'body.transaction.notifyUrl',
    );
    expectInputError(await sb.post('/gateway/v3/payments', everyField({ transaction: { brandId: 'VISA' } })), 1002, 'body.transaction.brandId');
    expectInputError(await sb.post('/gateway/v3/payments', everyField({ transaction: { descriptor: 42 } })), 1002, 'body.transaction.descriptor');
    expectInputError(await sb.post('/gateway/v3/payments', everyField({ card: { cvv: 'abcdefg' } })), 1002, 'body.card.cvv');
  });

  it('still refuses an empty required field', async () => {
    expectInputError(await sb.post('/gateway/v3/payments', everyField({ transaction: { trackingCode: '' } })), 1002, 'body.transaction.trackingCode');
    expectInputError(await sb.post('/gateway/v3/payments', everyField({ card: { number: '' } })), 1002, 'body.card.number');
  });

  it('takes empty optional link fields as absent: duration P1D, tokenize FALSE, threeDSecure false, no notifyUrl', async () => {
    const res = await sb.post(
      '/gateway/v3/paymentlinks',
      linkRequest({ transaction: { notifyUrl: '', authorizationMode: '' }, link: { duration: '', tokenize: '', threeDSecure: '' } }),
    );
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.link).toMatchObject({ tokenize: 'FALSE', threeDSecure: false });
    expect(res.body.body.transaction.authorizationMode).toBe('PAYMENT');
    const days = (Date.parse(res.body.body.link.expirationTime) - Date.parse(res.body.header.requestTimestamp)) / 86_400_000;
    expect(Math.round(days)).toBe(1);
  });

  it("takes an empty amount and currency on a follow-up as absent (the whole amount, the payment's currency)", async () => {
    const paid = await sb.post('/gateway/v3/payments', everyField());
    const refund = await sb.post(`/gateway/v3/payments/${paid.body.body.id}/refund`, {
      header: { businessId: BIZ },
      body: { transaction: { amount: '', currencyCode: '', trackingCode: uniqueCode('refund'), invoiceId: null } },
    });
    expect([refund.status, refund.body.result], refund.text).toEqual([200, 0]);
    expect(refund.body.body.transaction.amount).toBe(10);
  });
});

describe('a 404 with no body where the provider answered one', () => {
  it("answers the GET of an unknown payment id, a credit id or another business's payment with HTTP 404 and no body", async () => {
    const unknown = await fetch(`${sb.url}/gateway/v3/payments/00000000-0000-4000-8000-000000000000?businessId=${BIZ}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('');
    expect(unknown.headers.get('content-type')).toBeNull();
    const paid = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 3, currencyCode: 'EUR', trackingCode: uniqueCode('bare') },
        card: { number: '4111111111111111', expiryMonth: '12', expiryYear: '2035', holderName: 'A B' },
      },
    });
    const other = await sb.get(`/gateway/v3/payments/${paid.body.body.id}?businessId=someone-else`);
    expect([other.status, other.text]).toEqual([404, '']);
    const own = await sb.get(`/gateway/v3/payments/${paid.body.body.id}?businessId=${BIZ}`);
    expect([own.status, own.body.result]).toEqual([200, 0]);
  });

  it('keeps the 404 envelope where no answer of the provider is on record: links, checkouts, credits, tokens, follow-ups', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/gateway/v3/paymentlinks/${id}`, `/gateway/v3/checkouts/${id}`, `/gateway/v3/credits/${id}`, `/gateway/v3/tokens/${id}`]) {
      const res = await sb.get(`${path}?businessId=${BIZ}`);
      expect([res.status, res.body?.result, res.body?.body?.error?.code], path).toEqual([404, -2, 1404]);
    }
    const refund = await sb.post(`/gateway/v3/payments/${id}/refund`, { header: { businessId: BIZ } });
    expect([refund.status, refund.body.result, refund.body.body.error.code]).toEqual([404, -2, 1404]);
  });
});

describe("follow-ups of a payment that never succeeded, in the provider's words", () => {
  const NEEDS_SUCCESS = 'the operation needs at least one successful previous transaction';

  async function authorize(number: string) {
    return sb.post('/gateway/v3/payments', {
      action: 'authorize',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 5.5, currencyCode: 'EUR', trackingCode: uniqueCode('fu'), returnUrl: 'https://shop.example/back' },
        card: { number, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'John Doe' },
      },
    });
  }

  it('refuses capture, cancel and refund of a pending (3-D Secure) authorization with -8 and that wording in detailedMessage', async () => {
    const pending = await authorize('4000000000003220');
    expect(pending.body.result, pending.text).toBe(2);
    const id = pending.body.body.transaction.id;
    for (const [action, transaction] of [
      ['capture', { amount: 5.5, currencyCode: 'EUR' }],
      ['cancel', {}],
      ['refund', { amount: 1, currencyCode: 'EUR' }],
    ] as const) {
      const res = await sb.post(`/gateway/v3/payments/${id}/${action}`, {
        header: { businessId: BIZ },
        body: { transaction: { ...transaction, trackingCode: uniqueCode(action) } },
      });
      expect([res.status, res.body.result, res.body.body.error.code], res.text).toEqual([400, -8, 2003]);
      expect(res.body.body.error.detailedMessage).toContain(NEEDS_SUCCESS);
      expect(res.body.body.error.message).toContain(NEEDS_SUCCESS);
    }
  });

  it('refuses a capture of a declined authorization the same way', async () => {
    const declined = await authorize('4000000000000002');
    expect(declined.body.result).toBe(-4);
    const res = await sb.post(`/gateway/v3/payments/${declined.body.body.id}/capture`, { header: { businessId: BIZ } });
    expect([res.body.result, res.body.body.error.code]).toEqual([-8, 2003]);
    expect(res.body.body.error.detailedMessage).toContain(NEEDS_SUCCESS);
  });
});

describe('3-D Secure answers a redirect to post, and every redirect URL takes a post as a GET', () => {
  const RETURN = 'https://shop.example/back?order=7';
  const withoutTokens = (html: string) => html.replace(/name="formToken" value="[^"]*"/g, '');

  async function entryPost(url: string, fields: Record<string, string> | undefined) {
    return fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      body: new URLSearchParams(fields ?? {}).toString(),
    });
  }

  it('answers a card payment needing 3-D Secure 2 Pending with redirect {method POST, url, fields} and non-empty fields', async () => {
    const res = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 5.5, currencyCode: 'EUR', brandId: 1010, trackingCode: uniqueCode('3ds'), returnUrl: RETURN },
        card: { number: '4000000000003220', cvv: '123', expiryMonth: '03', expiryYear: '2035', holderName: 'John Doe' },
      },
    });
    expect([res.status, res.body.result, res.body.description], res.text).toEqual([200, 2, 'Pending']);
    const { redirect, id } = res.body.body;
    expect(redirect.method).toBe('POST');
    expect(redirect.url).toBe(`${sb.url}/gateway/v3/web/3ds/${id}`);
    expect(Object.keys(redirect.fields).length).toBeGreaterThan(0);
    expect(redirect.fields).toMatchObject({ MD: id, TermUrl: RETURN });
    for (const value of Object.values(redirect.fields)) expect(value).toEqual(expect.any(String));
    // The GET answers the same.
    const read = await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`);
    expect(read.body.body.redirect).toEqual(redirect);

    // Posting the fields (from the shop's page) shows the challenge, as a GET does; nothing changes.
    const posted = await entryPost(redirect.url, redirect.fields);
    expect(posted.status).toBe(200);
    const postedHtml = await posted.text();
    const gotHtml = await fetch(redirect.url).then((r) => r.text());
    expect(postedHtml).toContain('name="code"');
    expect(withoutTokens(postedHtml)).toBe(withoutTokens(gotHtml));
    expect((await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`)).body.result).toBe(2);

    // The customer passes the check and comes back to the shop's returnUrl with the payment's id.
    const back = await customerReturns(redirect.url, { challengeCode: '1234' });
    expect(back.toString()).toBe(`${RETURN}&id=${id}`);
    const done = await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`);
    expect([done.body.result, done.body.body.redirect]).toEqual([0, undefined]);
  });

  it("takes an empty post on a card redirect payment's form, whose answer stays a GET redirect", async () => {
    const res = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: { transaction: { amount: 5, currencyCode: 'EUR', brandId: 1010, trackingCode: uniqueCode('cardredirect'), returnUrl: RETURN } },
    });
    expect(res.body.body.redirect.method, res.text).toBe('GET');
    const posted = await entryPost(res.body.body.redirect.url, undefined);
    expect(posted.status).toBe(200);
    const html = await posted.text();
    expect(html).toContain('name="cardNumber"');
    expect(withoutTokens(html)).toBe(withoutTokens(await fetch(res.body.body.redirect.url).then((r) => r.text())));
  });

  it("takes a post on the bank page (iDEAL keeps its GET redirect) and on a link's hosted page, and shows the page", async () => {
    const bank = await sb.post('/gateway/v3/payments', idealPayment(10, { issuerId: 10 }));
    expect(bank.body.body.redirect.method).toBe('GET');
    const bankPost = await entryPost(bank.body.body.redirect.url, undefined);
    expect(bankPost.status).toBe(200);
    expect(await bankPost.text()).toBe(await fetch(bank.body.body.redirect.url).then((r) => r.text()));
    expect((await sb.get(`/gateway/v3/payments/${bank.body.body.id}?businessId=${BIZ}`)).body.result).toBe(2);

    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const linkPost = await entryPost(link.body.body.link.redirect.url, undefined);
    expect(linkPost.status).toBe(200);
    expect(await linkPost.text()).toContain('name="cardNumber"');
  });

  it('still refuses a malformed returnUrl on a card payment', async () => {
    const res = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', trackingCode: uniqueCode('badret'), returnUrl: 'not a url' },
        card: { number: '4111111111111111', expiryMonth: '03', expiryYear: '2035', holderName: 'A B' },
      },
    });
    expectInputError(res, 1002, 'body.transaction.returnUrl');
  });
});
