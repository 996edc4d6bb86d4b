import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

async function html(path: string, init: RequestInit = {}) {
  const res = await fetch(sb.url + path, { redirect: 'manual', ...init });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(sb.url + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('dashboard pages', () => {
  it('links an open link and checkout to the library demo page, which serves them', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'dash-demo' }));
    const linkId = link.body.body.link.linkId as string;
    const checkout = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: 'dash-demo' }));
    const checkoutId = checkout.body.body.checkout.checkoutId as string;
    for (const [kind, id] of [
      ['links', linkId],
      ['checkouts', checkoutId],
    ] as const) {
      const detail = await html(`/__sandbox/dashboard/${kind}/${id}`);
      expect(detail.text).toContain(`href="/__sandbox/demo/${id}"`);
      expect((await html(`/__sandbox/demo/${id}`)).status).toBe(200);
    }
  });

  it("answers the browser's favicon probe with no content instead of a 404", async () => {
    const res = await fetch(`${sb.url}/favicon.ico`);
    expect([res.status, await res.text()]).toEqual([204, '']);
    expect(res.headers.get('cache-control')).toContain('max-age');
  });

  it('lists links, checkouts, payments and tokens on the overview, escaping merchant values', async () => {
    const hostile = '<script>alert(1)</script>';
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'dash-biz', transaction: { trackingCode: hostile } }));
    const linkId = link.body.body.link.linkId as string;
    await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: 'dash-biz' }));
    const page = await html('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain(linkId);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain(hostile);
    for (const id of ['links', 'checkouts', 'payments', 'tokens', 'requests']) expect(page.text).toContain(`data-testid="${id}"`);
    const list = await html('/__sandbox/dashboard/links?businessId=dash-biz');
    expect(list.text).toContain(linkId);
    expect(list.text).toContain('page 1 of 1 (1)');
  });

  it('pays a link as the customer from its detail page and shows the attempt, the redirect and the requests', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'dash-pay' }));
    const linkId = link.body.body.link.linkId as string;
    const detail = await html(`/__sandbox/dashboard/links/${linkId}`);
    expect(detail.text).toContain('data-testid="pay-form"');
    expect(detail.text).toContain(`href="/gateway/v3/web/paymentlinks/${linkId}"`);
    const declined = await postForm(`/__sandbox/dashboard/links/${linkId}/pay`, { outcome: 'declined' });
    expect(declined.status).toBe(303);
    const paid = await postForm(`/__sandbox/dashboard/links/${linkId}/pay`, { outcome: 'approved' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/__sandbox/dashboard/links/${linkId}?done=paid&outcome=approved&state=PAID`);
    const api = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=dash-pay`);
    expect(api.body.body.link.status).toBe('PAID');
    expect(api.body.body.payments.map((p: any) => p.result)).toEqual([-4, 0]);
    const after = await html(paid.headers.get('location')!);
    expect(after.text).toContain('Paid as the customer with outcome &quot;approved&quot;: now PAID.');
    expect(after.text).toContain('data-state="PAID"');
    expect(after.text).toContain('Attempts (2)');
    expect(after.text).toContain(`https://merchant.example/return?linkId=${linkId}&amp;id=${api.body.body.payments[1].body.transaction.id}`);
    expect(after.text).toContain(`/gateway/v3/paymentlinks/${linkId}?businessId=dash-pay`);
    expect(after.text).not.toContain('data-testid="pay-form"');
  });

  it('pays through the 3-D Secure challenge and creates a new link like an old one', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'dash-3ds' }));
    const linkId = link.body.body.link.linkId as string;
    const paid = await postForm(`/__sandbox/dashboard/links/${linkId}/pay`, { outcome: '3ds' });
    expect(paid.headers.get('location')).toContain('state=PAID');
    const copy = await postForm(`/__sandbox/dashboard/links/${linkId}/copy`, {});
    expect(copy.status).toBe(303);
    const newId = /\/links\/([0-9a-f-]{36})\?done=copied$/.exec(copy.headers.get('location') ?? '')?.[1];
    expect(newId).toBeDefined();
    const fresh = await sb.get(`/gateway/v3/paymentlinks/${newId}?businessId=dash-3ds`);
    expect(fresh.body.body.link.status).toBe('READY');
    expect(fresh.body.body.transaction.amount).toBe(12.5);
  });

  it('pays a checkout with the decline button and moves the clock from the dashboard', async () => {
    const checkout = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: 'dash-co' }));
    const id = checkout.body.body.checkout.checkoutId as string;
    const declined = await postForm(`/__sandbox/dashboard/checkouts/${id}/pay`, { outcome: 'decline-button' });
    expect(declined.headers.get('location')).toContain('state=DECLINEDBYCUSTOMER');
    const other = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: 'dash-co' }));
    const otherId = other.body.body.checkout.checkoutId as string;
    const moved = await postForm('/__sandbox/dashboard/clock', { advance: '31m', back: `/__sandbox/dashboard/checkouts/${otherId}` });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(`/__sandbox/dashboard/checkouts/${otherId}?done=clock`);
    const detail = await html(`/__sandbox/dashboard/checkouts/${otherId}`);
    expect(detail.text).toContain('data-state="TIMEOUT"');
    const reset = await postForm('/__sandbox/dashboard/clock', { reset: '1', back: '//evil.example/' });
    expect(reset.headers.get('location')).toBe('/?done=clock');
  });

  it('refuses cross-site form posts and an unknown outcome', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'dash-csrf' }));
    const linkId = link.body.body.link.linkId as string;
    const cross = await postForm(`/__sandbox/dashboard/links/${linkId}/pay`, { outcome: 'approved' }, { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    const bad = await postForm(`/__sandbox/dashboard/links/${linkId}/pay`, { outcome: 'free-money' });
    expect(bad.status).toBe(400);
    expect((await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=dash-csrf`)).body.body.link.status).toBe('READY');
    expect((await html('/__sandbox/dashboard/links/not-a-link')).status).toBe(404);
  });

  it('shows a bank payment with its bank page, a token, and a payment with its captures', async () => {
    const ideal = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: 'dash-pay-2' },
      body: {
        transaction: { amount: 7, currencyCode: 'EUR', trackingCode: `ideal-${Date.now()}`, brandId: 3010 },
        bank: { countryCode: 'NL', issuerId: 'INGBNL2A' },
      },
    });
    const idealId = ideal.body.body.transaction.id as string;
    const idealPage = await html(`/__sandbox/dashboard/payments/${idealId}`);
    expect(idealPage.status).toBe(200);
    expect(idealPage.text).toMatch(/data-testid="open-hosted">Open bank page/);
    expect(idealPage.text).toMatch(/href="\/[^"]*"[^>]*data-testid="open-hosted"/);

    const token = await sb.post('/gateway/v3/tokens', {
      header: { businessId: 'dash-pay-2' },
      body: { brandId: 1010, card: { holderName: 'Ada <b>', number: '4111111111111111', expiryMonth: '12', expiryYear: '2035' } },
    });
    const tokenId = token.body.body.tokenId as string;
    const tokenPage = await html(`/__sandbox/dashboard/tokens/${tokenId}`);
    expect(tokenPage.status).toBe(200);
    expect(tokenPage.text).toContain('************1111');
    expect(tokenPage.text).toContain('Ada &lt;b&gt;');
    expect(tokenPage.text).not.toContain('4111111111111111');

    const auth = await sb.post('/gateway/v3/payments', {
      action: 'authorize',
      header: { businessId: 'dash-pay-2' },
      body: {
        transaction: { amount: 20, currencyCode: 'EUR', trackingCode: `auth-${Date.now()}` },
        card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' },
      },
    });
    const authId = auth.body.body.transaction.id as string;
    await sb.post(`/gateway/v3/payments/${authId}/capture`, { header: { businessId: 'dash-pay-2' }, body: { transaction: { amount: 15 } } });
    const authPage = await html(`/__sandbox/dashboard/payments/${authId}`);
    expect(authPage.text).toContain('Captured</dt><dd>15.00 EUR');
    expect(authPage.text).toMatch(/<td data-label="action">capture<\/td><td data-label="amount">15.00 EUR<\/td>/);
    for (const table of ['payments', 'tokens']) expect((await html(`/__sandbox/dashboard/${table}?page=2`)).status).toBe(200);
  });

  it('serves the dashboard data as JSON pages, newest first, with current states', async () => {
    const res = await sb.get('/__sandbox/links?businessId=dash-pay&pageSize=5');
    expect(res.status).toBe(200);
    expect(res.body.body.items[0].status).toBe('PAID');
    expect(res.body.body).toMatchObject({ page: 1, pageSize: 5, total: 1, pages: 1 });
    expect((await sb.get('/__sandbox/tokens')).status).toBe(200);
    expect((await sb.get('/__sandbox/payments?page=0')).status).toBe(400);
  });
});

describe('dashboard behind the admin token', () => {
  const guarded = useSandbox({ adminToken: 'dash-token-42' });

  it('asks for the token, trades ?token= for an HttpOnly SameSite=Strict cookie, then serves with the cookie', async () => {
    expect((await fetch(`${guarded.url}/`, { redirect: 'manual' })).status).toBe(401);
    const traded = await fetch(`${guarded.url}/__sandbox/dashboard/links?token=dash-token-42&page=1`, { redirect: 'manual' });
    expect(traded.status).toBe(303);
    expect(traded.headers.get('location')).toBe('/__sandbox/dashboard/links?page=1');
    const cookie = traded.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^paylink_admin=dash-token-42; HttpOnly; SameSite=Strict; Path=\//);
    const page = await fetch(`${guarded.url}/__sandbox/dashboard/links?page=1`, { headers: { cookie: 'paylink_admin=dash-token-42' } });
    expect(page.status).toBe(200);
    expect((await fetch(`${guarded.url}/?token=wrong`, { redirect: 'manual' })).status).toBe(401);
    const post = await fetch(`${guarded.url}/__sandbox/dashboard/clock`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'advance=1m',
    });
    expect(post.status).toBe(401);
  });
});
