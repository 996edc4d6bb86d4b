import { describe, expect, it } from 'vitest';
import { SeededIds } from '../../src/sandbox/domain/ids.js';
import { challengeOutcome, decideOutcome, type OutcomeInput } from '../../src/sandbox/domain/outcomes.js';
import { OUTCOME_NAMES, TEST_CARDS } from '../../src/sandbox/domain/test-cards.js';

function input(patch: Partial<OutcomeInput>): OutcomeInput {
  return { behaviour: 'approved', brandId: 1010, expired: false, cvvPresented: true, retryAttempt: 1, ...patch };
}

/** What each test card must produce on a first attempt: result, HTTP status and error code. */
const EXPECTED: Record<string, { result: number; description: string; httpStatus: number; code?: number }> = {
  approved: { result: 0, description: 'Ok', httpStatus: 200 },
  declined: { result: -4, description: 'Declined', httpStatus: 400, code: 3001 },
  'insufficient-funds': { result: -4, description: 'Declined', httpStatus: 400, code: 3002 },
  'expired-card': { result: -4, description: 'Declined', httpStatus: 400, code: 3003 },
  'cvv-mismatch': { result: -4, description: 'Declined', httpStatus: 400, code: 3004 },
  failed: { result: -2, description: 'Failed', httpStatus: 400, code: 3006 },
  'failed-retry': { result: -3, description: 'Failed, retry', httpStatus: 400, code: 3007 },
  'declined-retry': { result: -5, description: 'Declined, retry', httpStatus: 400, code: 3008 },
  'business-rule': { result: -8, description: 'Business rule error', httpStatus: 400, code: 3009 },
  fraud: { result: -9, description: 'Fraud', httpStatus: 400, code: 3010 },
  'customer-cancelled': { result: -10, description: 'Customer processing error', httpStatus: 400, code: 3011 },
  referral: { result: -11, description: 'Referrals', httpStatus: 400, code: 3012 },
  'internal-error': { result: -7, description: 'Internal server error', httpStatus: 500, code: 3013 },
  '3ds': { result: 2, description: 'Pending', httpStatus: 200 },
};

describe('the outcome names', () => {
  it('lists exactly the outcomes of the test-card table, in table order', () => {
    expect(OUTCOME_NAMES).toEqual([...new Set(TEST_CARDS.map((card) => card.outcome))]);
  });
});

describe('outcome engine', () => {
  for (const card of TEST_CARDS) {
    it(`gives test card ${card.number} (${card.label}) result ${card.result} with its brand ${card.brandId}`, () => {
      const outcome = decideOutcome(input({ behaviour: card.outcome, brandId: card.brandId }), new SeededIds('t'));
      const expected = EXPECTED[card.outcome]!;
      expect(outcome.result).toBe(card.result);
      expect(outcome.result).toBe(expected.result);
      expect(outcome.description).toBe(expected.description);
      expect(outcome.httpStatus).toBe(expected.httpStatus);
      expect(outcome.brandId).toBe(card.brandId);
      expect(outcome.error?.code).toBe(expected.code);
      if (outcome.result === 0) expect(outcome.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
      else expect(outcome.approvalCode).toBe('');
      expect(outcome.challenge).toBe(card.outcome === '3ds');
      if (outcome.error) expect(outcome.error.message).not.toMatch(/\d{12}/);
    });
  }

  it('answers cvvResult M and avsResult Y for an approved card with a CVV', () => {
    const outcome = decideOutcome(input({}), new SeededIds('t'));
    expect([outcome.cvvResult, outcome.avsResult]).toEqual(['M', 'Y']);
  });

  it('answers cvvResult N for the CVV-mismatch card', () => {
    expect(decideOutcome(input({ behaviour: 'cvv-mismatch' }), new SeededIds('t')).cvvResult).toBe('N');
  });

  it('answers cvvResult P when no CVV was presented (token payments)', () => {
    expect(decideOutcome(input({ cvvPresented: false }), new SeededIds('t')).cvvResult).toBe('P');
  });

  it('declines a past expiry as an expired card whatever the card asks for', () => {
    const outcome = decideOutcome(input({ expired: true }), new SeededIds('t'));
    expect(outcome.result).toBe(-4);
    expect(outcome.error?.code).toBe(3003);
  });

  it('declines a Luhn-valid number outside the table with a message that only test cards are taken', () => {
    const outcome = decideOutcome(input({ behaviour: 'not-a-test-card', brandId: 0 }), new SeededIds('t'));
    expect(outcome.result).toBe(-4);
    expect(outcome.error?.code).toBe(3005);
    expect(outcome.error?.message).toMatch(/only test cards/);
  });

  it('approves the retry cards on their second attempt', () => {
    for (const behaviour of ['failed-retry', 'declined-retry'] as const) {
      expect(decideOutcome(input({ behaviour, retryAttempt: 1 }), new SeededIds('t')).result).toBeLessThan(0);
      expect(decideOutcome(input({ behaviour, retryAttempt: 2 }), new SeededIds('t')).result).toBe(0);
    }
  });

  it('sends an approved card through the challenge when 3-D Secure is forced, and approves once it passed', () => {
    expect(decideOutcome(input({ forceThreeDSecure: true }), new SeededIds('t')).result).toBe(2);
    expect(decideOutcome(input({ forceThreeDSecure: true, skipThreeDSecure: true }), new SeededIds('t')).result).toBe(0);
    expect(decideOutcome(input({ behaviour: '3ds', skipThreeDSecure: true }), new SeededIds('t')).result).toBe(0);
  });

  it('does not challenge a declining card when 3-D Secure is forced', () => {
    expect(decideOutcome(input({ behaviour: 'declined', forceThreeDSecure: true }), new SeededIds('t')).result).toBe(-4);
  });

  it('is deterministic given the id source', () => {
    const a = decideOutcome(input({}), new SeededIds('same'));
    const b = decideOutcome(input({}), new SeededIds('same'));
    expect(a).toEqual(b);
  });

  it('approves a challenge with code 1234 and fails it with another code or a cancel', () => {
    expect(challengeOutcome('1234', '1234', 1010, true, new SeededIds('t')).result).toBe(0);
    const wrong = challengeOutcome('0000', '1234', 1010, true, new SeededIds('t'));
    expect([wrong.result, wrong.error?.code]).toEqual([-10, 3014]);
    expect(challengeOutcome(null, '1234', 1010, true, new SeededIds('t')).result).toBe(-10);
  });
});
