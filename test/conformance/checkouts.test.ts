import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { ISO_Z, REQUEST_CODE, RETURN_URL, UUID, createCheckout, customerReturns, customerSubmits, expectError } from './client.js';

const sb = useSandbox();

async function readCheckout(checkoutId: string, businessId = 'conf-biz') {
  return sb.get(`/Gateway/v3/Checkouts/${checkoutId}?businessId=${businessId}`);
}

function successfulEntry(res: { body: any }) {
  return (res.body.body.payments as any[]).find((entry) => entry.result === 0);
}

describe('checkout retrieval (docs/hosted-pages.md, "Lifecycle on submission")', () => {
  it('redirects to returnUrl?checkoutId=<id>&id=<paymentId> after payment and answers 0 Completed with the entry', async () => {
    const { checkout, transaction } = await createCheckout(sb, { transaction: { amount: 33.3 } });
    const back = await customerReturns(checkout.redirect.url, { number: '5555555555554444' });
    expect(`${back.origin}${back.pathname}`).toBe(RETURN_URL);
    expect(back.searchParams.get('checkoutId')).toBe(checkout.checkoutId);
    const paymentId = back.searchParams.get('id');
    expect(paymentId).toMatch(UUID);
    const res = await readCheckout(checkout.checkoutId);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Completed');
    const entry = successfulEntry(res);
    expect(entry.description).toBe('Ok');
    expect(entry.header.requestCode).toMatch(REQUEST_CODE);
    expect(entry.header.requestTimestamp).toMatch(ISO_Z);
    expect(entry.body.transaction).toMatchObject({
      id: paymentId,
      amount: 33.3,
      brandId: 1020,
      currencyCode: 'EUR',
      action: 'payment',
      trackingCode: transaction.trackingCode,
    });
    expect(entry.body.card).toMatchObject({ firstSixDigits: '555555', lastFourDigits: '4444' });
    expect(entry.body.token).toBeUndefined();
  });

  it('stays 2 Pending with the failed attempt in payments[] after a decline with attempts left', async () => {
    const { checkout } = await createCheckout(sb);
    const outcome = await customerSubmits(checkout.redirect.url, { number: '4000000000000002' });
    expect(outcome.kind).toBe('page');
    const res = await readCheckout(checkout.checkoutId);
    expect(res.body.result).toBe(2);
    expect(res.body.description).toBe('Pending');
    expect(res.body.body.payments).toHaveLength(1);
    expect(res.body.body.payments[0].result).toBe(-4);
  });

  it('answers -4 Declined with HTTP 200 (as the provider answered GETs) and body.error after three failed attempts, still carrying the checkout', async () => {
    const { checkout } = await createCheckout(sb);
    await customerSubmits(checkout.redirect.url, { number: '4000000000000002' });
    await customerSubmits(checkout.redirect.url, { number: '4000000000000002' });
    const back = await customerReturns(checkout.redirect.url, { number: '4000000000000002' });
    expect(back.searchParams.get('checkoutId')).toBe(checkout.checkoutId);
    expect(back.searchParams.has('id')).toBe(false);
    const res = await readCheckout(checkout.checkoutId);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(-4);
    expect(res.body.description).toBe('Declined');
    expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
    expect(res.body.body.error.code).toEqual(expect.any(Number));
    expect(res.body.body.error.message).toEqual(expect.any(String));
    expect(res.body.body.checkout.checkoutId).toBe(checkout.checkoutId);
    expect(res.body.body.payments).toHaveLength(3);
  });

  it('answers -10 Customer processing error with HTTP 200 (as the provider answered GETs) and body.error after the decline button', async () => {
    const { checkout } = await createCheckout(sb);
    const back = await customerReturns(checkout.redirect.url, { button: /decline/i });
    expect(back.searchParams.get('checkoutId')).toBe(checkout.checkoutId);
    expect(back.searchParams.has('id')).toBe(false);
    const res = await readCheckout(checkout.checkoutId);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(-10);
    expect(res.body.description).toBe('Customer processing error');
    expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
    expect(res.body.body.error.code).toEqual(expect.any(Number));
    expect(res.body.body.checkout.checkoutId).toBe(checkout.checkoutId);
  });

  it('cannot be paid twice: after success the page has no card form', async () => {
    const { checkout } = await createCheckout(sb);
    await customerReturns(checkout.redirect.url);
    const page = await fetch(checkout.redirect.url);
    expect(await page.text()).not.toMatch(/name="cardNumber"/);
    const res = await readCheckout(checkout.checkoutId);
    expect(res.body.body.payments.filter((p: any) => p.result === 0)).toHaveLength(1);
  });
});

