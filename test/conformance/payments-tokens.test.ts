import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { ISO_Z, REQUEST_CODE, UUID, card, expectError, expectInputError, getWithBody, paymentBody, uniqueCode } from './client.js';

const sb = useSandbox();

async function pay(patch: Parameters<typeof paymentBody>[0] = {}) {
  return sb.post('/gateway/v3/payments', paymentBody(patch));
}

describe('direct payments by card (docs/test-cards.md, "Direct payments")', () => {
  it('answers 0 Ok with id, trackingCode, transaction and card, expiry as strings whatever the request used (a two-digit year in this century)', async () => {
    const trackingCode = uniqueCode('pay');
    const res = await pay({ transaction: { trackingCode, amount: 10.5, brandId: 1010 }, card: card('4111111111111111', { expiryMonth: 7, expiryYear: 2035 }) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Ok');
    expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
    expect(res.body.body.id).toMatch(UUID);
    expect(res.body.body.trackingCode).toBe(trackingCode);
    expect(res.body.body.transaction).toMatchObject({
      id: res.body.body.id,
      action: 'payment',
      amount: 10.5,
      currencyCode: 'EUR',
      trackingCode,
      brandId: 1010,
    });
    expect(res.body.body.card).toMatchObject({
      firstSixDigits: '411111',
      lastFourDigits: '1111',
      holderName: 'Ada Lovelace',
      expiryMonth: '07',
      expiryYear: '2035',
    });
    for (const field of ['approvalCode', 'cvvResult', 'avsResult']) expect(res.body.body.card[field]).toBeTypeOf('string');
    expect(res.body.body.card.cvvResult).toMatch(/^[A-Z]$/);
    expect(res.body.body.card.avsResult).toMatch(/^[A-Z]$/);
    expect(res.body.body.token).toBeUndefined();
    expect(res.text).not.toContain('4111111111111111');
    const twoDigitYear = await pay({ card: card('4111111111111111', { expiryMonth: 7, expiryYear: 36 }) });
    expect(twoDigitYear.body.result).toBe(0);
    expect(twoDigitYear.body.body.card).toMatchObject({ expiryMonth: '07', expiryYear: '2036' });
  });

  it('keeps the requestCode of a payment on later GETs', async () => {
    const created = await pay({ card: card('4000000000000002') });
    const first = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`);
    const second = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`);
    expect(first.body.header.requestCode).toBe(created.body.header.requestCode);
    expect(second.body.header.requestCode).toBe(created.body.header.requestCode);
  });

  it('answers the GET of a declined payment with the same -4, but HTTP 200 as the provider answered GETs', async () => {
    const created = await pay({ card: card('4000000000000002') });
    expect(created.status).toBe(400);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`);
    expectError(read, { result: -4, status: 200 });
    expect(read.body.body.id).toBe(created.body.body.id);
  });

  it('answers GET /gateway/v3/payments?businessId&trackingCode with a top-level array of every attempt as created, oldest first', async () => {
    const trackingCode = uniqueCode('list');
    const failed = await pay({ transaction: { trackingCode }, card: card('4000000000000002') });
    const ok = await pay({ transaction: { trackingCode } });
    const res = await sb.get(`/gateway/v3/payments?businessId=conf-biz&trackingCode=${trackingCode}`);
    expect(res.status).toBe(200);
    // No envelope: the provider answered this lookup with the array itself (its PHP client's executeAndReturnArray).
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((entry: any) => entry.body.id)).toEqual([failed.body.body.id, ok.body.body.id]);
    expect(res.body.map((entry: any) => entry.result)).toEqual([-4, 0]);
    for (const entry of res.body) expect(entry.header.requestCode).toMatch(REQUEST_CODE);
    expect(res.body).toEqual([failed.body, ok.body]);
  });

  it('answers an unknown trackingCode with an empty array', async () => {
    const res = await sb.get(`/gateway/v3/payments?businessId=conf-biz&trackingCode=${uniqueCode('none')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers a GET that carries a JSON body as if it had none', async () => {
    const created = await pay();
    const res = await getWithBody(`${sb.url}/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`, '{}');
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.id).toBe(created.body.body.id);
    expect(res.body).toEqual(created.body);
  });

  it('refuses a second successful payment with the same trackingCode with -8 (2001), storing nothing, but lets a failed one be retried and another business use the code', async () => {
    const trackingCode = uniqueCode('dup');
    expect((await pay({ transaction: { trackingCode }, card: card('4000000000000002') })).status).toBe(400);
    expect((await pay({ transaction: { trackingCode } })).body.result).toBe(0);
    expectError(await pay({ transaction: { trackingCode } }), { result: -8, status: 400, code: 2001 });
    const listed = await sb.get(`/gateway/v3/payments?businessId=conf-biz&trackingCode=${trackingCode}`);
    expect(listed.body.map((entry: any) => entry.result)).toEqual([-4, 0]);
    expect((await pay({ businessId: 'conf-other', transaction: { trackingCode } })).body.result).toBe(0);
  });

  it('counts a pending bank payment for a duplicate trackingCode (-8)', async () => {
    const trackingCode = uniqueCode('bankdup');
    const bank = await pay({ card: null, transaction: { trackingCode, amount: 7, brandId: 3010 }, bank: { countryCode: 'NL', issuerId: 'INGBNL2A' } });
    expect(bank.body.result, bank.text).toBe(2);
    expectError(await pay({ transaction: { trackingCode } }), { result: -8, status: 400 });
  });

  it('answers an unknown payment id with a bare 404, as the provider did (docs/api.md)', async () => {
    const res = await sb.get('/gateway/v3/payments/00000000-0000-4000-8000-000000000000?businessId=conf-biz');
    expect([res.status, res.text]).toEqual([404, '']);
  });
});

describe('authorize, capture, cancel, refund (docs/test-cards.md, "Direct payments")', () => {
  const op = (id: string, name: string, body: Record<string, unknown> = {}) =>
    sb.post(`/gateway/v3/payments/${id}/${name}`, { header: { businessId: 'conf-biz' }, body });

  it('captures an authorization: a new payment with action capture and parentId naming the original', async () => {
    const auth = await pay({ action: 'authorize', transaction: { amount: 30 } });
    expect(auth.body.result).toBe(0);
    expect(auth.body.body.transaction.action).toBe('authorize');
    const capture = await op(auth.body.body.id, 'capture');
    expect(capture.status, capture.text).toBe(200);
    expect(capture.body.result).toBe(0);
    expect(capture.body.body.transaction.action).toBe('capture');
    expect(capture.body.body.transaction.parentId).toBe(auth.body.body.id);
    expect(capture.body.body.id).toMatch(UUID);
    expect(capture.body.body.id).not.toBe(auth.body.body.id);
    expect(capture.body.body.trackingCode).toBe(auth.body.body.trackingCode);
  });

  it('refunds a captured authorization, and refuses a second refund beyond what was captured with -8', async () => {
    const auth = await pay({ action: 'authorize', transaction: { amount: 30 } });
    await op(auth.body.body.id, 'capture', { transaction: { amount: 20 } });
    const refund = await op(auth.body.body.id, 'refund', { transaction: { amount: 15 } });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.body.transaction.action).toBe('refund');
    expectError(await op(auth.body.body.id, 'refund', { transaction: { amount: 10 } }), { result: -8, status: 400 });
  });

  it('cancels an authorization with nothing captured for its full amount, then refuses to capture, cancel or refund it (-8)', async () => {
    const auth = await pay({ action: 'authorize' });
    const cancel = await op(auth.body.body.id, 'cancel');
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.result).toBe(0);
    expect(cancel.body.body.transaction.action).toBe('cancel');
    expect(cancel.body.body.transaction.parentId).toBe(auth.body.body.id);
    expect(cancel.body.body.transaction.amount).toBe(10.5);
    expectError(await op(auth.body.body.id, 'capture'), { result: -8, status: 400 });
    expectError(await op(auth.body.body.id, 'cancel'), { result: -8, status: 400 });
    expectError(await op(auth.body.body.id, 'refund'), { result: -8, status: 400 });
  });

  it('refunds a payment in parts up to exactly its amount (0.1 + 0.2 of 0.30)', async () => {
    const payment = await pay({ transaction: { amount: 0.3 } });
    expect((await op(payment.body.body.id, 'refund', { transaction: { amount: 0.1 } })).body.result).toBe(0);
    expect((await op(payment.body.body.id, 'refund', { transaction: { amount: 0.2 } })).body.result).toBe(0);
    expectError(await op(payment.body.body.id, 'refund', { transaction: { amount: 0.01 } }), { result: -8, status: 400, message: /refunded in full/ });
  });

  it('refuses to capture a payment (charged at once) with -8', async () => {
    const payment = await pay();
    expectError(await op(payment.body.body.id, 'capture'), { result: -8, status: 400 });
  });

  it('refuses to refund a failed payment with -8', async () => {
    const failed = await pay({ card: card('4000000000000002') });
    expectError(await op(failed.body.body.id, 'refund'), { result: -8, status: 400 });
  });

  it('refuses a refund of a refund with -8', async () => {
    const payment = await pay({ transaction: { amount: 10 } });
    const refund = await op(payment.body.body.id, 'refund', { transaction: { amount: 5 } });
    expectError(await op(refund.body.body.id, 'refund', { transaction: { amount: 1 } }), { result: -8, status: 400 });
  });

  it('refuses an invalid refund amount with -1, 1002', async () => {
    const payment = await pay({ transaction: { amount: 10 } });
    expectError(await op(payment.body.body.id, 'refund', { transaction: { amount: -1 } }), { result: -1, status: 400, code: 1002 });
    expectError(await op(payment.body.body.id, 'refund', { transaction: { amount: 1.234 } }), { result: -1, status: 400, code: 1002 });
  });

  it('lists the authorization and its capture and refund under the trackingCode, oldest first', async () => {
    const auth = await pay({ action: 'authorize', transaction: { amount: 12 } });
    const capture = await op(auth.body.body.id, 'capture');
    const refund = await op(auth.body.body.id, 'refund', { transaction: { amount: 2 } });
    const list = await sb.get(`/gateway/v3/payments?businessId=conf-biz&trackingCode=${auth.body.body.trackingCode}`);
    expect(list.body.map((entry: any) => entry.body.transaction.action)).toEqual(['authorize', 'capture', 'refund']);
    expect(list.body.map((entry: any) => entry.body.id)).toEqual([auth.body.body.id, capture.body.body.id, refund.body.body.id]);
  });

  it('adds partial captures up to the authorized amount and refuses more with -8', async () => {
    const auth = await pay({ action: 'authorize', transaction: { amount: 10 } });
    expect((await op(auth.body.body.id, 'capture', { transaction: { amount: 6 } })).body.result).toBe(0);
    expect((await op(auth.body.body.id, 'capture', { transaction: { amount: 4 } })).body.result).toBe(0);
    expectError(await op(auth.body.body.id, 'capture', { transaction: { amount: 0.01 } }), { result: -8, status: 400 });
  });

  it('refuses to cancel a payment, a partly captured authorization, or with an amount other than the full one (-8)', async () => {
    const payment = await pay();
    expectError(await op(payment.body.body.id, 'cancel'), { result: -8, status: 400 });
    const captured = await pay({ action: 'authorize', transaction: { amount: 10 } });
    await op(captured.body.body.id, 'capture', { transaction: { amount: 1 } });
    expectError(await op(captured.body.body.id, 'cancel'), { result: -8, status: 400 });
    const partial = await pay({ action: 'authorize', transaction: { amount: 10 } });
    expectError(await op(partial.body.body.id, 'cancel', { transaction: { amount: 5 } }), { result: -8, status: 400 });
  });

  it('refuses to refund an authorization with nothing captured (-8)', async () => {
    const auth = await pay({ action: 'authorize' });
    expectError(await op(auth.body.body.id, 'refund'), { result: -8, status: 400 });
  });

  it('answers 404 when another business captures, cancels or refunds a payment', async () => {
    const auth = await pay({ action: 'authorize' });
    for (const name of ['capture', 'cancel', 'refund']) {
      const res = await sb.post(`/gateway/v3/payments/${auth.body.body.id}/${name}`, { header: { businessId: 'conf-other' }, body: {} });
      expect(res.status, name).toBe(404);
    }
  });
});

