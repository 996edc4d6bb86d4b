import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import {
  ISO_Z,
  REQUEST_CODE,
  RETURN_URL,
  UUID,
  createLink,
  customerReturns,
  customerSubmits,
  expectError,
  formTokenOf,
  linkBody,
  postCardWithToken,
  uniqueCode,
} from './client.js';

const sb = useSandbox();

async function readLink(linkId: string, businessId = 'conf-biz') {
  return sb.get(`/Gateway/v3/Paymentlinks/${linkId}?businessId=${businessId}`);
}

describe('payment link retrieval before payment (docs/api.md)', () => {
  it.each(['order #7 & co', 'bestelling-ü-€-✓', 'a+b=c?d/e'])('finds a link by the trackingCode %j sent URL-encoded', async (base) => {
    const trackingCode = `${base} ${uniqueCode('enc')}`;
    const { link } = await createLink(sb, { transaction: { trackingCode } });
    const res = await sb.get(`/gateway/v3/paymentlinks?businessId=conf-biz&trackingCode=${encodeURIComponent(trackingCode)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.link.linkId).toBe(link.linkId);
    expect(res.body.body.transaction.trackingCode).toBe(trackingCode);
  });

  it('refuses a second link with the same trackingCode for the business with -8 (2001) naming it, but not for a checkout or another business', async () => {
    const trackingCode = uniqueCode('dup');
    await createLink(sb, { transaction: { trackingCode } });
    const again = await sb.post('/Gateway/v3/Paymentlinks', linkBody({ transaction: { trackingCode } }));
    expectError(again, { result: -8, status: 400, code: 2001, path: 'body.transaction.trackingCode' });
    const otherBusiness = await sb.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'conf-other', transaction: { trackingCode } }));
    expect(otherBusiness.status, otherBusiness.text).toBe(200);
    const checkout = await sb.post('/Gateway/v3/Checkouts', {
      header: { businessId: 'conf-biz' },
      body: {
        transaction: { amount: 1, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode },
        checkout: { brandIds: [1010], returnUrl: RETURN_URL },
      },
    });
    expect(checkout.status, checkout.text).toBe(200);
  });
});

describe('paying a link on the hosted form (docs/hosted-pages.md, "Lifecycle on submission")', () => {
  it('redirects to returnUrl?linkId=<id>&id=<paymentId>, then answers 0 Completed with the payment entry, and refuses to cancel the paid link with -8', async () => {
    const { link, transaction } = await createLink(sb, { transaction: { amount: 15.25 } });
    const back = await customerReturns(link.redirect.url, { number: '4111111111111111', holderName: 'Grace Hopper' });
    expect(`${back.origin}${back.pathname}`).toBe(RETURN_URL);
    expect(back.searchParams.get('linkId')).toBe(link.linkId);
    const paymentId = back.searchParams.get('id');
    expect(paymentId).toMatch(UUID);
    expect(back.toString()).toBe(`${RETURN_URL}?linkId=${link.linkId}&id=${paymentId}`);

    const res = await readLink(link.linkId);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Completed');
    expect(res.body.body.link.status).toBe('PAID');
    expect(res.body.body.transaction.trackingCode).toBe(transaction.trackingCode);
    expect(res.body.body.payments).toHaveLength(1);
    const entry = res.body.body.payments[0];
    expect(entry.result).toBe(0);
    expect(entry.description).toBe('Ok');
    expect(entry.header.requestTimestamp).toMatch(ISO_Z);
    expect(entry.header.requestCode).toMatch(REQUEST_CODE);
    expect(entry.body.transaction).toMatchObject({
      amount: 15.25,
      brandId: 1010,
      currencyCode: 'EUR',
      action: 'payment',
      id: paymentId,
      trackingCode: transaction.trackingCode,
    });
    expect(entry.body.card).toMatchObject({
      expiryMonth: '12',
      expiryYear: '2035',
      firstSixDigits: '411111',
      lastFourDigits: '1111',
      holderName: 'Grace Hopper',
    });
    expect(entry.body.card.approvalCode).toBeTypeOf('string');
    expect(entry.body.card.approvalCode.length).toBeGreaterThan(0);
    expect(entry.body.card.cvvResult).toMatch(/^[A-Z]$/);
    expect(entry.body.card.avsResult).toMatch(/^[A-Z]$/);
    expect(entry.body.token).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain('4111111111111111');

    const cancel = await sb.post(`/gateway/v3/paymentlinks/${link.linkId}/cancel`, { header: { businessId: 'conf-biz' } });
    expectError(cancel, { result: -8, status: 400, message: /PAID/ });
    expect((await readLink(link.linkId)).body.body.link.status).toBe('PAID');
  });

  it('answers the lookup by trackingCode of a paid link like the lookup by id: 0 Completed with payments[]', async () => {
    const trackingCode = uniqueCode('paidtc');
    const { link } = await createLink(sb, { transaction: { trackingCode } });
    await customerReturns(link.redirect.url);
    const byCode = await sb.get(`/gateway/v3/paymentlinks?businessId=conf-biz&trackingCode=${trackingCode}`);
    const byId = await readLink(link.linkId);
    expect(byCode.body.description).toBe('Completed');
    expect(byCode.body.body).toEqual(byId.body.body);
  });

  it('keeps the requestCode of a payment entry on later GETs', async () => {
    const { link } = await createLink(sb);
    await customerSubmits(link.redirect.url, { number: '4000000000000002' });
    const first = await readLink(link.linkId);
    const second = await readLink(link.linkId);
    expect(second.body.body.payments[0].header.requestCode).toBe(first.body.body.payments[0].header.requestCode);
  });

  it('keeps an existing query string of returnUrl on the redirect', async () => {
    const { link } = await createLink(sb, { link: { returnUrl: 'https://merchant.example/return?order=7&lang=nl' } });
    const back = await customerReturns(link.redirect.url);
    expect(back.searchParams.get('order')).toBe('7');
    expect(back.searchParams.get('lang')).toBe('nl');
    expect(back.searchParams.get('linkId')).toBe(link.linkId);
    expect(back.searchParams.get('id')).toMatch(UUID);
  });

  it('shows the reason and the form again after a failed attempt with attempts left, and GET lists the failed attempt', async () => {
    const { link } = await createLink(sb);
    const outcome = await customerSubmits(link.redirect.url, { number: '4000000000000002' });
    expect(outcome.kind).toBe('page');
    if (outcome.kind !== 'page') return;
    expect(outcome.html).toMatch(/<form/i);
    expect(outcome.html).toMatch(/declin/i);
    const res = await readLink(link.linkId);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Completed');
    expect(res.body.body.link.status).toBe('READY');
    expect(res.body.body.payments).toHaveLength(1);
    expect(res.body.body.payments[0].result).toBe(-4);
    expect(res.body.body.payments[0].description).toBe('Declined');
    expect(res.body.body.payments[0].header.requestCode).toMatch(REQUEST_CODE);
    // A later success on the same link is still possible.
    const back = await customerReturns(link.redirect.url);
    expect(back.searchParams.get('id')).toMatch(UUID);
    const paid = await readLink(link.linkId);
    expect(paid.body.body.link.status).toBe('PAID');
    expect(paid.body.body.payments.map((p: any) => p.result)).toEqual([-4, 0]);
  });

  it('ends DECLINED after three failed attempts, the last one redirecting with linkId and id', async () => {
    const { link } = await createLink(sb);
    expect((await customerSubmits(link.redirect.url, { number: '4000000000000002' })).kind).toBe('page');
    expect((await customerSubmits(link.redirect.url, { number: '4000000000009995' })).kind).toBe('page');
    const back = await customerReturns(link.redirect.url, { number: '4000000000000002' });
    expect(back.searchParams.get('linkId')).toBe(link.linkId);
    expect(back.searchParams.get('id')).toMatch(UUID);
    const res = await readLink(link.linkId);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Completed');
    expect(res.body.body.link.status).toBe('DECLINED');
    expect(res.body.body.payments).toHaveLength(3);
    expect(res.body.body.payments.every((p: any) => p.result === -4)).toBe(true);
  });

  it('ends DECLINEDBYCUSTOMER after the decline button, redirecting with linkId and no id', async () => {
    const { link } = await createLink(sb);
    const back = await customerReturns(link.redirect.url, { button: /decline/i });
    expect(back.searchParams.get('linkId')).toBe(link.linkId);
    expect(back.searchParams.has('id')).toBe(false);
    const res = await readLink(link.linkId);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Completed');
    expect(Array.isArray(res.body.body.payments)).toBe(true);
    expect(res.body.body.transaction.amount).toBe(12.5);
    expect(res.body.body.link.status).toBe('DECLINEDBYCUSTOMER');
  });

  it('is PENDING while a 3-D Secure challenge is open, and PAID after the code 1234', async () => {
    const { link } = await createLink(sb);
    const opened = await customerSubmits(link.redirect.url, { number: '4000000000003220' });
    expect(opened.kind).toBe('page');
    const pending = await readLink(link.linkId);
    expect(pending.body.body.link.status).toBe('PENDING');
    const { link: other } = await createLink(sb);
    const back = await customerReturns(other.redirect.url, { number: '4000000000003220', challengeCode: '1234' });
    expect(back.searchParams.get('id')).toMatch(UUID);
    const paid = await readLink(other.linkId);
    expect(paid.body.body.link.status).toBe('PAID');
    expect(paid.body.body.payments.at(-1).result).toBe(0);
  });

  it('records -10 for a wrong 3-D Secure code', async () => {
    const { link } = await createLink(sb);
    await customerSubmits(link.redirect.url, { number: '4000000000003220', challengeCode: '0000' });
    const res = await readLink(link.linkId);
    expect(res.body.body.payments.some((p: any) => p.result === -10)).toBe(true);
    expect(res.body.body.link.status).not.toBe('PAID');
  });
});

describe('cancelling a link (docs/hosted-pages.md, "Lifecycle on submission")', () => {
  it('refuses a hosted-form submission on a cancelled link and records no payment', async () => {
    const { link } = await createLink(sb);
    const token = await formTokenOf(link.redirect.url);
    await sb.post(`/gateway/v3/paymentlinks/${link.linkId}/cancel`, { header: { businessId: 'conf-biz' } });
    expect(await postCardWithToken(link.redirect.url, token)).toBeGreaterThanOrEqual(400);
    const read = await readLink(link.linkId);
    expect(read.body.body.link.status).toBe('CANCELLED');
    expect(read.body.body.payments ?? []).toHaveLength(0);
  });
});
