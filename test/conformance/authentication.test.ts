/**
 * Authentication as the portal's "Security, identification and authentication" page documents it: HTTP
 * Basic on every API call (`Authorization: Basic ` + base64 of `username:password`). The sandbox keeps its
 * friendly default (no credentials needed), but the request log records whether the header came (a boolean,
 * never the credentials) and the advisor flags a business whose calls come without it.
 */
import { describe, expect, it } from 'vitest';
import { requestJson, uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
// The portal's own example: Aladdin / OpenSesame.
const PORTAL_EXAMPLE = 'Basic QWxhZGRpbjpPcGVuU2VzYW1l';

function linkBody(businessId: string) {
  return {
    header: { businessId },
    body: {
      transaction: { amount: 5, currencyCode: 'EUR', trackingCode: uniqueCode('auth') },
      link: { brandIds: [1010], returnUrl: 'https://shop.example/r' },
    },
  };
}

/** An API call with exactly the headers given (no helper default). */
function call(path: string, body: unknown, headers: Record<string, string>) {
  return requestJson(sb.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function findings(businessId: string) {
  const res = await sb.get(`/__sandbox/advice?businessId=${encodeURIComponent(businessId)}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.body.findings as Array<{ check: string; severity: string; message: string; evidence: unknown[] }>).filter(
    (f) => f.check === 'sends-no-credentials',
  );
}

describe("HTTP Basic on every call (the portal's security page)", () => {
  it('takes calls without credentials by default, and the advisor flags the business that sends none (an error)', async () => {
    const biz = uniqueCode('no-creds');
    const created = await call('/gateway/v3/paymentlinks', linkBody(biz), {});
    expect(created.body.result, created.text).toBe(0);
    const read = await call(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=${biz}`, undefined, {});
    expect(read.status).toBe(200);
    const found = await findings(biz);
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe('error');
    expect(found[0]!.message).toMatch(/^2 of 2 API calls sent no Authorization header/);
    expect(found[0]!.message).toContain('--credentials');
    expect(found[0]!.evidence).toHaveLength(2);
  });

  it('finds nothing for a business that sends Basic credentials on every call', async () => {
    const biz = uniqueCode('with-creds');
    const created = await call('/gateway/v3/paymentlinks', linkBody(biz), { authorization: PORTAL_EXAMPLE });
    expect(created.body.result, created.text).toBe(0);
    await call(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=${biz}`, undefined, { authorization: PORTAL_EXAMPLE });
    expect(await findings(biz)).toEqual([]);
  });

  it('counts the calls that forgot them among those that sent them', async () => {
    const biz = uniqueCode('some-creds');
    await call('/gateway/v3/paymentlinks', linkBody(biz), { authorization: PORTAL_EXAMPLE });
    await call('/gateway/v3/paymentlinks', linkBody(biz), {});
    const found = await findings(biz);
    expect(found.map((f) => f.message.slice(0, 44))).toEqual(['1 of 2 API calls sent no Authorization heade']);
  });

  it('keeps in the request log whether the header came, never the credentials', async () => {
    const biz = uniqueCode('log-creds');
    await call('/gateway/v3/paymentlinks', linkBody(biz), { authorization: PORTAL_EXAMPLE });
    await call('/gateway/v3/paymentlinks', linkBody(biz), {});
    const log = await sb.get(`/__sandbox/requests?businessId=${biz}`);
    expect(log.status, log.text).toBe(200);
    const flags = (log.body.body.requests as Array<{ authorization?: boolean }>).map((r) => r.authorization).sort();
    expect(flags).toEqual([false, true]);
    expect(log.text).not.toContain('QWxhZGRpbjpPcGVuU2VzYW1l');
    expect(log.text).not.toContain('OpenSesame');
  });
});
