import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { REQUEST_CODE, card, checkoutBody, createCheckout, createLink, customerReturns, expectError, linkBody, paymentBody } from './client.js';

const open = useSandbox();
const locked = useSandbox({
  credentials: [
    { username: 'merchant', password: 's3cret', businessIds: ['shop-1', 'shop-2'] },
    { username: 'colon', password: 'pa:ss:word', businessIds: ['shop-3'] },
  ],
});

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

function expectNotFound(res: { status: number; body: any; text: string }, leaked: string[] = []) {
  expect(res.status, res.text).toBe(404);
  expect(res.body.result).toBeLessThan(0);
  expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
  expect(res.body.body.error).toBeTypeOf('object');
  for (const value of leaked) expect(res.text).not.toContain(value);
}

describe('cross-business isolation (docs/api.md, "Authentication and isolation")', () => {
  it('answers 404 (1404) for a link of another business, by id and by trackingCode, without its data', async () => {
    const { link, transaction } = await createLink(open, { businessId: 'biz-a', transaction: { amount: 77.77 } });
    const byId = await open.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=biz-b`);
    expectNotFound(byId, ['77.77', transaction.trackingCode, 'merchant.example']);
    expect(byId.body.body.error.code).toBe(1404);
    expect(byId.body.body).not.toHaveProperty('link');
    const byCode = await open.get(`/gateway/v3/paymentlinks?businessId=biz-b&trackingCode=${transaction.trackingCode}`);
    expect(byCode.status).toBe(404);
    expect(byCode.text).not.toContain(link.linkId);
  });

  it('answers 404 for a checkout of another business, by id (paid or not) and by trackingCode', async () => {
    const { checkout, transaction } = await createCheckout(open, { businessId: 'biz-a' });
    const unpaid = await open.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=biz-b`);
    expectNotFound(unpaid);
    expect(unpaid.body.body).not.toHaveProperty('checkout');
    const byCode = await open.get(`/gateway/v3/checkouts?businessId=biz-b&trackingCode=${encodeURIComponent(transaction.trackingCode)}`);
    expect(byCode.status).toBe(404);
    await customerReturns(checkout.redirect.url);
    expectNotFound(await open.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=biz-b`), ['411111']);
  });

  it('answers a bare 404 for a payment of another business, exactly as for an unknown id', async () => {
    const payment = await open.post('/gateway/v3/payments', paymentBody({ businessId: 'biz-a', card: card('4111111111111111') }));
    const res = await open.get(`/gateway/v3/payments/${payment.body.body.id}?businessId=biz-b`);
    expect([res.status, res.text]).toEqual([404, '']);
  });

  it('lists no payment of another business by trackingCode', async () => {
    const payment = await open.post('/gateway/v3/payments', paymentBody({ businessId: 'biz-a' }));
    const res = await open.get(`/gateway/v3/payments?businessId=biz-b&trackingCode=${payment.body.body.trackingCode}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('treats the businessId verbatim: another letter case is another business', async () => {
    const { link } = await createLink(open, { businessId: 'Biz-Case' });
    expect((await open.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=biz-case`)).status).toBe(404);
    expect((await open.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=Biz-Case`)).status).toBe(200);
  });
});

describe('HTTP Basic auth when credentials are configured (docs/api.md, "Authentication and isolation")', () => {
  it('accepts any or no credentials by default', async () => {
    const none = await open.post('/Gateway/v3/Paymentlinks', linkBody());
    expect(none.status).toBe(200);
    const any = await open.post('/Gateway/v3/Paymentlinks', linkBody(), { headers: basic('who', 'ever') });
    expect(any.status).toBe(200);
    const bearer = await open.post('/Gateway/v3/Paymentlinks', linkBody(), { headers: { authorization: 'Bearer whatever' } });
    expect(bearer.status).toBe(200);
  });

  it('answers 401 (-6 Security error, no detail) with a Basic challenge without credentials', async () => {
    const res = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-1' }));
    expectError(res, { result: -6, status: 401, message: 'Security error.' });
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    const get = await locked.get('/gateway/v3/paymentlinks/00000000-0000-4000-8000-000000000000?businessId=shop-1');
    expect(get.status).toBe(401);
  });

  it.each([
    ['a wrong password', 'merchant', 'wrong'],
    ['an unknown user', 'intruder', 's3cret'],
    ['a password prefix', 'merchant', 's3cre'],
  ])('answers 401 (-6) for %s, on POST and GET', async (_name, user, password) => {
    expectError(await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-1' }), { headers: basic(user, password) }), {
      result: -6,
      status: 401,
    });
    const get = await locked.get('/gateway/v3/paymentlinks/x?businessId=shop-1', { headers: basic(user, password) });
    expect(get.status).toBe(401);
    expect(get.body.result).toBe(-6);
  });

  it('gives no detail on failed authentication: a wrong password and an unknown user get the same answer', async () => {
    const wrongPassword = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-1' }), { headers: basic('merchant', 'wrong') });
    const unknownUser = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-1' }), { headers: basic('intruder', 's3cret') });
    expect(unknownUser.body.body.error).toEqual(wrongPassword.body.body.error);
    expect(wrongPassword.text).not.toMatch(/password|intruder/i);
  });

  it('answers 403 for a businessId the credentials do not own', async () => {
    const post = await locked.post('/Gateway/v3/Checkouts', checkoutBody({ businessId: 'shop-9' }), { headers: basic('merchant', 's3cret') });
    expectError(post, { result: -6, status: 403, message: 'Security error.' });
    const get = await locked.get('/gateway/v3/payments?businessId=shop-9&trackingCode=x', { headers: basic('merchant', 's3cret') });
    expect(get.status).toBe(403);
  });

  it('answers a malformed or empty Authorization header with 401 on POST and GET, never a 500', async () => {
    for (const authorization of ['Basic !!!not-base64', 'Basic', 'Bearer abc', `Basic ${Buffer.from('no-colon').toString('base64')}`, '']) {
      const res = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-1' }), { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body.result).toBe(-6);
      const get = await locked.get('/gateway/v3/paymentlinks/x?businessId=shop-1', { headers: { authorization } });
      expect(get.status, authorization).toBe(401);
      expect(get.body.result).toBe(-6);
    }
  });

  it('splits user and password at the first colon, so a password may contain colons', async () => {
    const res = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-3' }), { headers: basic('colon', 'pa:ss:word') });
    expect(res.status, res.text).toBe(200);
  });

  it("does not let one user create, read or cancel in another user's businesses (403), and the link stays READY", async () => {
    const res = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-1' }), { headers: basic('colon', 'pa:ss:word') });
    expectError(res, { result: -6, status: 403 });
    const created = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-3' }), { headers: basic('colon', 'pa:ss:word') });
    const linkId = created.body.body.link.linkId;
    const get = await locked.get(`/gateway/v3/paymentlinks/${linkId}?businessId=shop-3`, { headers: basic('merchant', 's3cret') });
    expect(get.status).toBe(403);
    const cancel = await locked.post(
      `/gateway/v3/paymentlinks/${linkId}/cancel`,
      { header: { businessId: 'shop-3' } },
      { headers: basic('merchant', 's3cret') },
    );
    expect(cancel.status).toBe(403);
    const still = await locked.get(`/gateway/v3/paymentlinks/${linkId}?businessId=shop-3`, { headers: basic('colon', 'pa:ss:word') });
    expect(still.body.body.link.status).toBe('READY');
  });

  it('serves every business the credentials own', async () => {
    for (const businessId of ['shop-1', 'shop-2']) {
      const created = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId }), { headers: basic('merchant', 's3cret') });
      expect(created.status, created.text).toBe(200);
      const read = await locked.get(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=${businessId}`, {
        headers: basic('merchant', 's3cret'),
      });
      expect(read.status).toBe(200);
      expect(read.body.body.link.linkId).toBe(created.body.body.link.linkId);
      expect(read.body.body.link.status).toBe('READY');
    }
  });

  it('leaves the hosted page usable by the customer without credentials', async () => {
    const created = await locked.post('/Gateway/v3/Paymentlinks', linkBody({ businessId: 'shop-1' }), { headers: basic('merchant', 's3cret') });
    const back = await customerReturns(created.body.body.link.redirect.url);
    expect(back.searchParams.get('linkId')).toBe(created.body.body.link.linkId);
  });
});
