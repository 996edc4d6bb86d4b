import { afterEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { createCheckout, createLink, customerSubmits, expectError, formTokenOf, linkBody, moveClock, postCardWithToken } from './client.js';

const sb = useSandbox();
const T0 = '2030-01-01T00:00:00.000Z';

afterEach(async () => {
  await moveClock(sb, { reset: true });
});

describe('expirationTime = creation time + duration (docs/api.md, "Validation")', () => {
  it.each([
    ['P1D', '2030-01-02T00:00:00Z'],
    ['P3D', '2030-01-04T00:00:00Z'],
    ['P365D', '2031-01-01T00:00:00Z'],
    ['PT2H', '2030-01-01T02:00:00Z'],
    ['PT45M', '2030-01-01T00:45:00Z'],
  ])('sets duration %s to %s on a frozen clock', async (duration, expected) => {
    await moveClock(sb, { set: T0, freeze: true });
    const { link } = await createLink(sb, { link: { duration } });
    expect(link.expirationTime).toBe(expected);
  });

  it('defaults the duration to P1D when it is left out', async () => {
    await moveClock(sb, { set: T0, freeze: true });
    const request = linkBody();
    delete (request.body.link as Record<string, unknown>).duration;
    const res = await sb.post('/Gateway/v3/Paymentlinks', request);
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.link.expirationTime).toBe('2030-01-02T00:00:00Z');
  });

  it('measures the duration from the creation time on the running wall clock', async () => {
    const res = await sb.post('/Gateway/v3/Paymentlinks', linkBody({ link: { duration: 'PT3H' } }));
    const created = Date.parse(res.body.header.requestTimestamp);
    const expires = Date.parse(res.body.body.link.expirationTime);
    expect(Math.abs(expires - created - 3 * 3_600_000)).toBeLessThan(1_000);
  });

  it('gives a checkout an expirationTime 30 minutes after creation', async () => {
    await moveClock(sb, { set: T0, freeze: true });
    const { checkout } = await createCheckout(sb);
    expect(checkout.expirationTime).toBe('2030-01-01T00:30:00Z');
  });

  it('stamps requestTimestamp from the sandbox clock, on a success and on an error', async () => {
    await moveClock(sb, { set: T0, freeze: true });
    const res = await sb.post('/Gateway/v3/Paymentlinks', linkBody());
    expect(res.body.header.requestTimestamp).toBe('2030-01-01T00:00:00Z'); // whole seconds, as the provider answered
    const notFound = await sb.get('/gateway/v3/paymentlinks/unknown?businessId=conf-biz');
    expect(notFound.status).toBe(404);
    expect(notFound.body.header.requestTimestamp).toBe('2030-01-01T00:00:00Z');
  });
});