describe('checkout tokenization (docs/test-cards.md, "Direct payments")', () => {
  it('tokenizes on success with tokenize TRUE: token in the successful entry, displayHint ************1111', async () => {
    const { checkout } = await createCheckout(sb, { checkout: { tokenize: 'true' } });
    expect(checkout.tokenize).toBe('TRUE');
    await customerReturns(checkout.redirect.url, { number: '4111111111111111' });
    const res = await readCheckout(checkout.checkoutId);
    const entry = successfulEntry(res);
    expect(entry.body.token.token).toMatch(UUID);
    expect(entry.body.token.displayHint).toBe('************1111');
  });

  it('shows a save-card checkbox for INQUIRE and tokenizes only when it is ticked', async () => {
    const { checkout: ticked } = await createCheckout(sb, { checkout: { tokenize: 'inquire' } });
    const page = await (await fetch(ticked.redirect.url)).text();
    expect(page).toMatch(/type="checkbox"/i);
    await customerReturns(ticked.redirect.url, { tick: true });
    expect(successfulEntry(await readCheckout(ticked.checkoutId)).body.token.token).toMatch(UUID);

    const { checkout: unticked } = await createCheckout(sb, { checkout: { tokenize: 'INQUIRE' } });
    await customerReturns(unticked.redirect.url, { tick: false });
    expect(successfulEntry(await readCheckout(unticked.checkoutId)).body.token).toBeUndefined();
  });

  it('shows no save-card checkbox and never tokenizes with tokenize FALSE', async () => {
    const { checkout } = await createCheckout(sb, { checkout: { tokenize: 'FALSE' } });
    const page = await (await fetch(checkout.redirect.url)).text();
    expect(page).not.toMatch(/type="checkbox"/i);
    await customerReturns(checkout.redirect.url, { tick: true });
    expect(successfulEntry(await readCheckout(checkout.checkoutId)).body.token).toBeUndefined();
  });

  it('defaults tokenize to FALSE when it is left out', async () => {
    const res = await sb.post('/Gateway/v3/Checkouts', {
      header: { businessId: 'conf-biz' },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: `nt-${Date.now()}` },
        checkout: { brandIds: [1010], returnUrl: RETURN_URL },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.checkout.tokenize).toBe('FALSE');
  });

  it('gives the same token for the same card in two checkouts of one business', async () => {
    const { checkout: a } = await createCheckout(sb, { checkout: { tokenize: 'TRUE' } });
    const { checkout: b } = await createCheckout(sb, { checkout: { tokenize: 'TRUE' } });
    await customerReturns(a.redirect.url, { number: '4242424242424242' });
    await customerReturns(b.redirect.url, { number: '4242424242424242' });
    const tokenA = successfulEntry(await readCheckout(a.checkoutId)).body.token.token;
    const tokenB = successfulEntry(await readCheckout(b.checkoutId)).body.token.token;
    expect(tokenA).toBe(tokenB);
  });

  it('refuses a card whose brand is not in the checkout brandIds (-1) and charges nothing', async () => {
    const { checkout } = await createCheckout(sb, { checkout: { brandIds: [1020] } });
    const outcome = await customerSubmits(checkout.redirect.url, { number: '4111111111111111' });
    expect(outcome.kind).toBe('page');
    const res = await readCheckout(checkout.checkoutId);
    expect(res.body.result).toBe(2);
    expect((res.body.body.payments ?? []).filter((p: any) => p.result === 0)).toHaveLength(0);
  });
});

describe('checkout creation errors', () => {
  it('refuses a duplicate checkout trackingCode for the same business with -8 naming it, but accepts a link with that code', async () => {
    const trackingCode = `dupco-${Date.now()}`;
    await createCheckout(sb, { transaction: { trackingCode } });
    const again = await sb.post('/Gateway/v3/Checkouts', {
      header: { businessId: 'conf-biz' },
      body: {
        transaction: { amount: 5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode },
        checkout: { brandIds: [1010], returnUrl: RETURN_URL },
      },
    });
    expectError(again, { result: -8, status: 400, path: 'body.transaction.trackingCode' });
    const link = await sb.post('/Gateway/v3/Paymentlinks', {
      header: { businessId: 'conf-biz' },
      body: {
        transaction: { amount: 1, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode },
        link: { duration: 'P1D', brandIds: [1010], returnUrl: RETURN_URL },
      },
    });
    expect(link.status, link.text).toBe(200);
  });
});
