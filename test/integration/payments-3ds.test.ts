import { describe, expect, it } from 'vitest';
import { chargeCard, resolveChallenge, type ChargeRequest } from '../../src/sandbox/services/charge.js';
import { ApiError } from '../../src/sandbox/errors.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'biz-3ds';

function request(patch: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    businessId: BIZ,
    action: 'PAYMENT',
    amount: 42,
    currencyCode: 'EUR',
    source: { card: { number: '4000000000003220', cvv: '123', expiryMonth: '11', expiryYear: '2033', holderName: 'Alan Turing' } },
    tokenize: false,
    attemptKey: `link:${uniqueCode()}`,
    parent: { kind: 'link', id: uniqueCode('link') },
    ...patch,
  };
}

async function charge(patch: Partial<ChargeRequest> = {}) {
  const sandbox = sb.running.sandbox;
  return sandbox.store.write(() => chargeCard(sandbox, request(patch)));
}

async function resolve(id: string, code: string | null) {
  const sandbox = sb.running.sandbox;
  return sandbox.store.write(() => resolveChallenge(sandbox, id, code));
}

describe('chargeCard and resolveChallenge (contract 2)', () => {
  it('holds the 3-D Secure card at result 2 with the challenge page as redirect, and approves it with code 1234', async () => {
    const pending = await charge();
    expect(pending.result).toBe(2);
    expect(pending.redirect?.url).toBe(`${sb.url}/gateway/v3/web/3ds/${pending.id}`);
    const done = await resolve(pending.id, '1234');
    expect(done.result).toBe(0);
    expect(done.card?.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
    expect(done.redirect).toBeUndefined();
    const read = await sb.get(`/gateway/v3/payments/${pending.id}?businessId=${BIZ}`);
    expect(read.body.result).toBe(0);
  });

  it('makes a challenge -10 for a wrong code or a cancel, and refuses resolving it twice', async () => {
    const wrong = await charge();
    expect((await resolve(wrong.id, '0000')).result).toBe(-10);
    const cancelled = await charge();
    const res = await resolve(cancelled.id, null);
    expect([res.result, res.error?.code]).toEqual([-10, 3014]);
    await expect(resolve(cancelled.id, '1234')).rejects.toBeInstanceOf(ApiError);
  });

  it('tokenizes only once the challenge passes', async () => {
    const pending = await charge({ tokenize: true });
    expect(pending.token).toBeUndefined();
    const done = await resolve(pending.id, '1234');
    expect(done.token?.displayHint).toBe('************3220');
    const token = await sb.get(`/gateway/v3/tokens/${done.token!.token}?businessId=${BIZ}`);
    expect(token.status).toBe(200);
  });

  it('sends an approved card through the challenge when forced, and approves it outright after a passed challenge', async () => {
    const card = { number: '4111111111111111', cvv: '123', expiryMonth: '11', expiryYear: '2033', holderName: 'A' };
    expect((await charge({ source: { card }, forceThreeDSecure: true })).result).toBe(2);
    expect((await charge({ source: { card }, forceThreeDSecure: true, skipThreeDSecure: true })).result).toBe(0);
  });

  it('refuses a card outside the allowed brands with -1 on body.card.number, storing nothing', async () => {
    const parent = { kind: 'link' as const, id: uniqueCode('link') };
    const card = { number: '378282246310005', cvv: '1234', expiryMonth: '11', expiryYear: '2033', holderName: 'A' };
    const error = await charge({ source: { card }, allowedBrandIds: [1010, 1020], parent }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).result).toBe(-1);
    expect((error as ApiError).message).toContain('body.card.number.');
    const count = sb.running.sandbox.store.db.prepare('SELECT COUNT(*) FROM payments WHERE parent_id = ?').pluck().get(parent.id);
    expect(count).toBe(0);
  });

  it('counts retry-card attempts per attemptKey: the first fails, the next passes, another key starts again', async () => {
    const card = { number: '4000000000000325', cvv: '123', expiryMonth: '11', expiryYear: '2033', holderName: 'A' };
    const key = `checkout:${uniqueCode()}`;
    expect((await charge({ source: { card }, attemptKey: key })).result).toBe(-5);
    expect((await charge({ source: { card }, attemptKey: key })).result).toBe(0);
    expect((await charge({ source: { card }, attemptKey: `checkout:${uniqueCode()}` })).result).toBe(-5);
  });

  it('stores the internal-error card as -7 with HTTP 500 instead of throwing', async () => {
    const card = { number: '4000000000000010', cvv: '123', expiryMonth: '11', expiryYear: '2033', holderName: 'A' };
    const record = await charge({ source: { card } });
    expect([record.result, record.httpStatus]).toEqual([-7, 500]);
  });
});

describe('3-D Secure on a direct API payment', () => {
  async function payThreeDS(code: string | null) {
    const created = await sb.post('/gateway/v3/payments', {
      action: 'payment',
      header: { businessId: BIZ },
      body: {
        transaction: { amount: 15, currencyCode: 'EUR', trackingCode: uniqueCode('3ds') },
        card: { number: '4000000000003220', cvv: '123', expiryMonth: '11', expiryYear: '2033', holderName: 'Alan Turing' },
      },
    });
    expect([created.status, created.body.result, created.body.description]).toEqual([200, 2, 'Pending']);
    const url = created.body.body.redirect.url as string;
    const page = await (await fetch(url)).text();
    const formToken = /name="formToken" value="([^"]+)"/.exec(page)?.[1];
    expect(formToken).toBeDefined();
    const fields: Record<string, string> = { formToken: formToken!, action: code === null ? 'cancel' : 'submit', code: code ?? '' };
    await fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
    return sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=${BIZ}`);
  }

  it('approves the payment once the challenge page gets code 1234', async () => {
    const read = await payThreeDS('1234');
    expect([read.status, read.body.result]).toEqual([200, 0]);
    expect(read.body.body.redirect).toBeUndefined();
  });

  it('makes the payment -10 when the challenge page gets another code or a cancel', async () => {
    for (const code of ['9999', null]) {
      const read = await payThreeDS(code);
      expect([read.status, read.body.result, read.body.body.error.code]).toEqual([200, -10, 3014]);
    }
  });
});
