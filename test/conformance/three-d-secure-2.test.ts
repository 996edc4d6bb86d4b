/**
 * 3DS 2.0 with the Payments API as the portal's page documents it (the full-redirect flow of its
 * integrated 3DS server) and the SDKs' RequestThreeDSecure/ResponseThreeDSecure: `body.threeDSecure` with
 * `version` "2" on a direct card payment; frictionless for an enrolled card the issuer lets through,
 * challenge for the 3-D Secure test card; `body.threeDSecure` in the answers with `version`,
 * `enrollmentResult`, `authenticationResult` and `flow`; external MPI data (`eci` with `avv`/`cavv`, `xid`)
 * skips the challenge.
 */
import { describe, expect, it } from 'vitest';
import { checkoutRequest, linkRequest, uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { customerSubmits, expectError, FUTURE, parseForms } from './client.js';

const sb = useSandbox();
const BIZ = '3ds2';
const CHALLENGE_CARD = '4000000000003220';

function payment(number: string, threeDSecure: unknown, more: Record<string, unknown> = {}) {
  return {
    action: 'authorize',
    header: { businessId: BIZ },
    body: {
      transaction: {
        storeId: 1,
        brandId: 1010,
        trackingCode: uniqueCode('3ds2-order'),
        amount: 1,
        currencyCode: 'EUR',
        returnUrl: 'https://merchant-website.example/paymentResult',
      },
      card: { number, cvv: '123', ...FUTURE },
      customer: { givenName: 'John', familyName: 'Doe' },
      threeDSecure,
      ...more,
    },
  };
}

async function pay(body: unknown) {
  return sb.post('/gateway/v3/payments', body);
}

/** The customer answers the challenge page a pending payment's redirect names. */
async function answerChallenge(url: string, code: string): Promise<void> {
  const page = await fetch(url);
  const form = parseForms(await page.text())[0]!;
  const params = new URLSearchParams();
  for (const input of form.inputs) if (input.type === 'hidden') params.set(input.name, input.value);
  params.set('code', code);
  params.set('action', 'submit');
  await fetch(new URL(form.action || url, url), { method: 'POST', body: params, redirect: 'manual' });
}

describe('3DS 2.0 outcomes (docs/test-cards.md, "3-D Secure 2.0")', () => {
  it('frictionless: an approved card with version "2" is authorized at once, answered with flow FRICTIONLESS', async () => {
    const res = await pay(payment('4111111111111111', { version: '2' }));
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body.threeDSecure).toEqual({ version: '2', enrollmentResult: 'Y', authenticationResult: 'Y', flow: 'FRICTIONLESS' });
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.body.threeDSecure).toEqual(res.body.body.threeDSecure);
  });

  it('challenge: the 3-D Secure card waits (2 Pending, a redirect), then is authenticated by the code and answered with flow CHALLENGE', async () => {
    const res = await pay(payment(CHALLENGE_CARD, { version: '2' }));
    expect([res.status, res.body.result], res.text).toEqual([200, 2]);
    expect(res.body.body.threeDSecure).toEqual({ version: '2', enrollmentResult: 'Y', flow: 'CHALLENGE' });
    expect(res.body.body.redirect.url).toBeTypeOf('string');
    await answerChallenge(res.body.body.redirect.url, '1234');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.result).toBe(0);
    expect(read.body.body.threeDSecure).toEqual({ version: '2', enrollmentResult: 'Y', authenticationResult: 'Y', flow: 'CHALLENGE' });
  });

  it('a failed challenge answers authenticationResult N', async () => {
    const res = await pay(payment(CHALLENGE_CARD, { version: '2' }));
    await answerChallenge(res.body.body.redirect.url, '0000');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.result).toBe(-10);
    expect(read.body.body.threeDSecure.authenticationResult).toBe('N');
  });

  it('3DS 1 (version "1") has no frictionless flow: a card outside the 3-D Secure cards is not enrolled (N)', async () => {
    const res = await pay(payment('4111111111111111', { version: '1' }));
    expect(res.body.result, res.text).toBe(0);
    expect(res.body.body.threeDSecure).toEqual({ version: '1', enrollmentResult: 'N' });
  });

  it('a payment without body.threeDSecure answers none (as before)', async () => {
    const res = await pay(payment('4111111111111111', undefined));
    expect(res.body.result, res.text).toBe(0);
    expect(res.body.body).not.toHaveProperty('threeDSecure');
  });
});

