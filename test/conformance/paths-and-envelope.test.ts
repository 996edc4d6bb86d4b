import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { ISO_Z, REQUEST_CODE, UUID, checkoutBody, createCheckout, createLink, expectEnvelope, expectError, linkBody, paymentBody } from './client.js';

const sb = useSandbox();

describe('paths (docs/api.md, "Endpoints")', () => {
  it.each(['/Gateway/v3/Paymentlinks', '/gateway/v3/paymentlinks', '/gateway/v3/paymentLinks', '/gateway/V3/paymentLinks', '/GATEWAY/V3/PAYMENTLINKS'])(
    'creates a payment link at %s',
    async (path) => {
      const res = await sb.post(path, linkBody());
      expect(res.status, res.text).toBe(200);
      expect(res.body.result).toBe(0);
      expect(res.body.body.link.linkId).toMatch(UUID);
    },
  );

  it.each(['/Gateway/v3/Checkouts', '/gateway/v3/checkouts', '/GATEWAY/V3/CHECKOUTS'])('creates a checkout at %s', async (path) => {
    const res = await sb.post(path, checkoutBody());
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(2);
    expect(res.body.body.checkout.checkoutId).toMatch(UUID);
  });

  it.each(['/gateway/v3/payments', '/Gateway/v3/Payments'])('creates a payment at %s', async (path) => {
    const res = await sb.post(path, paymentBody());
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(0);
  });

  it('reads a link by id at /Gateway/v3/Paymentlinks/{id} and /gateway/v3/paymentlinks/{id}', async () => {
    const { link } = await createLink(sb);
    for (const path of [`/Gateway/v3/Paymentlinks/${link.linkId}`, `/gateway/v3/paymentlinks/${link.linkId}`, `/gateway/v3/paymentLinks/${link.linkId}`]) {
      const res = await sb.get(`${path}?businessId=conf-biz`);
      expect(res.status, path).toBe(200);
      expect(res.body.body.link.linkId).toBe(link.linkId);
    }
  });

  it('reads a checkout by id in either letter case', async () => {
    const { checkout } = await createCheckout(sb);
    for (const path of [`/Gateway/v3/Checkouts/${checkout.checkoutId}`, `/gateway/v3/checkouts/${checkout.checkoutId}`]) {
      const res = await sb.get(`${path}?businessId=conf-biz`);
      expect(res.status, path).toBe(200);
      expect(res.body.result).toBe(2);
    }
  });

  it('tolerates a trailing slash on creation and retrieval paths', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks/', linkBody());
    expect(created.status, created.text).toBe(200);
    const linkId = created.body.body.link.linkId;
    const read = await sb.get(`/gateway/v3/paymentlinks/${linkId}/?businessId=conf-biz`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.body.link.linkId).toBe(linkId);
    const checkout = await sb.post('/Gateway/v3/Checkouts/', checkoutBody());
    expect(checkout.status, checkout.text).toBe(200);
    const payment = await sb.post('/gateway/v3/payments/', paymentBody());
    expect(payment.status, payment.text).toBe(200);
    const paymentRead = await sb.get(`/gateway/v3/payments/${payment.body.body.id}/?businessId=conf-biz`);
    expect(paymentRead.status, paymentRead.text).toBe(200);
  });

  it('serves the hosted pages with fixed segments in any letter case and with a trailing slash', async () => {
    const { link } = await createLink(sb);
    const { checkout } = await createCheckout(sb);
    for (const path of [
      `/Gateway/v3/Web/PaymentLinks/${link.linkId}`,
      `/gateway/v3/web/paymentlinks/${link.linkId}/`,
      `/GATEWAY/V3/WEB/CHECKOUTS/${checkout.checkoutId}`,
      `/gateway/v3/web/checkouts/${checkout.checkoutId}/`,
    ]) {
      const page = await fetch(`${sb.url}${path}`);
      const html = await page.text();
      expect(page.status, path).toBe(200);
      expect(html, path).toMatch(/name="cardNumber"/);
    }
  });

  it('takes identifiers verbatim: an upper-cased linkId is not the link', async () => {
    const { link } = await createLink(sb);
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId.toUpperCase()}?businessId=conf-biz`);
    expect(res.status).toBe(404);
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    const res = await sb.get('/gateway/v3/nothing-here?businessId=conf-biz');
    expect(res.status).toBe(404);
    expectEnvelope(res);
    expect(res.body.result).toBeLessThan(0);
    expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
    expect(res.body.body.error.code).toBeTypeOf('number');
  });

  it('serves the link and checkout libraries at /paymentlink/{version}/ and /checkout/{version}/, 404 for an unknown version', async () => {
    const link = await fetch(`${sb.url}/paymentlink/0.1.0/paymentlink-library.js`);
    expect(link.status).toBe(200);
    expect(await link.text()).toContain('PaymentLink');
    const checkout = await fetch(`${sb.url}/checkout/0.1.0/checkout-library.js`);
    expect(checkout.status).toBe(200);
    expect(await checkout.text()).toContain('Checkout');
    const unknown = await fetch(`${sb.url}/paymentlink/9.9.9/paymentlink-library.js`);
    expect(unknown.status).toBe(404);
    await unknown.text();
  });

  it('serves the dashboard page at /', async () => {
    const res = await fetch(`${sb.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    await res.text();
  });
});

