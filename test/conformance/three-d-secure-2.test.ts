/**
 * 3DS 2.0 with the Payments API as the portal's page documents it (the full-redirect flow of its
 * integrated 3DS server) and the SDKs' RequestThreeDSecure/ResponseThreeDSecure: `body.threeDSecure` with
 * `version` "2" on a direct card payment; frictionless for an enrolled card the issuer lets through,
 * challenge for the 3-D Secure test card; `body.threeDSecure` in the answers with `version`,
 * `enrollmentResult`, `authenticationResult` and `flow`; external MPI data (`eci` with `avv`/`cavv`, `xid`)
 * skips the challenge.
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { expectError, FUTURE, parseForms } from './client.js';

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
