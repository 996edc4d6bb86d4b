import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { BRANDS } from '../../src/sandbox/domain/brands.js';
import { brandOfRange } from '../../src/sandbox/domain/cards.js';
import { detectBrand, luhnValid, TEST_CARDS } from '../../src/sandbox/domain/test-cards.js';

/** Brands whose numbers lie in another brand's range: a range check alone finds that family. */
const RANGE_FAMILY: Record<number, number> = { 1011: 1010, 1013: 1010, 1015: 1010, 1023: 1020 };
import {
  DESCRIPTION,
  REQUEST_CODE,
  UUID,
  card,
  createLink,
  customerReturns,
  customerSubmits,
  expectError,
  expectInputError,
  httpStatusOf,
  paymentBody,
  uniqueCode,
} from './client.js';

const sb = useSandbox();

const APPROVED: Array<[string, number]> = [
  ['4111111111111111', 1010],
  ['4242424242424242', 1010],
  ['5555555555554444', 1020],
  ['5105105105105100', 1020],
  ['378282246310005', 1030],
  ['6759649826438453', 1050],
  ['4026000000000002', 1011],
  ['4000056655665556', 1013],
  ['5200828282828210', 1023],
  ['6011111111111117', 1040],
  ['36227206271667', 1060],
  ['3566002020360505', 1090],
  ['6703444444444449', 1210],
];

const REFUSED: Array<[string, number, string]> = [
  ['4000000000000002', -4, 'declined'],
  ['4000000000009995', -4, 'insufficient funds'],
  ['4000000000000069', -4, 'expired card'],
  ['4000000000000127', -4, 'CVV mismatch'],
  ['4000000000000119', -2, 'failed'],
  ['4000000000000317', -8, 'business rule error'],
  ['4000000000000259', -9, 'fraud'],
  ['4000000000000036', -10, 'customer processing error'],
  ['4000000000000341', -11, 'referrals'],
  ['4000000000000010', -7, 'internal server error, HTTP 500'],
];

async function pay(number: string, more: Parameters<typeof paymentBody>[0] = {}) {
  return sb.post('/gateway/v3/payments', paymentBody({ card: card(number), ...more }));
}

describe('test cards, direct payments (docs/test-cards.md, "The table")', () => {
  it.each(APPROVED)('approves %s as brand %i with result 0 Ok', async (number, brandId) => {
    const res = await pay(number);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(0);
    expect(res.body.description).toBe('Ok');
    expect(res.body.body.id).toMatch(UUID);
    expect(res.body.body.transaction.brandId).toBe(brandId);
    expect(res.body.body.card.firstSixDigits).toBe(number.slice(0, 6));
    expect(res.body.body.card.lastFourDigits).toBe(number.slice(-4));
    expect(res.text).not.toContain(number);
  });

  it.each(REFUSED)('answers %s with result %i (%s), its HTTP status and an error envelope', async (number, result) => {
    const res = await pay(number);
    expectError(res, { result, status: httpStatusOf(result) });
    expect(res.body.description).toBe(DESCRIPTION[result]);
    expect(res.text).not.toContain(number);
  });

  it('returns cvvResult N for 4000000000000127', async () => {
    const res = await pay('4000000000000127');
    expect(res.body.result).toBe(-4);
    expect(res.body.body.card.cvvResult).toBe('N');
  });

  it.each([
    ['4000000000000101', -3],
    ['4000000000000325', -5],
  ])('fails %s with %i on the first attempt for a trackingCode and approves the next one', async (number, result) => {
    const trackingCode = uniqueCode('retry');
    const first = await pay(number, { transaction: { trackingCode } });
    expectError(first, { result, status: 400 });
    const second = await pay(number, { transaction: { trackingCode } });
    expect(second.status, second.text).toBe(200);
    expect(second.body.result).toBe(0);
  });

  it('counts retry attempts per trackingCode: a new trackingCode fails its first attempt again', async () => {
    const first = await pay('4000000000000101', { transaction: { trackingCode: uniqueCode('r1') } });
    expect(first.body.result).toBe(-3);
    const other = await pay('4000000000000101', { transaction: { trackingCode: uniqueCode('r2') } });
    expect(other.body.result).toBe(-3);
  });

  it('answers 4000000000003220 (3-D Secure) with 2 Pending', async () => {
    const res = await pay('4000000000003220');
    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toBe(2);
    expect(res.body.description).toBe('Pending');
  });

  it('refuses a Luhn-invalid number with -1, 1002 naming body.card.number', async () => {
    expectInputError(await pay('4111111111111112'), 1002, 'body.card.number');
  });

  it('declines a Luhn-valid number of no brand the sandbox knows with -4 and a message about test cards', async () => {
    const res = await pay('9000000000001884');
    expectError(res, { result: -4, status: 400, message: /test card/i });
    expect(res.text).not.toContain('9000000000001884');
  });

  it('declines a past expiry as -4 (expired card)', async () => {
    const res = await pay('4111111111111111', { card: card('4111111111111111', { expiryMonth: '01', expiryYear: '2020' }) });
    expectError(res, { result: -4, status: 400, message: /expired/i });
  });

  it('refuses a brandId that is not the card brand with -1', async () => {
    const res = await pay('4111111111111111', { transaction: { brandId: 1020 } });
    expectError(res, { result: -1, status: 400 });
  });
});

