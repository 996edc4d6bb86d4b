import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { card, createCheckout, createLink, customerReturns, customerSubmits, parseForms, paymentBody, uniqueCode } from './client.js';

const sb = useSandbox();
const publicSandbox = useSandbox({ publicUrl: 'https://paylink-conformance.example', adminToken: 'conformance-admin-token' });

const CARD_FIELDS = { cardNumber: '4111111111111111', expiryMonth: '12', expiryYear: '2035', cvv: '123', holderName: 'Ada Lovelace', action: 'pay' };

/** Opens the page in a second "tab" and keeps its form token, to submit after the resource changed. */
async function secondTab(pageUrl: string): Promise<(fields?: Record<string, string>) => Promise<{ status: number; html: string }>> {
  const html = await (await fetch(pageUrl)).text();
  const form = parseForms(html)[0]!;
  const hidden = Object.fromEntries(form.inputs.filter((input) => input.type === 'hidden').map((input) => [input.name, input.value]));
  return async (fields = CARD_FIELDS) => {
    const res = await fetch(new URL(form.action, pageUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hidden, ...fields }).toString(),
    });
    return { status: res.status, html: await res.text() };
  };
}

describe('a paid, declined or expired link or checkout cannot be paid again (docs/hosted-pages.md, "Lifecycle on submission")', () => {
  it('refuses a submission on a DECLINED link with -8', async () => {
    const { link } = await createLink(sb);
    const submitLater = await secondTab(link.redirect.url);
    for (let attempt = 0; attempt < 3; attempt += 1) await customerSubmits(link.redirect.url, { number: '4000000000000002' });
    const refused = await submitLater();
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('-8');
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(res.body.body.link.status).toBe('DECLINED');
    expect(res.body.body.payments).toHaveLength(3);
  });

  it('refuses a submission on a checkout paid meanwhile with -8', async () => {
    const { checkout } = await createCheckout(sb);
    const submitLater = await secondTab(checkout.redirect.url);
    await customerReturns(checkout.redirect.url);
    const refused = await submitLater();
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('-8');
  });

  it('refuses a submission on a cancelled link with -8', async () => {
    const { link } = await createLink(sb);
    const submitLater = await secondTab(link.redirect.url);
    await sb.post(`/gateway/v3/paymentlinks/${link.linkId}/cancel`, { header: { businessId: 'conf-biz' } });
    const refused = await submitLater();
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('-8');
  });

  it('fails a retry card on the first attempt for a checkout and approves the next', async () => {
    const { checkout } = await createCheckout(sb);
    expect((await customerSubmits(checkout.redirect.url, { number: '4000000000000101' })).kind).toBe('page');
    const back = await customerReturns(checkout.redirect.url, { number: '4000000000000101' });
    expect(back.searchParams.get('checkoutId')).toBe(checkout.checkoutId);
    const res = await sb.get(`/Gateway/v3/Checkouts/${checkout.checkoutId}?businessId=conf-biz`);
    expect(res.body.result).toBe(0);
    expect(res.body.body.payments.map((p: any) => p.result)).toEqual([-3, 0]);
  });
});

describe('merchant and customer values are HTML-escaped on the hosted pages (house rules)', () => {
  const EVIL = '<img src=x onerror="alert(1)">';

  it('escapes the trackingCode and businessId on the link page', async () => {
    const { link } = await createLink(sb, { businessId: `biz${EVIL}`, transaction: { trackingCode: `${uniqueCode('x')}${EVIL}` } });
    const html = await (await fetch(link.redirect.url)).text();
    expect(html).not.toContain('<img src=x');
  });

  it('escapes a returnUrl with quotes and angle brackets on the terminal page', async () => {
    const { link } = await createLink(sb, { link: { returnUrl: 'https://merchant.example/r?q="><script>alert(1)</script>' } });
    const submitLater = await secondTab(link.redirect.url);
    await customerReturns(link.redirect.url);
    const refused = await submitLater();
    expect(refused.html).not.toContain('<script>alert(1)</script>');
    expect(refused.html).not.toContain('"><script>');
  });
});

describe('iDEAL payments (docs/api.md, "Redirect payments")', () => {
  it('refuses iDEAL in another currency than EUR with -1', async () => {
    const res = await sb.post(
      '/gateway/v3/payments',
      paymentBody({ card: null, transaction: { currencyCode: 'USD', brandId: 3010 }, bank: { countryCode: 'NL', issuerId: 'INGBNL2A' } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(-1);
  });
});

describe('sandbox-only endpoints (docs/api.md, "Endpoints", Authentication, Card data)', () => {
  it('masks card numbers and CVVs in the request log', async () => {
    const trackingCode = uniqueCode('log');
    await sb.post('/gateway/v3/payments', paymentBody({ transaction: { trackingCode }, card: card('5105105105105100', { cvv: '987' }) }));
    const log = await sb.get('/__sandbox/requests');
    expect(log.status).toBe(200);
    expect(log.text).toContain(trackingCode);
    expect(log.text).not.toContain('5105105105105100');
    expect(log.text).not.toMatch(/"cvv":\s*"987"/);
  });

  it('masks the card fields of a hosted-form submission in the request log', async () => {
    const { link } = await createLink(sb, { link: { brandIds: [1040] } });
    await customerReturns(link.redirect.url, { number: '6011111111111117', cvv: '741' });
    const log = await sb.get('/__sandbox/requests');
    const submission = (log.body.body.requests as any[]).find((entry) => entry.method === 'POST' && String(entry.path).includes(link.linkId));
    expect(submission, 'the hosted-form POST is in the log').toBeDefined();
    expect(log.text).not.toContain('6011111111111117');
    expect(log.text).not.toMatch(/cvv"?\s*[:=]\s*"?741/);
  });

  it('is open on loopback without a token', async () => {
    expect((await sb.get('/__sandbox/clock')).status).toBe(200);
  });

  it('requires the admin token for /__sandbox/ and the dashboard when the sandbox has a public URL', async () => {
    const without = await publicSandbox.get('/__sandbox/clock');
    expect([401, 403]).toContain(without.status);
    const wrong = await publicSandbox.get('/__sandbox/clock', { headers: { 'x-paylink-admin-token': 'nope' } });
    expect([401, 403]).toContain(wrong.status);
    const right = await publicSandbox.get('/__sandbox/clock', { headers: { 'x-paylink-admin-token': 'conformance-admin-token' } });
    expect(right.status).toBe(200);
    const dashboard = await fetch(`${publicSandbox.url}/`);
    await dashboard.text();
    expect([401, 403]).toContain(dashboard.status);
  });

  it('keeps the API open (no admin token) when the sandbox has a public URL', async () => {
    const created = await publicSandbox.post('/Gateway/v3/Paymentlinks', {
      header: { businessId: 'conf-biz' },
      body: {
        transaction: { amount: 1, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode('pub') },
        link: { brandIds: [1010], returnUrl: 'https://merchant.example/r' },
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.body.link.redirect.url.startsWith('https://paylink-conformance.example/gateway/v3/web/paymentlinks/')).toBe(true);
  });
});

describe('browser library scripts (docs/library.md, "The iframe protocol")', () => {
  it.each(['/paymentlink/0.1.0/paymentlink-library.js', '/checkout/0.1.0/checkout-library.js'])('serves %s as ES5 syntax', async (path) => {
    const res = await fetch(`${sb.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const source = await res.text();
    expect(() => parse(source, { ecmaVersion: 5 })).not.toThrow();
  });
});