describe("the embedded flow (the portal recommends it: the challenge in the merchant's own page)", () => {
  /** The challenge page of a pending payment, as the merchant's iframe gets it by posting `redirect.fields`. */
  async function enter(redirect: { url: string; fields: Record<string, string> }) {
    const res = await fetch(redirect.url, { method: 'POST', body: new URLSearchParams(redirect.fields) });
    return { status: res.status, text: await res.text() };
  }

  /** Posts the challenge form with `framed` as the page script sets it inside an iframe. */
  async function submit(url: string, html: string, code: string, framed: boolean) {
    const form = parseForms(html)[0]!;
    const params = new URLSearchParams();
    for (const input of form.inputs) if (input.type === 'hidden') params.set(input.name, input.value);
    params.set('framed', framed ? '1' : '');
    params.set('code', code);
    params.set('action', 'submit');
    return fetch(new URL(form.action || url, url), { method: 'POST', body: params, redirect: 'manual' });
  }

  function pageConfig(html: string) {
    const match = /<script type="application\/json" id="pl-config">([\s\S]*?)<\/script>/.exec(html);
    return JSON.parse(match![1]!);
  }

  it('takes additionalInfo.challengeWindowSize and lays the challenge page out in that window', async () => {
    const res = await pay(payment(CHALLENGE_CARD, { version: '2', additionalInfo: { challengeWindowSize: '03' } }));
    expect(res.body.result, res.text).toBe(2);
    const page = await enter(res.body.body.redirect);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-paylink-window="03"');
    // Framed by the merchant itself, not by the library: the page does not wait for options.
    expect(pageConfig(page.text).embeddable).toBe(true);
  });

  it('refuses a window size EMV does not define with the input-error envelope', async () => {
    expectError(await pay(payment(CHALLENGE_CARD, { version: '2', additionalInfo: { challengeWindowSize: '07' } })), {
      result: -1,
      code: 1002,
      path: 'body.threeDSecure.additionalInfo.challengeWindowSize',
    });
  });

  it("a framed answer ends in a page that posts the result to the merchant's origin and opens returnUrl in the frame", async () => {
    const res = await pay(payment(CHALLENGE_CARD, { version: '2' }));
    const { redirect, id } = res.body.body;
    const page = await enter(redirect);
    const end = await submit(redirect.url, page.text, '1234', true);
    expect(end.status).toBe(200);
    const html = await end.text();
    expect(html).toContain('data-paylink-state="result"');
    const { embeddedEnd } = pageConfig(html);
    expect(embeddedEnd).toEqual({
      message: {
        threeDSecureComplete: {
          paymentId: id,
          result: 0,
          description: 'Ok',
          threeDSecure: { version: '2', enrollmentResult: 'Y', authenticationResult: 'Y', flow: 'CHALLENGE' },
        },
      },
      targetOrigin: 'https://merchant-website.example',
      next: `https://merchant-website.example/paymentResult?id=${id}`,
    });
  });

  it('the full-redirect flow is unchanged: an unframed answer is a 303 to returnUrl', async () => {
    const res = await pay(payment(CHALLENGE_CARD, { version: '2' }));
    const { redirect, id } = res.body.body;
    const page = await enter(redirect);
    const end = await submit(redirect.url, page.text, '1234', false);
    expect(end.status).toBe(303);
    expect(end.headers.get('location')).toBe(`https://merchant-website.example/paymentResult?id=${id}`);
  });
});

describe('downgrade to 3DS 1.0 (the portal: "frictionless, challenge or downgrade-to-3DS 1.0 flow")', () => {
  const DOWNGRADE_CARD = '4000000000001000';

  it('a card whose issuer knows 3DS 1.0 only, asked for version "2", is challenged as 3DS 1.0: version "1", no flow', async () => {
    const res = await pay(payment(DOWNGRADE_CARD, { version: '2' }));
    expect([res.status, res.body.result], res.text).toEqual([200, 2]);
    expect(res.body.body.redirect).toMatchObject({ method: 'POST' });
    expect(res.body.body.threeDSecure).toEqual({ version: '1', enrollmentResult: 'Y' });
    await answerChallenge(res.body.body.redirect.url, '1234');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.result, read.text).toBe(0);
    expect(read.body.body.threeDSecure).toEqual({ version: '1', enrollmentResult: 'Y', authenticationResult: 'Y' });
  });

  it('a failed downgraded challenge answers authenticationResult N and -10', async () => {
    const res = await pay(payment(DOWNGRADE_CARD, { version: '2.1' }));
    expect(res.body.body.threeDSecure.version).toBe('1');
    await answerChallenge(res.body.body.redirect.url, '9999');
    const read = await sb.get(`/gateway/v3/payments/${res.body.body.id}?businessId=${BIZ}`);
    expect(read.body.result).toBe(-10);
    expect(read.body.body.threeDSecure).toEqual({ version: '1', enrollmentResult: 'Y', authenticationResult: 'N' });
  });

  it('a version "1" request on that card is a plain 3DS 1 challenge, answered the same way', async () => {
    const res = await pay(payment(DOWNGRADE_CARD, { version: '1' }));
    expect(res.body.body.threeDSecure).toEqual({ version: '1', enrollmentResult: 'Y' });
  });
});