describe('every card brand the sandbox offers has the common outcomes', () => {
  const cardBrands = BRANDS.filter((b) => b.kind === 'card');
  const common = ['approved', 'declined', '3ds'] as const;

  it.each(cardBrands.map((b) => [b.name, b.id] as const))(
    '%s (%i) has an approved, a declined and a 3-D Secure test card, Luhn-valid and in its own range',
    (_name, brandId) => {
      for (const outcome of common) {
        const card = TEST_CARDS.find((c) => c.brandId === brandId && c.outcome === outcome);
        expect(card, `${outcome} card of brand ${brandId}`).toBeDefined();
        expect(luhnValid(card!.number)).toBe(true);
        expect(detectBrand(card!.number)).toBe(brandId);
        // In the brand's range: the family a range check alone finds (Visa for VPay, Visa Electron and Visa Debit).
        expect(brandOfRange(card!.number)).toBe(RANGE_FAMILY[brandId] ?? brandId);
      }
    },
  );

  it.each(cardBrands.flatMap((b) => common.map((outcome) => [b.name, outcome, b.id] as const)))(
    '%s: the %s card answers as its outcome says on a direct payment',
    async (_name, outcome, brandId) => {
      const card = TEST_CARDS.find((c) => c.brandId === brandId && c.outcome === outcome)!;
      const res = await pay(card.number);
      expect(res.body.result, res.text).toBe(card.result);
      if (outcome !== 'declined') expect(res.body.body.transaction.brandId).toBe(brandId);
    },
  );
});

describe('test cards on the hosted form of a link (docs/test-cards.md, "The table")', () => {
  it.each(APPROVED)('pays a link with %s (brand %i)', async (number, brandId) => {
    const { link } = await createLink(sb, { link: { brandIds: [brandId] } });
    const back = await customerReturns(link.redirect.url, { number });
    const paymentId = back.searchParams.get('id');
    expect(paymentId).toMatch(UUID);
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(res.body.body.link.status).toBe('PAID');
    expect(res.body.body.payments[0].body.transaction.brandId).toBe(brandId);
  });

  it.each(REFUSED)('records %s as a %i entry in payments[] of the link', async (number, result) => {
    const { link } = await createLink(sb);
    await customerSubmits(link.redirect.url, { number });
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(res.body.description).toBe('Completed');
    const entry = res.body.body.payments[0];
    expect(entry.result).toBe(result);
    expect(entry.description).toBe(DESCRIPTION[result]);
    expect(entry.header.requestCode).toMatch(REQUEST_CODE);
    expect(res.body.body.link.status).toBe('READY');
  });

  it.each(['4000000000000101', '4000000000000325'])('fails %s on the first attempt for a link and approves the next', async (number) => {
    const { link } = await createLink(sb);
    expect((await customerSubmits(link.redirect.url, { number })).kind).toBe('page');
    await customerReturns(link.redirect.url, { number });
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(res.body.body.payments.map((p: any) => p.result)).toEqual([number.endsWith('101') ? -3 : -5, 0]);
    expect(res.body.body.link.status).toBe('PAID');
  });

  it('counts retry attempts per link: the first attempt on a second link fails too', async () => {
    const { link: a } = await createLink(sb);
    const { link: b } = await createLink(sb);
    await customerSubmits(a.redirect.url, { number: '4000000000000325' });
    await customerSubmits(b.redirect.url, { number: '4000000000000325' });
    for (const link of [a, b]) {
      const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
      expect(res.body.body.payments.map((p: any) => p.result)).toEqual([-5]);
    }
  });

  it('gives -10 when the customer cancels the 3-D Secure challenge', async () => {
    const { link } = await createLink(sb);
    await customerSubmits(link.redirect.url, { number: '4000000000003220', challengeCode: 'cancel' });
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(res.body.body.payments.at(-1).result).toBe(-10);
  });

  it('refuses a card whose brand is not in the link brandIds and charges nothing', async () => {
    const { link } = await createLink(sb, { link: { brandIds: [1020] } });
    const outcome = await customerSubmits(link.redirect.url, { number: '4111111111111111' });
    expect(outcome.kind).toBe('page');
    const res = await sb.get(`/gateway/v3/paymentlinks/${link.linkId}?businessId=conf-biz`);
    expect(res.body.body.link.status).toBe('READY');
    expect((res.body.body.payments ?? []).filter((p: any) => p.result === 0)).toHaveLength(0);
  });
});