describe('tokens (docs/test-cards.md, "Direct payments")', () => {
  const tokenRequest = (number: string, more: { businessId?: string; expiryYear?: string; brandId?: number } = {}) => ({
    header: { businessId: more.businessId ?? 'conf-biz' },
    body: { brandId: more.brandId ?? 1010, card: { holderName: 'Ada Lovelace', number, expiryMonth: '10', expiryYear: more.expiryYear ?? '2034' } },
  });

  it('creates a token: 200, 0 Ok, tokenId equal to token (a lower-case version 4 UUID), displayHint ************1111', async () => {
    const res = await sb.post('/gateway/v3/tokens', tokenRequest('4111111111111111'));
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Ok');
    expect(res.body.body.token).toMatch(UUID);
    expect(res.body.body.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body.body.tokenId).toBe(res.body.body.token);
    expect(res.body.body.displayHint).toBe('************1111');
    expect(res.text).not.toContain('4111111111111111');
  });

  it('gives the same token for the same business, card number and expiry, however written and whatever the holder name; another token otherwise', async () => {
    const a = await sb.post('/gateway/v3/tokens', tokenRequest('4111111111111111'));
    const b = await sb.post('/gateway/v3/tokens', tokenRequest('4111111111111111'));
    expect(b.body.body.token).toBe(a.body.body.token);
    const written = tokenRequest('4111 1111 1111 1111') as { body: { card: Record<string, unknown> } };
    Object.assign(written.body.card, { holderName: 'A. Lovelace', expiryMonth: 10, expiryYear: 34 });
    const c = await sb.post('/gateway/v3/tokens', written);
    expect(c.body.body.token).toBe(a.body.body.token);
    const otherExpiry = await sb.post('/gateway/v3/tokens', tokenRequest('4111111111111111', { expiryYear: '2036' }));
    expect(otherExpiry.body.body.token).not.toBe(a.body.body.token);
    const otherBusiness = await sb.post('/gateway/v3/tokens', tokenRequest('4111111111111111', { businessId: 'conf-other' }));
    expect(otherBusiness.body.body.token).not.toBe(a.body.body.token);
  });

  it('masks all but the last four digits in displayHint for a 15-digit card', async () => {
    const res = await sb.post('/gateway/v3/tokens', tokenRequest('378282246310005', { brandId: 1030 }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.displayHint).toBe('***********0005');
  });

  it('refuses a Luhn-invalid number with -1; tokenizes a VISA number outside the test cards, as staging took such cards (docs/test-cards.md)', async () => {
    expectInputError(await sb.post('/gateway/v3/tokens', tokenRequest('4111111111111112')), 1002, 'body.card.number');
    const res = await sb.post('/gateway/v3/tokens', tokenRequest('4012888888881881'));
    expect([res.status, res.body.result], res.text).toEqual([200, 0]);
  });

  it('pays with a token from POST /gateway/v3/tokens', async () => {
    const token = await sb.post('/gateway/v3/tokens', tokenRequest('5555555555554444', { brandId: 1020 }));
    expect(token.status, token.text).toBe(200);
    const res = await pay({ card: null, transaction: { token: token.body.body.token } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.transaction.brandId).toBe(1020);
  });

  it('declines with a token of the decline card (-4, 3001)', async () => {
    const token = await sb.post('/gateway/v3/tokens', tokenRequest('4000000000000002'));
    expect(token.status, token.text).toBe(200);
    expectError(await pay({ card: null, transaction: { token: token.body.body.token } }), { result: -4, status: 400, code: 3001 });
  });

  it('challenges with a token of the 3-D Secure card (2 Pending)', async () => {
    const token = await sb.post('/gateway/v3/tokens', tokenRequest('4000000000003220'));
    expect(token.status, token.text).toBe(200);
    const res = await pay({ card: null, transaction: { token: token.body.body.token } });
    expect(res.body.result, res.text).toBe(2);
  });

  it('refuses a token of another business exactly like an unknown token: -1, 1002, body.transaction.token', async () => {
    const token = await sb.post('/gateway/v3/tokens', tokenRequest('4111111111111111', { businessId: 'conf-other' }));
    expectInputError(await pay({ card: null, transaction: { token: token.body.body.token } }), 1002, 'body.transaction.token');
    expectInputError(await pay({ card: null, transaction: { token: '00000000-0000-4000-8000-000000000000' } }), 1002, 'body.transaction.token');
  });

  it('reads a token back at GET /gateway/v3/tokens/{token}, and 404 for another business', async () => {
    const token = await sb.post('/gateway/v3/tokens', tokenRequest('4242424242424242'));
    const read = await sb.get(`/gateway/v3/tokens/${token.body.body.token}?businessId=conf-biz`);
    expect(read.status).toBe(200);
    expect(read.body.body).toMatchObject({
      token: token.body.body.token,
      tokenId: token.body.body.token,
      lastFourDigits: '4242',
      displayHint: '************4242',
    });
    expect(read.body.body.createdAt).toMatch(ISO_Z);
    for (const field of [
      'tokenId',
      'token',
      'brandId',
      'displayHint',
      'firstSixDigits',
      'lastFourDigits',
      'expiryMonth',
      'expiryYear',
      'holderName',
      'createdAt',
    ]) {
      expect(read.body.body, field).toHaveProperty(field);
    }
    expect(read.text).not.toContain('4242424242424242');
    const other = await sb.get(`/gateway/v3/tokens/${token.body.body.token}?businessId=conf-other`);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('Ada');
  });
});

describe('payment and token input rules (docs/test-cards.md, "The table", Authentication, Validation)', () => {
  it('refuses a 4-digit CVV on a VISA and a 3-digit CVV on an American Express with 1002 naming body.card.cvv', async () => {
    expectInputError(await pay({ card: card('4111111111111111', { cvv: '1234' }) }), 1002, 'body.card.cvv');
    expectInputError(await pay({ card: card('378282246310005', { cvv: '123' }) }), 1002, 'body.card.cvv');
  });

  it('answers a payment or token request without header.businessId with 400, 1004', async () => {
    const payment = paymentBody() as { header: Record<string, unknown> };
    delete payment.header.businessId;
    expectInputError(await sb.post('/gateway/v3/payments', payment), 1004, 'header.businessId');
    const token = await sb.post('/gateway/v3/tokens', {
      header: {},
      body: { brandId: 1010, card: { holderName: 'A', number: '4111111111111111', expiryMonth: '10', expiryYear: '2034' } },
    });
    expectInputError(token, 1004, 'header.businessId');
  });

  it('answers a wrong type in a payment (card number as a JSON number) with 400, -1, 1002, never a 500', async () => {
    const res = await pay({ card: { ...card('4111111111111111'), number: 4111111111111111 } });
    expectInputError(res, 1002, 'body.card.number');
  });

  it('answers malformed JSON to the token endpoint with 400, -1', async () => {
    expectError(await sb.post('/gateway/v3/tokens', '{"header":'), { result: -1, status: 400 });
  });

  it('echoes the trackingCode of a token creation', async () => {
    const trackingCode = uniqueCode('tok');
    const res = await sb.post('/gateway/v3/tokens', {
      header: { businessId: 'conf-biz' },
      body: { brandId: 1010, trackingCode, card: { holderName: 'A', number: '4111111111111111', expiryMonth: '11', expiryYear: '2033' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.body.trackingCode).toBe(trackingCode);
  });

  it('gives the same token from a tokenized card payment as from POST /gateway/v3/tokens for that card and expiry', async () => {
    const viaPayment = await pay({ transaction: { tokenize: true }, card: card('4026000000000002', { expiryMonth: '03', expiryYear: '2031' }) });
    expect(viaPayment.body.result, viaPayment.text).toBe(0);
    const viaTokens = await sb.post('/gateway/v3/tokens', {
      header: { businessId: 'conf-biz' },
      body: { brandId: 1011, card: { holderName: 'Ada Lovelace', number: '4026000000000002', expiryMonth: '03', expiryYear: '2031' } },
    });
    expect(viaTokens.body.body.token).toBe(viaPayment.body.body.token.token);
  });

  it('refuses an expired card on token creation with -4 (3003)', async () => {
    const res = await sb.post('/gateway/v3/tokens', {
      header: { businessId: 'conf-biz' },
      body: { brandId: 1010, card: { holderName: 'A', number: '4111111111111111', expiryMonth: '01', expiryYear: '2021' } },
    });
    expectError(res, { result: -4, status: 400, code: 3003 });
  });
});

describe('bank redirect payments (docs/api.md, "Redirect payments")', () => {
  const ideal = (amount: number) => pay({ card: null, transaction: { amount, brandId: 3010 }, bank: { countryCode: 'NL', issuerId: 'INGBNL2A' } });

  it('answers 2 Pending with body.redirect {method GET, url} to a sandbox bank page', async () => {
    const res = await ideal(10);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(2);
    expect(res.body.description).toBe('Pending');
    expect(res.body.body.redirect.method).toBe('GET');
    expect(res.body.body.redirect.url.startsWith(sb.url)).toBe(true);
    const page = await fetch(res.body.body.redirect.url);
    expect(page.status).toBe(200);
    await page.text();
  });

  it.each([
    [1.5, 0, 200],
    [2.25, -10, 200],
    [3, 4, 200],
    [4.99, 2, 200],
    [5.1, -2, 200],
    [7, 2, 200],
  ])('follows the staging amount convention: GET of a %s payment answers %i (HTTP %i)', async (amount, result, status) => {
    const created = await ideal(amount);
    expect(created.body.result).toBe(2);
    const read = await sb.get(`/gateway/v3/payments/${created.body.body.id}?businessId=conf-biz`);
    expect(read.body.result, read.text).toBe(result);
    expect(read.status).toBe(status);
  });
});
