import { describe, expect, it } from 'vitest';
import { linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const REQUEST_CODE = /^\d+\.[0-9a-f-]{36}$/;

async function createLink(patch: Parameters<typeof linkRequest>[0] = {}) {
  const res = await sb.post('/gateway/v3/paymentlinks', linkRequest(patch));
  expect(res.status, res.text).toBe(200);
  return res;
}

/** Runs `fn` with the sandbox clock moved forward by `ms`, then moves it back. */
async function withClockAdvanced<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const clock = sb.running.sandbox.clock;
  clock.advance(ms);
  try {
    return await fn();
  } finally {
    clock.advance(-ms);
  }
}

describe('creating a payment link (docs/api.md)', () => {
  it('answers 200, result 0 Success, with body.link {linkId, status, redirect, brandIds, expirationTime, tokenize, threeDSecure} and the echoed transaction', async () => {
    const trackingCode = uniqueCode();
    const before = Date.now();
    const res = await sb.post(
      '/Gateway/v3/Paymentlinks',
      linkRequest({
        transaction: { amount: 12.5, currencyCode: 'eur', authorizationMode: 'payment', trackingCode },
        link: { duration: 'P2D', brandIds: [1010, 1020] },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Success');
    expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
    const link = res.body.body.link;
    expect(Object.keys(link).sort()).toEqual(['brandIds', 'expirationTime', 'linkId', 'redirect', 'status', 'threeDSecure', 'tokenize']);
    expect(link.linkId).toMatch(UUID);
    expect(link.redirect).toEqual({ method: 'GET', url: `${sb.url}/gateway/v3/web/paymentlinks/${link.linkId}` });
    expect(link.brandIds).toEqual([1010, 1020]);
    expect(link.expirationTime).toMatch(ISO_Z);
    const expires = Date.parse(link.expirationTime);
    expect(expires).toBeGreaterThanOrEqual(before + 2 * 86_400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 2 * 86_400_000 + 1000);
    expect(res.body.body.transaction).toEqual({ amount: 12.5, currencyCode: 'EUR', authorizationMode: 'PAYMENT', trackingCode });
  });

  it('defaults the duration to one day and authorizationMode to PAYMENT when they are absent', async () => {
    const request = linkRequest();
    delete (request.body.link as Record<string, unknown>).duration;
    delete (request.body.transaction as Record<string, unknown>).authorizationMode;
    const res = await sb.post('/gateway/v3/paymentlinks', request);
    expect(res.status).toBe(200);
    const created = Date.parse(res.body.header.requestTimestamp);
    expect(Date.parse(res.body.body.link.expirationTime) - created).toBeGreaterThan(86_400_000 - 2000);
    expect(Date.parse(res.body.body.link.expirationTime) - created).toBeLessThanOrEqual(86_400_000 + 2000);
    expect(res.body.body.transaction.authorizationMode).toBe('PAYMENT');
  });

  it('accepts PT<n>H and PT<n>M durations and sets expirationTime from them', async () => {
    for (const [duration, ms] of [
      ['PT2H', 7_200_000],
      ['pt30m', 1_800_000],
      ['P365D', 365 * 86_400_000],
    ] as const) {
      const res = await createLink({ link: { duration } });
      const delta = Date.parse(res.body.body.link.expirationTime) - Date.parse(res.body.header.requestTimestamp);
      expect(Math.abs(delta - ms), duration).toBeLessThan(2000);
    }
  });

  it('returns AUTHORIZE upper case for authorizationMode authorize', async () => {
    const res = await createLink({ transaction: { authorizationMode: 'Authorize' } });
    expect(res.body.body.transaction.authorizationMode).toBe('AUTHORIZE');
  });

  it('creates links without a trackingCode, and omits it from the echo', async () => {
    const request = linkRequest();
    delete (request.body.transaction as Record<string, unknown>).trackingCode;
    const first = await sb.post('/gateway/v3/paymentlinks', request);
    const second = await sb.post('/gateway/v3/paymentlinks', request);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.body.transaction).not.toHaveProperty('trackingCode');
    expect(first.body.body.link.linkId).not.toBe(second.body.body.link.linkId);
  });

  it('removes duplicate brand ids and keeps their order', async () => {
    const res = await createLink({ link: { brandIds: [1020, 1010, 1020] } });
    expect(res.body.body.link.brandIds).toEqual([1020, 1010]);
  });

  it('accepts threeDSecure and tokenize on creation and returns them on retrieval', async () => {
    const res = await createLink({ link: { threeDSecure: true, tokenize: 'inquire' } });
    const read = await sb.get(`/gateway/v3/paymentlinks/${res.body.body.link.linkId}?businessId=biz-1`);
    expect(read.body.body.link.threeDSecure).toBe(true);
    expect(read.body.body.link.tokenize).toBe('INQUIRE');
  });
});

describe('reading a payment link (docs/api.md)', () => {
  it('answers result 0 Ok with body.link {linkId, status READY, redirect, brandIds, expirationTime, tokenize FALSE, threeDSecure false} and body.transaction', async () => {
    const trackingCode = uniqueCode('read');
    const created = await createLink({ transaction: { amount: 99.99, currencyCode: 'USD', trackingCode } });
    const linkId = created.body.body.link.linkId;
    const res = await sb.get(`/Gateway/v3/Paymentlinks/${linkId}?businessId=biz-1`);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Ok');
    expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
    expect(res.body.body.link).toEqual({
      linkId,
      status: 'READY',
      redirect: { method: 'GET', url: `${sb.url}/gateway/v3/web/paymentlinks/${linkId}` },
      brandIds: [1010, 1020],
      expirationTime: created.body.body.link.expirationTime,
      tokenize: 'FALSE',
      threeDSecure: false,
    });
    expect(res.body.body.transaction).toEqual(created.body.body.transaction);
    expect(res.body.body.transaction).toMatchObject({ amount: 99.99, currencyCode: 'USD', authorizationMode: 'PAYMENT', trackingCode });
    expect(res.body.body).not.toHaveProperty('payments');
  });

  it('finds a link by its trackingCode with the same shape as by id', async () => {
    const trackingCode = uniqueCode('find');
    const created = await createLink({ transaction: { trackingCode } });
    const linkId = created.body.body.link.linkId;
    const byId = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    const byCode = await sb.get(`/gateway/v3/paymentlinks?businessId=biz-1&trackingCode=${encodeURIComponent(trackingCode)}`);
    expect(byCode.status).toBe(200);
    expect(byCode.body.body).toEqual(byId.body.body);
    expect(byCode.body.body.link.linkId).toBe(linkId);
    expect(byCode.body.body.transaction.trackingCode).toBe(trackingCode);
    expect(byCode.body.result).toBe(0);
  });

  it('answers a trackingCode lookup without a match with a 404 envelope', async () => {
    const res = await sb.get(`/gateway/v3/paymentlinks?businessId=biz-1&trackingCode=${uniqueCode('none')}`);
    expect(res.status).toBe(404);
    expect(res.body.body.error.code).toBe(1404);
    expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
  });

  it('answers a lookup without trackingCode with 400, 1004', async () => {
    const res = await sb.get('/gateway/v3/paymentlinks?businessId=biz-1');
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(-1);
    expect(res.body.body.error).toEqual({
      code: 1004,
      message: 'Property not found in request: trackingCode.',
      detailedMessage: 'Property not found in request: trackingCode.',
    });
  });

  it('answers an unknown link id with a 404 envelope carrying requestCode and requestTimestamp', async () => {
    const res = await sb.get('/gateway/v3/paymentlinks/00000000-0000-4000-8000-000000000000?businessId=biz-1');
    expect(res.status).toBe(404);
    expect(res.body.result).toBeLessThan(0);
    expect(res.body.description).toBe('Not found');
    expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
    expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
    expect(res.body.body.error.code).toBe(1404);
    expect(typeof res.body.body.error.message).toBe('string');
  });

  it('takes identifiers verbatim: an upper-cased link id is not found', async () => {
    const created = await createLink();
    const res = await sb.get(`/gateway/v3/paymentlinks/${created.body.body.link.linkId.toUpperCase()}?businessId=biz-1`);
    expect(res.status).toBe(404);
  });

  it('matches fixed path segments in any letter case and tolerates a trailing slash', async () => {
    const created = await sb.post('/GATEWAY/V3/PAYMENTLINKS/', linkRequest());
    expect(created.status).toBe(200);
    const linkId = created.body.body.link.linkId;
    for (const path of [`/gateway/V3/paymentLinks/${linkId}`, `/Gateway/v3/Paymentlinks/${linkId}/`, `/gAtEwAy/v3/pAyMeNtLiNkS/${linkId}`]) {
      const res = await sb.get(`${path}?businessId=biz-1`);
      expect(res.status, path).toBe(200);
      expect(res.body.body.link.linkId).toBe(linkId);
    }
  });

  it('answers HEAD on a link like GET without a body', async () => {
    const created = await createLink();
    const res = await fetch(`${sb.url}/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=biz-1`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('answers a wrong method on a known path with 405 and an Allow header', async () => {
    const created = await createLink();
    const res = await sb.post(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}`, { header: { businessId: 'biz-1' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body.result).toBe(-1);
    expect(res.body.body.error.code).toBe(1405);
  });
});

describe('cancelling a payment link', () => {
  it('cancels a READY link: the answer and later reads show status CANCELLED', async () => {
    const created = await createLink();
    const linkId = created.body.body.link.linkId;
    const res = await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-1' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.body.link.status).toBe('CANCELLED');
    const read = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(read.body.body.link.status).toBe('CANCELLED');
  });

  it('shows the new status to a reader who read the link just before the cancel', async () => {
    const created = await createLink();
    const linkId = created.body.body.link.linkId;
    for (let i = 0; i < 3; i++) expect((await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`)).body.body.link.status).toBe('READY');
    await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-1' } });
    const after = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(after.body.body.link.status).toBe('CANCELLED');
    expect(after.body.result).toBe(0);
  });

  it('accepts the businessId in the query for a bodiless cancel', async () => {
    const created = await createLink();
    const linkId = created.body.body.link.linkId;
    const res = await requestWithoutBody(`/Gateway/v3/PaymentLinks/${linkId}/Cancel?businessId=biz-1`);
    expect(res.status).toBe(200);
    expect(res.body.body.link.status).toBe('CANCELLED');
  });

  it('refuses to cancel a cancelled link with -8 and leaves it CANCELLED', async () => {
    const created = await createLink();
    const linkId = created.body.body.link.linkId;
    await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-1' } });
    const again = await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-1' } });
    expect(again.status).toBe(400);
    expect(again.body.result).toBe(-8);
    expect(again.body.description).toBe('Business rule error');
    expect(again.body.body.error.code).toBe(2003);
    expect(again.body.body.error.message).toContain('CANCELLED');
    expect(again.body.header.requestCode).toMatch(REQUEST_CODE);
  });

  it('refuses to cancel an expired link with -8', async () => {
    const created = await createLink({ link: { duration: 'PT1M' } });
    const linkId = created.body.body.link.linkId;
    const res = await withClockAdvanced(61_000, () => sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-1' } }));
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(-8);
    expect(res.body.body.error.message).toContain('EXPIRED');
  });

  it('answers a cancel of an unknown or foreign link with 404 and changes nothing', async () => {
    const created = await createLink();
    const linkId = created.body.body.link.linkId;
    const foreign = await sb.post(`/gateway/v3/paymentlinks/${linkId}/cancel`, { header: { businessId: 'biz-intruder' } });
    expect(foreign.status).toBe(404);
    const unknown = await sb.post('/gateway/v3/paymentlinks/not-a-link/cancel', { header: { businessId: 'biz-1' } });
    expect(unknown.status).toBe(404);
    const read = await sb.get(`/gateway/v3/paymentlinks/${linkId}?businessId=biz-1`);
    expect(read.body.body.link.status).toBe('READY');
  });

  it('answers a bodiless cancel without businessId with 400, never a 500', async () => {
    const created = await createLink();
    const res = await requestWithoutBody(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}/cancel`);
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(-1);
  });
});

async function requestWithoutBody(path: string) {
  const response = await fetch(sb.url + path, { method: 'POST' });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}
