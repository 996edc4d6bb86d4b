/** Credential details beyond conformance/auth-isolation.test.ts: order of checks, scheme case, "*", same-credential isolation. */
import { describe, expect, it } from 'vitest';
import { linkRequest, uniqueCode, useSandbox, type TestSandbox } from '../helpers/sandbox.js';

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

describe('credentials on (HTTP Basic)', () => {
  it('checks credentials before validating the body', async () => {
    const res = await guarded.post('/gateway/v3/paymentlinks', { nonsense: true });
    expect(res.status).toBe(401);
  });

  it('accepts the scheme name in any case', async () => {
    const headers = { authorization: MERCHANT.authorization.replace('Basic', 'basic') };
    await createLink(guarded, 'biz-1', headers);
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
