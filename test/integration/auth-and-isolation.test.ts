import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, uniqueCode, useSandbox, type TestSandbox } from '../helpers/sandbox.js';

const open = useSandbox();
const guarded = useSandbox({
  credentials: [
    { username: 'merchant', password: 's3cret:with-colon', businessIds: ['biz-1', 'biz-2'] },
    { username: 'other', password: 'pw', businessIds: ['biz-3'] },
    { username: 'admin', password: 'all', businessIds: ['*'] },
  ],
});

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const MERCHANT = basic('merchant', 's3cret:with-colon');

async function createLink(sb: TestSandbox, businessId: string, headers: Record<string, string> = {}) {
  const trackingCode = uniqueCode();
  const res = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId, transaction: { trackingCode } }), { headers });
  expect(res.status, res.text).toBe(200);
  return { linkId: res.body.body.link.linkId as string, trackingCode };
}

describe('cross-business isolation', () => {
  it('answers 404 for another business reading a link by id, with no trace of its data', async () => {
    const { linkId } = await createLink(open, 'biz-a');
    const res = await open.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-b`);
    expect(res.status).toBe(404);
    expect(res.body.body.error.code).toBe(1404);
    expect(res.text).not.toContain('merchant.example');
    expect(res.body.body).not.toHaveProperty('link');
  });

  it('answers 404 for another business looking a link up by its trackingCode', async () => {
    const { trackingCode } = await createLink(open, 'biz-a');
    const res = await open.get(`/gateway/v3/paymentlinks?businessId=biz-b&trackingCode=${encodeURIComponent(trackingCode)}`);
    expect(res.status).toBe(404);
  });

  it('answers 404 for another business reading a checkout', async () => {
    const created = await open.post('/gateway/v3/checkouts', checkoutRequest({ businessId: 'biz-a' }));
    const checkoutId = created.body.body.checkout.checkoutId;
    const res = await open.get(`/gateway/v3/checkouts/${checkoutId}?businessId=biz-b`);
    expect(res.status).toBe(404);
    expect(res.body.body).not.toHaveProperty('checkout');
    const byCode = await open.get(`/gateway/v3/checkouts?businessId=biz-b&trackingCode=${encodeURIComponent(created.body.body.transaction.trackingCode)}`);
    expect(byCode.status).toBe(404);
  });

  it('treats businessId as case-sensitive', async () => {
    const { linkId } = await createLink(open, 'Biz-Case');
    expect((await open.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-case`)).status).toBe(404);
    expect((await open.get(`/gateway/v3/paymentlinks/${linkId}?businessId=Biz-Case`)).status).toBe(200);
  });
});

describe('credentials off (the default)', () => {
  it('accepts requests with no credentials and with any credentials', async () => {
    await createLink(open, 'biz-1');
    await createLink(open, 'biz-1', basic('anyone', 'anything'));
    await createLink(open, 'biz-1', { authorization: 'Bearer whatever' });
  });
});

describe('credentials on (HTTP Basic)', () => {
  it('answers a request without credentials with 401, -6 Security error, no detail, and a Basic challenge', async () => {
    const res = await guarded.post('/gateway/v3/paymentlinks', linkRequest());
    expect(res.status).toBe(401);
    expect(res.body.result).toBe(-6);
    expect(res.body.description).toBe('Security error');
    expect(res.body.body.error.message).toBe('Security error.');
    expect(res.body.header.requestCode).toMatch(/^\d+\.[0-9a-f-]{36}$/);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it.each([
    ['a wrong password', basic('merchant', 'wrong')],
    ['an unknown user', basic('nobody', 's3cret:with-colon')],
    ['a password prefix', basic('merchant', 's3cret')],
    ['another scheme', { authorization: 'Bearer s3cret' }],
    ['garbage base64', { authorization: 'Basic !!!not-base64' }],
    ['no colon', { authorization: `Basic ${Buffer.from('merchant').toString('base64')}` }],
    ['an empty header', { authorization: '' }],
  ])('answers %s with 401', async (_name, headers) => {
    const res = await guarded.get('/gateway/v3/paymentlinks/x?businessId=biz-1', { headers });
    expect(res.status).toBe(401);
    expect(res.body.result).toBe(-6);
  });

  it('checks credentials before validating the body', async () => {
    const res = await guarded.post('/gateway/v3/paymentlinks', { nonsense: true });
    expect(res.status).toBe(401);
  });

  it('accepts the right credentials for each business they own, with a password holding a colon', async () => {
    const one = await createLink(guarded, 'biz-1', MERCHANT);
    await createLink(guarded, 'biz-2', MERCHANT);
    const read = await guarded.get(`/gateway/v3/paymentlinks/${one.linkId}?businessId=biz-1`, { headers: MERCHANT });
    expect(read.status).toBe(200);
    expect(read.body.body.link.linkId).toBe(one.linkId);
  });

  it('accepts the scheme name in any case', async () => {
    const headers = { authorization: MERCHANT.authorization.replace('Basic', 'basic') };
    await createLink(guarded, 'biz-1', headers);
  });

  it('answers 403 with -6 for a businessId the credentials do not own, on POST and GET', async () => {
    const post = await guarded.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'biz-3' }), { headers: MERCHANT });
    expect(post.status).toBe(403);
    expect(post.body.result).toBe(-6);
    expect(post.body.body.error.message).toBe('Security error.');
    const { linkId } = await createLink(guarded, 'biz-3', basic('other', 'pw'));
    const get = await guarded.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-3`, { headers: MERCHANT });
    expect(get.status).toBe(403);
    const cancel = await guarded.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-3' } }, { headers: MERCHANT });
    expect(cancel.status).toBe(403);
    const still = await guarded.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-3`, { headers: basic('other', 'pw') });
    expect(still.body.body.link.status).toBe('READY');
  });

  it('lets credentials owning "*" act for any business', async () => {
    await createLink(guarded, 'biz-anything', basic('admin', 'all'));
  });

  it('answers 404, not 403, for another business of the same credentials reading a foreign link', async () => {
    const { linkId } = await createLink(guarded, 'biz-1', MERCHANT);
    const res = await guarded.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-2`, { headers: MERCHANT });
    expect(res.status).toBe(404);
  });
});