describe("external MPI data (the SDKs' RequestThreeDSecure: eci, avv, xid)", () => {
  it('skips the challenge: the 3-D Secure card with eci and avv is authorized at once, the answer carries the eci', async () => {
    const res = await pay(
      payment(CHALLENGE_CARD, { version: '2', eci: '05', avv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=', dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b' }),
    );
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
    expect(res.body.body).not.toHaveProperty('redirect');
    expect(res.body.body.threeDSecure).toEqual({ version: '2', eci: '05' });
  });

  it('takes cavv for avv and a 3DS 1 xid', async () => {
    const res = await pay(payment(CHALLENGE_CARD, { version: '1', eci: '05', cavv: 'AAABBJg0VhI0VniQEjRWAAAAAAA=', xid: 'MDAwMDAwMDAwMDAwMDAwMzIyNzY=' }));
    expect(res.body.result, res.text).toBe(0);
  });

  const refusals: Array<[string, Record<string, unknown>, 1002 | 1004, string]> = [
    ['an eci without avv', { version: '2', eci: '05' }, 1004, 'body.threeDSecure.avv'],
    ['an avv without eci', { version: '2', avv: 'AAAB' }, 1004, 'body.threeDSecure.eci'],
    ['an eci that is not two digits', { version: '2', eci: '5', avv: 'AAAB' }, 1002, 'body.threeDSecure.eci'],
    ['a version that is not 1 or 2', { version: '3' }, 1002, 'body.threeDSecure.version'],
  ];
  for (const [name, block, code, path] of refusals) {
    it(`refuses ${name} with the input-error envelope`, async () => {
      expectError(await pay(payment(CHALLENGE_CARD, block)), { result: -1, code, path });
    });
  }
});

describe('3-D Secure results of payments made through a link or checkout that asked for it', () => {
  async function payOn(url: string, number: string, challengeCode?: string) {
    const outcome = await customerSubmits(url, { number, ...(challengeCode !== undefined ? { challengeCode } : {}) });
    expect(outcome.kind).toBe('returned');
  }

  it("a checkout's GET answers payments[].body.threeDSecure (the SDKs' checkout payment answer carries it), in the version it was created with", async () => {
    const request = checkoutRequest({ businessId: BIZ, checkout: { threeDSecure: true } });
    (request.body as Record<string, unknown>).threeDSecure = { version: '2' };
    const created = await sb.post('/gateway/v3/checkouts', request);
    await payOn(created.body.body.checkout.redirect.url, '4111111111111111', '1234');
    const read = await sb.get(`/gateway/v3/checkouts/${created.body.body.checkout.checkoutId}?businessId=${BIZ}`);
    expect(read.body.result, read.text).toBe(0);
    const [payment] = read.body.body.payments;
    expect(payment.body.threeDSecure).toEqual({ version: '2', enrollmentResult: 'Y', authenticationResult: 'Y', flow: 'CHALLENGE' });
    const direct = await sb.get(`/gateway/v3/payments/${payment.body.transaction.id}?businessId=${BIZ}`);
    expect(direct.body.body.threeDSecure).toEqual(payment.body.threeDSecure);
  });

  it("a link's GET answers them too; without body.threeDSecure the version is 1", async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: BIZ, link: { threeDSecure: true } }));
    await payOn(created.body.body.link.redirect.url, '4111111111111111', '1234');
    const read = await sb.get(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=${BIZ}`);
    expect(read.body.body.payments[0].body.threeDSecure).toEqual({ version: '1', enrollmentResult: 'Y', authenticationResult: 'Y' });
  });

  it('the downgrade card on a 3DS 2.0 link is answered version 1', async () => {
    const request = linkRequest({ businessId: BIZ, link: { threeDSecure: true } });
    (request.body as Record<string, unknown>).threeDSecure = { version: '2' };
    const created = await sb.post('/gateway/v3/paymentlinks', request);
    await payOn(created.body.body.link.redirect.url, '4000000000001000', '1234');
    const read = await sb.get(`/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=${BIZ}`);
    expect(read.body.body.payments[0].body.threeDSecure).toEqual({ version: '1', enrollmentResult: 'Y', authenticationResult: 'Y' });
  });

  it('a link or checkout that did not ask for 3-D Secure answers no threeDSecure in its payments', async () => {
    const created = await sb.post('/gateway/v3/checkouts', checkoutRequest({ businessId: BIZ }));
    await payOn(created.body.body.checkout.redirect.url, '4111111111111111');
    const read = await sb.get(`/gateway/v3/checkouts/${created.body.body.checkout.checkoutId}?businessId=${BIZ}`);
    expect(read.body.body.payments[0].body).not.toHaveProperty('threeDSecure');
  });
});
