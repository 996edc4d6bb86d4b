/**
 * The provider's developer portal, followed (docs/compatibility.md, "The developer portal, page by page"):
 * each test is written from what a portal page documents (its field tables and its example requests), not
 * from any client's code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, uniqueCode, useSandbox, type JsonResponse } from '../helpers/sandbox.js';
import { customerSubmits, expectError, FUTURE } from './client.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/webhook-receiver.js';

const sb = useSandbox();
const BIZ = 'portal';

function payment(
  patch: {
    action?: string;
    businessId?: string;
    transaction?: Record<string, unknown>;
    card?: Record<string, unknown> | null;
    more?: Record<string, unknown>;
  } = {},
) {
  const body: Record<string, unknown> = {
    transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('portal'), ...patch.transaction },
    ...patch.more,
  };
  if (patch.card !== null) body.card = { number: '4111111111111111', cvv: '123', ...FUTURE, ...patch.card };
  return { action: patch.action ?? 'payment', header: { businessId: patch.businessId ?? BIZ }, body };
}

async function pay(body: unknown): Promise<JsonResponse> {
  return sb.post('/gateway/v3/payments', body);
}

describe('optional means optional (the reference and the SDK classes)', () => {
  it('takes a card payment without card.holderName, as the 3DS 2.0 and tokenization examples send it, and answers no name', async () => {
    const res = await pay(payment());
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.card.lastFourDigits).toBe('1111');
    expect(res.body.body.card).not.toHaveProperty('holderName');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.body.card).not.toHaveProperty('holderName');
  });

  it('takes a token creation without card.holderName (the key fields are business, customer, number and expiry)', async () => {
    const res = await sb.post('/gateway/v3/tokens', { header: { businessId: BIZ }, body: { brandId: 1010, card: { number: '4111111111111111', ...FUTURE } } });
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.displayHint).toMatch(/1111$/);
  });

  it('still refuses a holderName that is not text', async () => {
    expectError(await pay(payment({ card: { holderName: 7 } })), { result: -1, code: 1002, path: 'body.card.holderName' });
  });
});

describe('field rules of POST /payments (the reference)', () => {
  const refusals: Array<[string, unknown, string]> = [
    [
      'a tracking code shorter than 8 characters ("Minimal length: 8 characters")',
      payment({ transaction: { trackingCode: 'abc1234' } }),
      'body.transaction.trackingCode',
    ],
    ['a businessId longer than String(50)', payment({ businessId: 'b'.repeat(51) }), 'header.businessId'],
    ['an invoiceId longer than String(255)', payment({ transaction: { invoiceId: 'i'.repeat(256) } }), 'body.transaction.invoiceId'],
    ['a purchaseId longer than String(100)', payment({ transaction: { purchaseId: 'p'.repeat(101) } }), 'body.transaction.purchaseId'],
    ['a three-letter countryCode (String(2), ISO 3166-1 alpha-2)', payment({ transaction: { countryCode: 'NLD' } }), 'body.transaction.countryCode'],
    ['a languageCode that is not two letters (String(2), ISO 639-1)', payment({ transaction: { languageCode: 'nl-NL' } }), 'body.transaction.languageCode'],
    ['a storeId that is not a number', payment({ transaction: { storeId: 'main' } }), 'body.transaction.storeId'],
  ];
  for (const [name, body, path] of refusals) {
    it(`refuses ${name} with the input-error envelope, storing nothing`, async () => {
      const res = await pay(body);
      expectError(res, { result: -1, code: 1002, path });
    });
  }

  it('takes a tracking code of exactly 8 characters and a businessId of 50', async () => {
    const code = `t${Date.now().toString(36)}`.slice(0, 8).padEnd(8, '0');
    const res = await pay(payment({ businessId: 'b'.repeat(50), transaction: { trackingCode: code } }));
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.trackingCode).toBe(code);
  });

  it('stores and answers storeId, invoiceId, purchaseId, countryCode and languageCode on the payment, its GET and its lookup', async () => {
    const references = { storeId: 1, invoiceId: 'INV-2019-0001', purchaseId: 'PO-77', countryCode: 'nl', languageCode: 'NL' };
    const res = await pay(payment({ transaction: references }));
    expect(res.body.result, res.text).toBe(0);
    const expected = { storeId: 1, invoiceId: 'INV-2019-0001', purchaseId: 'PO-77', countryCode: 'NL', languageCode: 'nl' };
    expect(res.body.body.transaction).toMatchObject(expected);
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.body.transaction).toMatchObject(expected);
  });

  it('answers the references of a bank payment too (the iDEAL sheet: countryCode NL, languageCode nl)', async () => {
    const res = await pay(
      payment({
        card: null,
        transaction: { brandId: 3010, returnUrl: 'https://shop.example/back', countryCode: 'NL', languageCode: 'nl', purchaseId: 'PO-78' },
        more: { bank: { issuerId: 10 } },
      }),
    );
    expect(res.body.result, res.text).toBe(2);
    expect(res.body.body.transaction).toMatchObject({ countryCode: 'NL', languageCode: 'nl', purchaseId: 'PO-78' });
  });

  it('echoes the references of a payment link and a checkout in body.transaction, on creation and on GET', async () => {
    const references = { storeId: 2, invoiceId: 'your_invoiceId', purchaseId: 'your_purchaseId', languageCode: 'en', countryCode: 'DE' };
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: BIZ, transaction: references }));
    expect(link.body.result, link.text).toBe(0);
    expect(link.body.body.transaction).toMatchObject(references);
    const linkRead = await sb.get(`/gateway/v3/paymentlinks/${link.body.body.link.linkId}?businessId=${BIZ}`);
    expect(linkRead.body.body.transaction).toMatchObject(references);

    const checkout = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ, transaction: references }));
    expect(checkout.body.result, checkout.text).toBe(2);
    expect(checkout.body.body.transaction).toMatchObject(references);
  });
});

describe('"authorize" on a brand without separate capture (the reference\'s note on POST /payments)', () => {
  it('makes an iDEAL authorize a final payment, answered with action "payment"', async () => {
    const res = await pay(
      payment({ action: 'authorize', card: null, transaction: { brandId: 3010, returnUrl: 'https://shop.example/back' }, more: { bank: { issuerId: 10 } } }),
    );
    expect([res.status, res.body.result], res.text).toEqual([200, 2]);
    expect(res.body.body.transaction.action).toBe('payment');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.body.transaction.action).toBe('payment');
  });

  it('does the same for Giropay and PayPal', async () => {
    const giropay = await pay(
      payment({ action: 'authorize', card: null, transaction: { brandId: 3025, returnUrl: 'https://shop.example/back' }, more: { bank: {} } }),
    );
    expect([giropay.body.result, giropay.body.body.transaction.action], giropay.text).toEqual([2, 'payment']);
    const paypal = await pay(payment({ action: 'authorize', card: null, transaction: { brandId: 4010, returnUrl: 'https://shop.example/back' } }));
    expect([paypal.body.result, paypal.body.body.transaction.action], paypal.text).toEqual([2, 'payment']);
  });

  it('keeps a card authorize an authorization', async () => {
    const res = await pay(payment({ action: 'authorize' }));
    expect([res.body.result, res.body.body.transaction.action], res.text).toEqual([0, 'authorize']);
  });
});

describe('payment links as the portal shows them ("Create Payment Link", "Get Payment Link")', () => {
  it("gives a link created without brandIds the portal's default list, less the brands the sandbox does not offer", async () => {
    const request = linkRequest({ businessId: BIZ });
    delete (request.body.link as Record<string, unknown>).brandIds;
    const res = await sb.post('/gateway/v3/paymentlinks', request);
    expect(res.body.result, res.text).toBe(0);
    const expected = [1010, 1011, 1013, 1020, 1023, 1030, 1040, 1050, 1060, 1090, 1210, 3010, 3020, 3025, 4010, 6010, 5020];
    expect(res.body.body.link.brandIds).toEqual(expected);
    const read = await sb.get(`/gateway/v3/paymentlinks/${res.body.body.link.linkId}?businessId=${BIZ}`);
    expect(read.body.body.link.brandIds).toEqual(expected);
  });

  it('stores and answers the link\'s type and descriptor (the creation example\'s "SINGLE" and "your_descriptor")', async () => {
    const res = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: BIZ, transaction: { type: 'single', descriptor: 'your_descriptor' } }));
    expect(res.body.result, res.text).toBe(0);
    expect(res.body.body.transaction).toMatchObject({ type: 'SINGLE', descriptor: 'your_descriptor' });
    const read = await sb.get(`/gateway/v3/paymentlinks/${res.body.body.link.linkId}?businessId=${BIZ}`);
    expect(read.body.body.transaction).toMatchObject({ type: 'SINGLE', descriptor: 'your_descriptor' });
    expect(read.body.body.link.expirationTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

describe('session timeouts from the brand sheets (iDEAL 600 s, Giropay 420 s)', () => {
  async function bankPayment(brandId: number): Promise<string> {
    const res = await pay(
      payment({ businessId: 'portal-time', card: null, transaction: { brandId, returnUrl: 'https://shop.example/back' }, more: { bank: {} } }),
    );
    expect(res.body.result, res.text).toBe(2);
    return res.body.body.id;
  }
  async function advance(step: string): Promise<string[]> {
    const res = await sb.post('/__sandbox/clock', { advance: step });
    expect(res.status, res.text).toBe(200);
    return (res.body.body.settled as Array<{ paymentId: string }>).map((s) => s.paymentId);
  }

  it('expires a Giropay payment after 420 seconds and an iDEAL payment after 600, each as 4 Timeout', async () => {
    await sb.post('/__sandbox/clock', { reset: true });
    const giropay = await bankPayment(3025);
    const ideal = await bankPayment(3010);
    // Only these two: earlier tests of this file left bank payments waiting in other businesses.
    const mine = async (step: string) => (await advance(step)).filter((id) => id === giropay || id === ideal);
    expect(await mine('6m')).toEqual([]);
    expect(await mine('2m')).toEqual([giropay]);
    expect(await mine('1m')).toEqual([]);
    expect(await mine('2m')).toEqual([ideal]);
    const read = await sb.get(`/gateway/v3/payments/${ideal}?businessId=portal-time`);
    expect(read.body.result).toBe(4);
    await sb.post('/__sandbox/clock', { reset: true });
  });
});

describe('3-D Secure on checkouts ("3D Secure with Checkout")', () => {
  it('echoes threeDSecure: true on creation and on GET, and takes body.threeDSecure.version', async () => {
    const request = { ...checkoutRequest({ businessId: BIZ, transaction: { storeId: 1 }, checkout: { threeDSecure: true } }) };
    (request.body as Record<string, unknown>).threeDSecure = { version: '2' };
    const res = await sb.post('/gateway/v3/checkouts', request);
    expect(res.body.result, res.text).toBe(2);
    expect(res.body.body.checkout.threeDSecure).toBe(true);
    const read = await sb.get(`/gateway/v3/checkouts/${res.body.body.checkout.checkoutId}?businessId=${BIZ}`);
    expect(read.body.body.checkout.threeDSecure).toBe(true);
  });

  it('answers no threeDSecure field for a checkout created without it, as the tokenization example shows', async () => {
    const res = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ }));
    expect(res.body.body.checkout).not.toHaveProperty('threeDSecure');
  });

  it('sends an approved card through the challenge first, as on a link, and the checkout is paid after the code 1234', async () => {
    const res = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ, checkout: { threeDSecure: true } }));
    const checkoutId = res.body.body.checkout.checkoutId;
    const outcome = await customerSubmits(res.body.body.checkout.redirect.url, { number: '4111111111111111', challengeCode: '1234' });
    expect(outcome.kind).toBe('returned');
    const read = await sb.get(`/gateway/v3/checkouts/${checkoutId}?businessId=${BIZ}`);
    expect(read.body.result, read.text).toBe(0);

    // Without the code the customer is held on the challenge page; on a checkout without the flag, not.
    const held = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ, checkout: { threeDSecure: true } }));
    const challenged = await customerSubmits(held.body.body.checkout.redirect.url, { number: '4111111111111111' });
    expect(challenged.kind).toBe('page');
    if (challenged.kind === 'page') expect(challenged.html).toMatch(/one-time-code|challenge/i);
    const plain = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ }));
    const direct = await customerSubmits(plain.body.body.checkout.redirect.url, { number: '4111111111111111' });
    expect(direct.kind).toBe('returned');
  });

  it('refuses a threeDSecure that is not a boolean and a version that is not 1 or 2', async () => {
    expectError(await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ, checkout: { threeDSecure: 'yes' } })), {
      result: -1,
      code: 1002,
      path: 'body.checkout.threeDSecure',
    });
    const bad = checkoutRequest({ businessId: BIZ });
    (bad.body as Record<string, unknown>).threeDSecure = { version: '3' };
    expectError(await sb.post('/gateway/v3/checkouts', bad), { result: -1, code: 1002, path: 'body.threeDSecure.version' });
  });
});

describe('tokens keyed as the tokenization pages say (business, customer id, card number, expiry)', () => {
  async function tokenFor(customer: Record<string, unknown> | undefined, expiryYear = '2035'): Promise<string> {
    const body: Record<string, unknown> = { brandId: 1010, card: { number: '4242424242424242', expiryMonth: '12', expiryYear } };
    if (customer !== undefined) body.customer = customer;
    const res = await sb.post('/gateway/v3/tokens', { header: { businessId: 'portal-tokens' }, body });
    expect(res.body.result, res.text).toBe(0);
    return res.body.body.token;
  }

  it('gives the same card the stored token for the same customer id, and another token for another customer or none', async () => {
    const first = await tokenFor({ customerId: '98765', email: 'johndoe@example.com' });
    expect(await tokenFor({ customerId: '98765' })).toBe(first);
    expect(await tokenFor({ customerId: 98765 })).toBe(first);
    const other = await tokenFor({ customerId: '12345' });
    expect(other).not.toBe(first);
    const none = await tokenFor(undefined);
    expect([first, other]).not.toContain(none);
    expect(await tokenFor(undefined)).toBe(none);
    expect(await tokenFor({ customerId: '98765' }, '2036')).not.toBe(first);
  });

  it('keys the token a tokenized payment saves by its customer id too ("Payment with Tokenize")', async () => {
    const saved = await tokenFor({ customerId: 'cust-pay-1' });
    const res = await pay(
      payment({
        action: 'authorize',
        businessId: 'portal-tokens',
        transaction: { tokenize: true, brandId: 1010, countryCode: 'NL' },
        card: { number: '4242424242424242', expiryMonth: '12', expiryYear: '2035' },
        more: { customer: { customerId: 'cust-pay-1' } },
      }),
    );
    expect(res.body.result, res.text).toBe(0);
    expect(res.body.body.token.token).toBe(saved);
  });
});

describe("Tokenization webhooks (the portal's event types Transaction and Tokenization, each Create and Update)", () => {
  const SECRET = 'portal-tokenization-secret-42';
  let tokensRx: Receiver;
  let plainRx: Receiver;
  beforeAll(async () => {
    tokensRx = await startReceiver();
    plainRx = await startReceiver();
  });
  afterAll(async () => {
    await tokensRx.close();
    await plainRx.close();
  });

  it('sends Tokenization.Create, signed, with the token in its payload, to an endpoint that subscribed to it, and only Transaction events to one that named no types', async () => {
    const biz = 'portal-hooks';
    const subscribed = await sb.post('/__sandbox/webhooks', {
      businessId: biz,
      url: tokensRx.url,
      secret: SECRET,
      events: ['Tokenization.Create', 'Transaction.Create'],
    });
    expect(subscribed.body.result, subscribed.text).toBe(0);
    const plain = await sb.post('/__sandbox/webhooks', { businessId: biz, url: plainRx.url, secret: SECRET });
    expect(plain.body.result, plain.text).toBe(0);
    expect(plain.body.body.endpoint.events).toEqual(['Transaction.Create', 'Transaction.Update']);
    expect(subscribed.body.body.endpoint.events).toEqual(['Tokenization.Create', 'Transaction.Create']);

    const created = await sb.post('/gateway/v3/tokens', {
      header: { businessId: biz },
      body: { brandId: 1010, card: { number: '4111111111111111', ...FUTURE }, customer: { customerId: 'hook-1' } },
    });
    expect(created.body.result, created.text).toBe(0);
    const [delivery] = await tokensRx.waitFor(1, (d) => d.body?.Type === 'Tokenization.Create');
    await verifyDelivery(delivery!, SECRET);
    expect(delivery!.body.Message).toBe('A token was created.');
    expect(delivery!.body.Payload.result).toBe(0);
    expect(delivery!.body.Payload.body).toMatchObject({ token: created.body.body.token, displayHint: created.body.body.displayHint, brandId: 1010 });
    expect(JSON.stringify(delivery!.body)).not.toContain('4111111111111111');

    // The same card again is the stored token: no second Tokenization.Create.
    await sb.post('/gateway/v3/tokens', {
      header: { businessId: biz },
      body: { brandId: 1010, card: { number: '4111111111111111', ...FUTURE }, customer: { customerId: 'hook-1' } },
    });
    const paid = await pay(payment({ businessId: biz }));
    expect(paid.body.result, paid.text).toBe(0);
    await plainRx.waitFor(1, (d) => d.body?.Type === 'Transaction.Create' && d.body?.Payload?.body?.id === paid.body.body.id);
    await tokensRx.waitFor(1, (d) => d.body?.Type === 'Transaction.Create' && d.body?.Payload?.body?.id === paid.body.body.id);
    expect(plainRx.deliveries.filter((d) => String(d.body?.Type).startsWith('Tokenization'))).toEqual([]);
    expect(tokensRx.deliveries.filter((d) => d.body?.Type === 'Tokenization.Create')).toHaveLength(1);
  });
});