describe('link expiry (docs/hosted-pages.md, "Lifecycle on submission")', () => {
  it('shows EXPIRED once the clock passes expirationTime, and READY just before', async () => {
    const { link } = await createLink(sb, { link: { duration: 'PT10M' } });
    const advanced = await moveClock(sb, { advance: '9m' });
    expect(advanced.body.body.offsetMs).toBeGreaterThanOrEqual(9 * 60_000 - 1000);
    const before = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(before.body.body.link.status).toBe('READY');
    await moveClock(sb, { advance: '2m' });
    const after = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(after.status).toBe(200);
    expect(after.body.result).toBe(0);
    expect(after.body.body.link.status).toBe('EXPIRED');
    expect(after.body.body.link.expirationTime).toBe(link.expirationTime);
  });

  it('keeps PAID, DECLINEDBYCUSTOMER and CANCELLED links in their status after expirationTime passes', async () => {
    const { link: paid } = await createLink(sb, { link: { duration: 'PT5M' } });
    await customerSubmits(paid.redirect.url);
    const { link: declined } = await createLink(sb, { link: { duration: 'PT5M' } });
    await customerSubmits(declined.redirect.url, { button: /decline/i });
    const { link: cancelled } = await createLink(sb, { link: { duration: 'PT5M' } });
    await sb.post(`/gateway/v3/paymentlinks/${cancelled.linkId}/cancel`, { header: { businessId: 'conf-biz' } });
    await moveClock(sb, { advance: '10m' });
    const status = async (id: string) => (await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=conf-biz`)).body.body.link.status;
    expect(await status(paid.linkId)).toBe('PAID');
    expect(await status(declined.linkId)).toBe('DECLINEDBYCUSTOMER');
    expect(await status(cancelled.linkId)).toBe('CANCELLED');
  });

  it('refuses the hosted-form submission of an expired link and records no payment', async () => {
    const { link } = await createLink(sb, { link: { duration: 'PT1M' } });
    const token = await formTokenOf(link.redirect.url);
    await moveClock(sb, { advance: '2m' });
    const expiredPage = await fetch(link.redirect.url);
    expect(await expiredPage.text()).not.toMatch(/name="cardNumber"/);
    expect(await postCardWithToken(link.redirect.url, token)).toBeGreaterThanOrEqual(400);
    const read = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(read.body.body.link.status).toBe('EXPIRED');
    expect(read.body.body.payments ?? []).toHaveLength(0);
  });
});

describe('checkout 30-minute validity (docs/hosted-pages.md, "Lifecycle on submission")', () => {
  it('stays 2 Pending at 29 minutes and answers 4 Timeout (HTTP 200) with the checkout and an empty payments list after 30 minutes without a payment', async () => {
    const { checkout } = await createCheckout(sb);
    const advanced = await moveClock(sb, { advance: '29m' });
    expect(advanced.body.body.offsetMs).toBeGreaterThanOrEqual(29 * 60_000 - 1000);
    const pending = await sb.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=conf-biz`);
    expect(pending.body.result).toBe(2);
    expect(pending.body.description).toBe('Pending');
    await moveClock(sb, { advance: '2m' });
    const timedOut = await sb.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=conf-biz`);
    expect(timedOut.status).toBe(200);
    expect(timedOut.body.result).toBe(4);
    expect(timedOut.body.description).toBe('Timeout');
    expect(timedOut.body.body.payments).toEqual([]);
    expect(timedOut.body.body.checkout.checkoutId).toBe(checkout.checkoutId);
  });

  it('answers 4 Timeout with the failed attempts in payments[] when 30 minutes pass after a decline', async () => {
    const { checkout } = await createCheckout(sb);
    await customerSubmits(checkout.redirect.url, { number: '4000000000000002' });
    await moveClock(sb, { advance: '31m' });
    const res = await sb.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=conf-biz`);
    expect(res.body.result).toBe(4);
    expect(res.body.body.payments).toHaveLength(1);
    expect(res.body.body.payments[0].result).toBe(-4);
  });

  it('does not let the customer pay an expired checkout', async () => {
    const { checkout } = await createCheckout(sb);
    await moveClock(sb, { advance: '31m' });
    const page = await fetch(checkout.redirect.url);
    expect(await page.text()).not.toMatch(/name="cardNumber"/);
    const read = await sb.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=conf-biz`);
    expect(read.body.result).toBe(4);
  });

  it('keeps a checkout paid within 30 minutes Completed after the 30 minutes pass', async () => {
    const { checkout } = await createCheckout(sb);
    const outcome = await customerSubmits(checkout.redirect.url);
    expect(outcome.kind).toBe('returned');
    await moveClock(sb, { advance: '45m' });
    const read = await sb.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=conf-biz`);
    expect(read.body.result).toBe(0);
    expect(read.body.description).toBe('Completed');
  });
});

describe('the sandbox clock endpoint', () => {
  it('answers clock input it cannot read with an input error envelope naming the field', async () => {
    for (const advance of ['soon', 'tomorrow']) expectError(await sb.post('/__sandbox/clock', { advance }), { result: -1, status: 400, path: 'advance' });
    expectError(await sb.post('/__sandbox/clock', { set: 'yesterday' }), { result: -1, status: 400, path: 'set' });
    expect((await sb.post('/__sandbox/clock', {})).status).toBe(400);
    expect((await sb.post('/__sandbox/clock', 'advance=31m')).status).toBe(400);
  });
});
