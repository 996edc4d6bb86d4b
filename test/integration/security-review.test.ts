/**
 * Findings of the security and correctness review (T10), each pinned by a test that failed before its fix:
 * inputs that used to answer 500, card data echoed in error messages, admin endpoints reachable without the
 * token or from another site.
 */
import { describe, expect, it } from 'vitest';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';

const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

describe('admin endpoints from another site (CSRF)', () => {
  const sb = useSandbox();

  it('refuses a cross-site POST to /__sandbox/reset and /__sandbox/clock and changes nothing', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const linkId = link.body.body.link.linkId as string;
    // What a form or no-cors fetch on another site sends: a simple request, text/plain, with its origin.
    const reset = await sb.post('/__sandbox/reset', '', { headers: { ...CROSS_SITE, 'content-type': 'text/plain' } });
    expect(reset.status).toBe(403);
    const clock = await sb.post('/__sandbox/clock', '{"advance":"1d"}', { headers: { ...CROSS_SITE, 'content-type': 'text/plain' } });
    expect(clock.status).toBe(403);
    const sameSite = await sb.post('/__sandbox/reset', '', { headers: { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' } });
    expect(sameSite.status).toBe(403);
    const still = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(still.status).toBe(200);
    expect((await sb.get('/__sandbox/clock')).body.body.offsetMs).toBeLessThan(60_000);
  });

  it('still accepts admin POSTs from scripts and from the sandbox own origin', async () => {
    expect((await sb.post('/__sandbox/clock', { advance: '1m' })).status).toBe(200);
    expect((await sb.post('/__sandbox/clock', { reset: true }, { headers: { origin: sb.url, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });
});

describe('admin token on every /__sandbox/ page', () => {
  const guarded = useSandbox({ adminToken: 'review-token-7' });

  it('refuses the library demo page without the admin token', async () => {
    const link = await guarded.post('/gateway/v3/paymentlinks', linkRequest());
    const linkId = link.body.body.link.linkId as string;
    const anonymous = await guarded.get(`/__sandbox/demo/${linkId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain(linkId);
    const allowed = await guarded.get(`/__sandbox/demo/${linkId}`, { headers: { authorization: 'Bearer review-token-7' } });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain(linkId);
  });
});
