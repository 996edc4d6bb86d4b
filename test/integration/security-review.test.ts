/**
 * Findings of the security and correctness review (T10), each pinned by a test that failed before its fix:
 * inputs that used to answer 500, card data echoed in error messages, admin endpoints reachable without the
 * token or from another site.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { chooseCard } from '../../src/cli/customer.js';
import { resolveCard } from '../../src/cli/commands/payment.js';
import { Ui } from '../../src/cli/ui.js';

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

  it('refuses a cross-site POST to the merchant API (a web page posting a form to the local sandbox) and keeps server calls working', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const linkId = link.body.body.link.linkId as string;
    const body = JSON.stringify({ header: { businessId: 'biz-1' } });
    const cancel = await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, body, { headers: { ...CROSS_SITE, 'content-type': 'text/plain' } });
    expect(cancel.status).toBe(403);
    expect(cancel.body.result).toBe(-6);
    expect((await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`)).body.body.link.status).toBe('READY');
    // Another origin on this machine is another origin all the same (issue 16, item 6).
    const local = await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, body, {
      headers: { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' },
    });
    expect(local.status).toBe(403);
    const server = await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, body);
    expect(server.status).toBe(200);
    expect(server.body.body.link.status).toBe('CANCELLED');
  });

  it('still accepts admin POSTs from scripts and from the sandbox own origin', async () => {
    expect((await sb.post('/__sandbox/clock', { advance: '1m' })).status).toBe(200);
    expect((await sb.post('/__sandbox/clock', { reset: true }, { headers: { origin: sb.url, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
  });
});

describe('admin endpoints reached under another host name (DNS rebinding)', () => {
  const sb = useSandbox();

  /** A request as a browser sends it after a site's name was rebound to 127.0.0.1: its own Host header. */
  function withHost(path: string, host: string, method = 'GET'): Promise<number> {
    const url = new URL(sb.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path, method, headers: { host } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('refuses /__sandbox/ and the dashboard for a Host that is not a loopback name when no token is set', async () => {
    // 421 before any route runs (http/guards.ts checkHost), as for every other path.
    expect(await withHost('/__sandbox/requests', 'evil.example')).toBe(421);
    expect(await withHost('/__sandbox/requests', 'evil.example:8417')).toBe(421);
    expect(await withHost('/__sandbox/reset', 'rebound.evil.example', 'POST')).toBe(421);
    expect(await withHost('/', 'evil.example')).toBe(421);
    for (const host of ['localhost:8417', '127.0.0.1:8417', '[::1]:8417', 'localhost']) {
      expect(await withHost('/__sandbox/health', host), host).toBe(200);
    }
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

  it('trades only the real admin token for the dashboard cookie, whatever else authenticates the request', async () => {
    const bearer = { authorization: 'Bearer review-token-7' };
    for (const bad of ['a%0d%0ab', '%E2%82%AC', 'x%3B%20Domain%3Devil.example']) {
      const res = await fetch(`${guarded.url}/?token=${bad}`, { headers: bearer, redirect: 'manual' });
      expect(res.status, bad).toBe(401);
      expect(res.headers.get('set-cookie'), bad).toBeNull();
    }
    const good = await fetch(`${guarded.url}/__sandbox/dashboard/links?token=review-token-7&page=1`, { redirect: 'manual' });
    expect(good.status).toBe(303);
    expect(good.headers.get('location')).toBe('/__sandbox/dashboard/links?page=1');
    const cookie = good.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^paylink_admin=review-token-7;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
  });

  it('drops the token from a dashboard address that starts with // without redirecting to another host', async () => {
    const res = await fetch(`${guarded.url}//__sandbox/dashboard/links?token=review-token-7`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/__sandbox/dashboard/links');
  });

  it('keeps the admin token out of the request log when it came as a ?token= parameter', async () => {
    const moved = await guarded.post('/__sandbox/clock?token=review-token-7', { advance: '1m' });
    expect(moved.status).toBe(200);
    await guarded.post('/__sandbox/clock?token=review-token-7', { reset: true });
    const log = await guarded.get('/__sandbox/requests?path=/__sandbox/clock', { headers: { authorization: 'Bearer review-token-7' } });
    expect(log.body.body.requests.length).toBeGreaterThan(0);
    expect(log.text).not.toContain('review-token-7');
  });

  const publicHttps = useSandbox({ adminToken: 'tls-token', publicUrl: 'https://tunnel.example' });

  it('marks the dashboard cookie Secure when the sandbox is served over https', async () => {
    const res = await fetch(`${publicHttps.url}/?token=tls-token`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toContain('; Secure');
    const plain = await fetch(`${guarded.url}/?token=review-token-7`, { redirect: 'manual' });
    expect(plain.headers.get('set-cookie')).not.toContain('Secure');
  });

  const oddToken = useSandbox({ adminToken: 'tok;en =1' });

  it('makes a working dashboard cookie of an admin token with characters a cookie cannot hold', async () => {
    const trade = await fetch(`${oddToken.url}/?token=${encodeURIComponent('tok;en =1')}`, { redirect: 'manual' });
    expect(trade.status).toBe(303);
    const cookie = (trade.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toBe('paylink_admin=tok%3Ben%20%3D1');
    expect((await fetch(`${oddToken.url}/`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${oddToken.url}/`, { headers: { cookie: 'paylink_admin=tok' } })).status).toBe(401);
  });
});

describe('dashboard redirects', () => {
  const sb = useSandbox();

  it('sends a clock form with a back address that is not a plain local path to the overview, never failing', async () => {
    const post = (back: string) =>
      fetch(`${sb.url}/__sandbox/dashboard/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ back, advance: '1s' }).toString(),
        redirect: 'manual',
      });
    for (const back of ['/\u20ac', '/caf\u00e9', '//evil.example', '/\\evil.example', 'https://evil.example/']) {
      const res = await post(back);
      expect(res.status, back).toBe(303);
      expect(res.headers.get('location'), back).toBe('/?done=clock');
    }
    const local = await post('/__sandbox/dashboard/links?page=2');
    expect(local.headers.get('location')).toBe('/__sandbox/dashboard/links?page=2&done=clock');
    await sb.post('/__sandbox/clock', { reset: true });
  });
});

describe('card data in error messages', () => {
  const sb = useSandbox();

  it('does not echo a malformed JSON body (CVV, card digits) in the error message or the request log', async () => {
    const bodies = [
      '{"action":"payment","body":{"card":{"number":"4111111111111111","cvv":"987","holderName":x}}}',
      '{"card":{"cvv":"987","a":x}}',
      'cardNumber=4111111111111111&cvv=987',
    ];
    for (const text of bodies) {
      const res = await sb.post('/gateway/v3/payments', text);
      expect(res.status).toBe(400);
      expect(res.body.body.error.code).toBe(1005);
      const message = res.body.body.error.message as string;
      expect(message).toContain('Malformed JSON');
      expect(message).not.toContain('987');
      expect(message).not.toMatch(/4111|1111/);
    }
    const log = await sb.get('/__sandbox/requests?path=/gateway/v3/payments');
    // Not bare digits: timestamps and request codes are full of them.
    expect(log.text).not.toMatch(/cvv|cardNumber/i);
    expect(log.text).not.toContain('4111111111');
  });

  it('never prints a --card value the CLI refuses', async () => {
    const typo = '4111 1111 1111 111x';
    expect(() => chooseCard({ card: typo }, [1010])).toThrow(/--card/);
    expect(() => chooseCard({ card: typo }, [1010])).not.toThrow(/4111|1111/);
    const ui = new Ui({ stdout: process.stdout, stderr: process.stderr }, { interactive: false, env: {} });
    await expect(resolveCard({ card: typo }, ui)).rejects.toThrow(/--card/);
    await expect(resolveCard({ card: typo }, ui)).rejects.not.toThrow(/4111|1111/);
  });
});

describe('lookups by name', () => {
  const sb = useSandbox();

  it('answers 404 for hosted-page asset names that are Object.prototype members', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await sb.get(`/gateway/v3/web/assets/${name}`);
      expect(res.status, name).toBe(404);
    }
    const css = await sb.get('/gateway/v3/web/assets/hosted.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
  });
});

describe('deeply nested input', () => {
  const sb = useSandbox();

  it('refuses a token customer nested too deeply with 400 instead of overflowing the stack on save', async () => {
    const tokenBody = (depth: number) =>
      `{"header":{"businessId":"biz-1"},"body":{"brandId":1010,"card":{"holderName":"A","number":"4111111111111111","expiryMonth":"12","expiryYear":"2039"},"customer":{"x":${'['.repeat(depth) + ']'.repeat(depth)}}}}`;
    for (const depth of [40, 5000]) {
      const res = await sb.post('/gateway/v3/tokens', tokenBody(depth));
      expect(res.status, String(depth)).toBe(400);
    }
    expect((await sb.post('/gateway/v3/tokens', tokenBody(40))).body.body.error.message).toContain('body.customer');
    const plain = await sb.post('/gateway/v3/tokens', {
      header: { businessId: 'biz-1' },
      body: {
        brandId: 1010,
        card: { holderName: 'A', number: '4111111111111111', expiryMonth: '12', expiryYear: '2039' },
        customer: { email: 'a@b.example', address: { lines: ['1 Road'] } },
      },
    });
    expect(plain.status).toBe(200);
  });

  it('refuses a JSON body nested thousands of levels deep, so it cannot break the request log and dashboard', async () => {
    const deep = '['.repeat(8000) + ']'.repeat(8000);
    for (const key of ['x', 'number']) {
      const res = await sb.post('/gateway/v3/paymentlinks', `{"header":{"businessId":"deep-biz"},"${key}":${deep}}`);
      expect(res.status).toBe(400);
      expect(res.body.body.error.code).toBe(1005);
      expect(res.body.body.error.message).toContain('nested');
    }
    const log = await sb.get('/__sandbox/requests?limit=10');
    expect(log.status).toBe(200);
    expect((await fetch(`${sb.url}/__sandbox/dashboard/requests`)).status).toBe(200);
    expect((await fetch(`${sb.url}/`)).status).toBe(200);
    // Ordinary nesting still reaches validation.
    const nested = await sb.post('/gateway/v3/paymentlinks', { header: { businessId: 'deep-biz' }, extra: [[[[{ a: [1] }]]]] });
    expect(nested.body.body.error.code).not.toBe(1005);
  });
});

describe('bank page from another site', () => {
  const sb = useSandbox();

  it('refuses a cross-site POST that would approve a pending iDEAL payment, and still takes its own form', async () => {
    const created = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: 'biz-1' },
      body: {
        transaction: { amount: 10, currencyCode: 'EUR', trackingCode: `bank-${Date.now()}`, brandId: 3010 },
        bank: { countryCode: 'NL', issuerId: 'INGBNL2A' },
      },
    });
    const id = created.body.body.id as string;
    const url = created.body.body.redirect.url as string;
    const forged = await fetch(url, {
      method: 'POST',
      headers: { ...CROSS_SITE, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=approve',
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect((await sb.get(`/gateway/v3/payments/${id}?businessId=biz-1`)).body.result).toBe(2);
    const own = await fetch(url, {
      method: 'POST',
      headers: { origin: new URL(url).origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=approve',
      redirect: 'manual',
    });
    expect(own.status).toBe(303);
    expect((await sb.get(`/gateway/v3/payments/${id}?businessId=biz-1`)).body.result).toBe(0);
  });
});

describe('control characters in merchant identifiers', () => {
  const sb = useSandbox();

  it('refuses control characters in trackingCode and businessId, which the CLI would print raw to a terminal', async () => {
    const escTracking = await sb.post('/gateway/v3/paymentlinks', linkRequest({ transaction: { trackingCode: 'tc\u001b]0;pwned\u0007' } }));
    expect(escTracking.status).toBe(400);
    expect(escTracking.body.body.error.message).toContain('body.transaction.trackingCode');
    const escBusiness = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'biz\u001b[31m' }));
    expect(escBusiness.status).toBe(400);
    expect(escBusiness.body.body.error.message).toContain('header.businessId');
    const lookup = await sb.get(`/gateway/v3/payments?businessId=${encodeURIComponent('biz\u0007')}&trackingCode=x`);
    expect(lookup.status).toBe(400);
    const unicode = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'bïz-ü', transaction: { trackingCode: 'commande-é-😀' } }));
    expect(unicode.status).toBe(200);
  });
});
