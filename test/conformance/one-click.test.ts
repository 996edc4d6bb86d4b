/**
 * One-click checkouts as the portal's "One-Click Checkout" page documents them (customer tokens with
 * `customer.customerId` + `checkout.useCustomerTokens: true`, specific tokens in `checkout.oneClick.tokens` or
 * `checkout.tokens`, or both as a superset), and the SDKs' OneClick class (`oneClick` echoed in the answer).
 * The hosted form offers the saved cards (brand and last four digits, the security code only) and paying with
 * one makes a token payment.
 */
import { describe, expect, it } from 'vitest';
import { checkoutRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { expectError, FUTURE, parseForms, RETURN_URL } from './client.js';

const sb = useSandbox();
const BIZ = 'oneclick';

async function saveToken(number: string, customerId?: string, businessId = BIZ): Promise<string> {
  const res = await sb.post('/gateway/v3/tokens', {
    header: { businessId },
    body: { card: { number, cvv: number.length === 15 ? '1234' : '123', ...FUTURE }, ...(customerId !== undefined ? { customer: { customerId } } : {}) },
  });
  expect([res.status, res.body.result], res.text).toEqual([200, 0]);
  return res.body.body.token as string;
}

function oneClickCheckout(checkout: Record<string, unknown>, more: Record<string, unknown> = {}, businessId = BIZ) {
  const request = checkoutRequest({ businessId, checkout: { returnUrl: RETURN_URL, brandIds: [1010, 1020, 3010], tokenize: 'INQUIRE', ...checkout } });
  Object.assign(request.body, more);
  return request;
}

async function createOk(checkout: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const res = await sb.post('/gateway/v3/checkouts', oneClickCheckout(checkout, more));
  expect([res.status, res.body.result], res.text).toEqual([200, 2]);
  return res.body.body.checkout as { checkoutId: string; redirect: { url: string }; oneClick?: Record<string, unknown> };
}

/** The saved-card form of a hosted page: its token radios and its hidden fields. */
async function savedForm(url: string) {
  const page = await fetch(url);
  const html = await page.text();
  const form = parseForms(html).find((f) => f.inputs.some((i) => i.name === 'savedToken'));
  return { html, form };
}

async function postSaved(url: string, fields: Record<string, string>): Promise<Response> {
  const { form } = await savedForm(url);
  if (!form) throw new Error('no saved-card form');
  const params = new URLSearchParams();
  for (const input of form.inputs) if (input.type === 'hidden') params.set(input.name, input.value);
  params.set('action', 'pay');
  for (const [k, v] of Object.entries(fields)) params.set(k, v);
  return fetch(new URL(form.action, url), { method: 'POST', body: params, redirect: 'manual' });
}

describe("one-click checkouts: which saved cards are offered (the portal's three approaches)", () => {
  it('customer tokens: customer.customerId with checkout.useCustomerTokens true offers every token of that customer, none of another', async () => {
    const customerId = uniqueCode('cust');
    const visa = await saveToken('4111111111111111', customerId);
    const mc = await saveToken('5555555555554444', customerId);
    const other = await saveToken('4242424242424242', `${customerId}-other`);
    const checkout = await createOk({ useCustomerTokens: true }, { customer: { customerId } });
    expect(checkout.oneClick).toEqual({ useCustomerTokens: true });
    const { form } = await savedForm(checkout.redirect.url);
    const offered = form!.inputs.filter((i) => i.name === 'savedToken').map((i) => i.value);
    expect(offered).toEqual([visa, mc]);
    expect(offered).not.toContain(other);
  });

  it('customer tokens of a customer with none: an empty list, and the page shows the card form only', async () => {
    const checkout = await createOk({ oneClick: { useCustomerTokens: true } }, { customer: { customerId: uniqueCode('nobody') } });
    const { html, form } = await savedForm(checkout.redirect.url);
    expect(form).toBeUndefined();
    expect(html).toContain('pl-card-form');
  });

  it("specific tokens: checkout.oneClick.tokens as in the page's example, echoed in body.checkout.oneClick", async () => {
    const mc = await saveToken('5555555555554444');
    const visa = await saveToken('4111111111111111');
    const checkout = await createOk({ oneClick: { tokens: [mc, visa] } });
    expect(checkout.oneClick).toEqual({ tokens: [mc, visa] });
    const { html, form } = await savedForm(checkout.redirect.url);
    expect(form!.inputs.filter((i) => i.name === 'savedToken').map((i) => i.value)).toEqual([mc, visa]);
    const saved = /<form id="pl-saved-form"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    expect(saved).toMatch(/MasterCard •••• 4444/);
    expect(saved).toMatch(/VISA •••• 1111/i);
    // Never more of the number than its last four digits (the banner lists the test cards, not the saved ones).
    expect(saved).not.toContain('555555');
    expect(saved).not.toContain('411111');
  });

  it("specific tokens spelled checkout.tokens (the page's wording) are taken too", async () => {
    const visa = await saveToken('4111111111111111');
    const checkout = await createOk({ tokens: [visa] });
    expect(checkout.oneClick).toEqual({ tokens: [visa] });
  });

  it('customer tokens and specific tokens together: the superset, each card once', async () => {
    const customerId = uniqueCode('both');
    const own = await saveToken('4111111111111111', customerId);
    const extra = await saveToken('5555555555554444');
    const checkout = await createOk({ oneClick: { useCustomerTokens: true, tokens: [extra, own] } }, { customer: { customerId } });
    const { form } = await savedForm(checkout.redirect.url);
    expect(form!.inputs.filter((i) => i.name === 'savedToken').map((i) => i.value)).toEqual([own, extra]);
  });
});

describe('one-click checkouts: bad input is the input-error envelope and creates nothing', () => {
  it('refuses an unknown token (1002, naming the list entry)', async () => {
    expectError(await sb.post('/gateway/v3/checkouts', oneClickCheckout({ oneClick: { tokens: ['no-such-token'] } })), {
      result: -1,
      code: 1002,
      path: 'body.checkout.oneClick.tokens[0]',
    });
  });

  it("refuses another business's token exactly like an unknown one", async () => {
    const foreign = await saveToken('4111111111111111', undefined, 'someone-else');
    expectError(await sb.post('/gateway/v3/checkouts', oneClickCheckout({ tokens: [foreign] })), {
      result: -1,
      code: 1002,
      path: 'body.checkout.tokens[0]',
      message: /Unknown token/,
    });
  });

  it("refuses another customer's token on a checkout for a customer id", async () => {
    const theirs = await saveToken('4111111111111111', uniqueCode('them'));
    const res = await sb.post('/gateway/v3/checkouts', oneClickCheckout({ oneClick: { tokens: [theirs] } }, { customer: { customerId: uniqueCode('me') } }));
    expectError(res, { result: -1, code: 1002, path: 'body.checkout.oneClick.tokens[0]', message: /another customer/ });
  });

  it('refuses useCustomerTokens without customer.customerId (1004)', async () => {
    expectError(await sb.post('/gateway/v3/checkouts', oneClickCheckout({ useCustomerTokens: true })), {
      result: -1,
      code: 1004,
      path: 'body.customer.customerId',
    });
  });

  const malformed: Array<[string, Record<string, unknown>, string]> = [
    ['oneClick that is not an object', { oneClick: [1] }, 'body.checkout.oneClick'],
    ['tokens that are not a list', { oneClick: { tokens: 'abc' } }, 'body.checkout.oneClick.tokens'],
    ['a token that is not a string', { tokens: [42] }, 'body.checkout.tokens[0]'],
    ['useCustomerTokens that is not a boolean', { oneClick: { useCustomerTokens: 'yes' } }, 'body.checkout.oneClick.useCustomerTokens'],
  ];
  for (const [name, checkout, path] of malformed) {
    it(`refuses ${name}`, async () => {
      expectError(await sb.post('/gateway/v3/checkouts', oneClickCheckout(checkout)), { result: -1, code: 1002, path });
    });
  }
});

describe('one-click checkouts: paying with a saved card on the hosted form (an HTTP post)', () => {
  it('a saved card and its security code make a token payment, and the checkout completes', async () => {
    const visa = await saveToken('4111111111111111');
    const checkout = await createOk({ oneClick: { tokens: [visa] } });
    const res = await postSaved(checkout.redirect.url, { savedToken: visa, cvv: '123' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^https:\/\/merchant\.example\/return/);
    const status = await sb.get(`/gateway/v3/checkouts/${checkout.checkoutId}?businessId=${BIZ}`);
    expect(status.body.result, status.text).toBe(0);
    const entry = status.body.body.payments[0].body;
    expect(entry.token.token, JSON.stringify(entry)).toBe(visa);
    expect(entry.card.lastFourDigits).toBe('1111');
  });

  it('without the security code the form comes back asking for it, and nothing is paid', async () => {
    const visa = await saveToken('4111111111111111');
    const checkout = await createOk({ oneClick: { tokens: [visa] } });
    const res = await postSaved(checkout.redirect.url, { savedToken: visa, cvv: '' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/security code of the saved card/);
    const status = await sb.get(`/gateway/v3/checkouts/${checkout.checkoutId}?businessId=${BIZ}`);
    expect(status.body.result).toBe(2);
  });

  it('a token the checkout does not offer is not paid, even one of the same business', async () => {
    const offered = await saveToken('4111111111111111');
    const notOffered = await saveToken('5555555555554444');
    const checkout = await createOk({ oneClick: { tokens: [offered] } });
    const res = await postSaved(checkout.redirect.url, { savedToken: notOffered, cvv: '123' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/Choose one of the saved cards/);
    const status = await sb.get(`/gateway/v3/checkouts/${checkout.checkoutId}?businessId=${BIZ}`);
    expect(status.body.result).toBe(2);
  });

  it('oneClick.requireCvv false pays a saved card without a security code; oneClick.threeDSecure sends it through the challenge', async () => {
    const visa = await saveToken('4111111111111111');
    const plain = await createOk({ oneClick: { tokens: [visa], requireCvv: false } });
    const paid = await postSaved(plain.redirect.url, { savedToken: visa });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(/^https:\/\/merchant\.example\/return/);

    const secure = await createOk({ oneClick: { tokens: [visa], threeDSecure: true } });
    expect(secure.oneClick).toEqual({ tokens: [visa], threeDSecure: true });
    const challenged = await postSaved(secure.redirect.url, { savedToken: visa, cvv: '123' });
    expect(challenged.status).toBe(303);
    expect(challenged.headers.get('location')).toMatch(/3ds|challenge/);
  });

  it('a token saved by a tokenized payment for a customer id is offered by useCustomerTokens', async () => {
    const customerId = uniqueCode('paid');
    const pay = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', trackingCode: uniqueCode('tokenized'), tokenize: true },
        card: { number: '5555555555554444', cvv: '123', ...FUTURE },
        customer: { customerId },
      },
    });
    expect(pay.body.result, pay.text).toBe(0);
    const token = pay.body.body.token?.token ?? pay.body.body.transaction?.token;
    expect(token).toBeTypeOf('string');
    const checkout = await createOk({ useCustomerTokens: true }, { customer: { customerId } });
    const { form } = await savedForm(checkout.redirect.url);
    expect(form!.inputs.filter((i) => i.name === 'savedToken').map((i) => i.value)).toEqual([token]);
  });
});