describe('envelope and identifiers (docs/api.md, "The envelope")', () => {
  it('answers link creation with result 0 Success, an ISO Z requestTimestamp, and a lower-case UUID linkId', async () => {
    const res = await sb.post('/Gateway/v3/Paymentlinks', linkBody());
    expectEnvelope(res);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Success');
    expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
    expect(Math.abs(Date.parse(res.body.header.requestTimestamp) - Date.now())).toBeLessThan(60_000);
    expect(res.body.body.link.linkId).toMatch(UUID);
  });

  it('answers checkout creation with result 2 Pending and a lower-case UUID checkoutId', async () => {
    const res = await sb.post('/Gateway/v3/Checkouts', checkoutBody());
    expectEnvelope(res);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(2);
    expect(res.body.description).toBe('Pending');
    expect(res.body.body.checkout.checkoutId).toMatch(UUID);
  });

  it('answers a direct payment with result 0 Ok, a lower-case UUID id, and the trackingCode', async () => {
    const request = paymentBody();
    const res = await sb.post('/gateway/v3/payments', request);
    expectEnvelope(res);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Ok');
    expect(res.body.body.id).toMatch(UUID);
    expect(res.body.body.trackingCode).toBe((request.body.transaction as { trackingCode: string }).trackingCode);
  });

  it('puts a requestCode of digits, a dot and a UUID on an error response', async () => {
    const res = await sb.post('/Gateway/v3/Paymentlinks', linkBody({ transaction: { amount: -1 } }));
    expectError(res, { result: -1, status: 400, code: 1002, path: 'body.transaction.amount' });
    expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
  });

  it('gives every error response its own requestCode', async () => {
    const a = await sb.post('/Gateway/v3/Paymentlinks', linkBody({ transaction: { amount: -1 } }));
    const b = await sb.post('/Gateway/v3/Paymentlinks', linkBody({ transaction: { amount: -1 } }));
    expect(a.body.header.requestCode).not.toBe(b.body.header.requestCode);
  });

  it('returns authorizationMode, currencyCode and tokenize upper case whatever case was sent', async () => {
    const link = await sb.post('/Gateway/v3/Paymentlinks', linkBody({ transaction: { authorizationMode: 'Payment', currencyCode: 'eur' } }));
    expect(link.body.body.transaction.authorizationMode).toBe('PAYMENT');
    expect(link.body.body.transaction.currencyCode).toBe('EUR');
    const checkout = await sb.post(
      '/Gateway/v3/Checkouts',
      checkoutBody({ transaction: { authorizationMode: 'AuThOrIzE', currencyCode: 'usd' }, checkout: { tokenize: 'Inquire' } }),
    );
    expect(checkout.status, checkout.text).toBe(200);
    expect(checkout.body.body.transaction.authorizationMode).toBe('AUTHORIZE');
    expect(checkout.body.body.transaction.currencyCode).toBe('USD');
    expect(checkout.body.body.checkout.tokenize).toBe('INQUIRE');
    const payment = await sb.post('/gateway/v3/payments', paymentBody({ transaction: { currencyCode: 'gbp' } }));
    expect(payment.body.body.transaction.currencyCode).toBe('GBP');
  });

  it('echoes the transaction (amount, currencyCode, authorizationMode, trackingCode) on link and checkout creation', async () => {
    const request = linkBody({ transaction: { amount: 42.1 } });
    const link = await sb.post('/Gateway/v3/Paymentlinks', request);
    expect(link.body.body.transaction).toMatchObject({
      amount: 42.1,
      currencyCode: 'EUR',
      authorizationMode: 'PAYMENT',
      trackingCode: request.body.transaction.trackingCode,
    });
    const checkoutRequest = checkoutBody({ transaction: { amount: 7 } });
    const checkout = await sb.post('/Gateway/v3/Checkouts', checkoutRequest);
    expect(checkout.body.body.transaction).toMatchObject({
      amount: 7,
      currencyCode: 'EUR',
      authorizationMode: 'PAYMENT',
      trackingCode: checkoutRequest.body.transaction.trackingCode,
    });
  });

  it('gives link and checkout redirect.method GET and redirect.url at /gateway/v3/web/paymentlinks/{id} and /gateway/v3/web/checkouts/{id}', async () => {
    const { link } = await createLink(sb);
    expect(link.redirect.method).toBe('GET');
    expect(link.redirect.url).toBe(`${sb.url}/gateway/v3/web/paymentlinks/${link.linkId}`);
    const { checkout } = await createCheckout(sb);
    expect(checkout.redirect.method).toBe('GET');
    expect(checkout.redirect.url).toBe(`${sb.url}/gateway/v3/web/checkouts/${checkout.checkoutId}`);
  });

  it('serves the hosted page at redirect.url as HTML', async () => {
    const { link } = await createLink(sb);
    const page = await fetch(link.redirect.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<form/i);
  });

  it('returns brandIds and an ISO Z expirationTime on link and checkout creation', async () => {
    const { link } = await createLink(sb, { link: { brandIds: [1020, 1010] } });
    expect((link as any).brandIds).toEqual([1020, 1010]);
    expect(link.expirationTime).toMatch(ISO_Z);
    const { checkout } = await createCheckout(sb, { checkout: { brandIds: [1030] } });
    expect((checkout as any).brandIds).toEqual([1030]);
    expect(checkout.expirationTime).toMatch(ISO_Z);
    expect(checkout.tokenize).toBe('FALSE');
  });
});
