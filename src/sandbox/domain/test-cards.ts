/**
 * The sandbox's test cards (docs/test-cards.md, "The table"): the only card numbers it processes, each with the
 * outcome it asks for. Shared by the outcome engine, the hosted pages' sandbox banner and the CLI's
 * `--outcome` names.
 */
import { FAILURES, RESULTS, type Failure } from '../errors.js';
import { brandOfRange } from './cards.js';
import type { OutcomeName } from './outcome-names.js';

export { OUTCOME_NAMES, type OutcomeName } from './outcome-names.js';

export interface TestCard {
  number: string;
  brandId: number;
  outcome: OutcomeName;
  /** Result the card produces, derived from its outcome (for `3ds`, 2 until the challenge decides). */
  result: number;
  /** What a person reads in the docs and on the hosted page's sandbox banner. */
  label: string;
  /**
   * The issuer knows 3-D Secure 1.0 only: a 3DS 2.0 request is downgraded to 1.0 (the portal's "3DS 2.0 with
   * Payments API": the integrated 3DS server runs the frictionless, challenge or downgrade-to-3DS 1.0 flow).
   */
  threeDSecure1Only?: true;
}

/**
 * What a charge does: a test card's outcome; for a Luhn-valid number outside the table, what the provider's
 * staging did ({@link behaviourOfNumber}); `not-a-test-card` for one of no brand the sandbox knows.
 */
export type Behaviour = OutcomeName | 'not-a-test-card';

/** The catalogue failure of each failing behaviour: the one source of their results, codes and messages. */
export const FAILURE_OF_BEHAVIOUR: Partial<Record<Behaviour, Failure>> = {
  declined: FAILURES.declined,
  'insufficient-funds': FAILURES.insufficientFunds,
  'expired-card': FAILURES.expiredCard,
  'cvv-mismatch': FAILURES.cvvMismatch,
  failed: FAILURES.failed,
  'failed-retry': FAILURES.failedRetry,
  'declined-retry': FAILURES.declinedRetry,
  'business-rule': FAILURES.businessRule,
  fraud: FAILURES.fraud,
  'customer-cancelled': FAILURES.customerCancelled,
  referral: FAILURES.referral,
  'internal-error': FAILURES.internalError,
  'not-a-test-card': FAILURES.notATestCard,
};

/** The result an outcome gives on its first attempt: 0 approved, 2 for the 3-D Secure card, else its failure's. */
export function resultOfOutcome(outcome: OutcomeName): number {
  if (outcome === 'approved') return RESULTS.ok.result;
  if (outcome === '3ds') return RESULTS.pending.result;
  return RESULTS[FAILURE_OF_BEHAVIOUR[outcome]!.kind].result;
}

function row(number: string, brandId: number, outcome: OutcomeName, label: string, more: Pick<TestCard, 'threeDSecure1Only'> = {}): TestCard {
  return { number, brandId, outcome, result: resultOfOutcome(outcome), label, ...more };
}

export const TEST_CARDS: readonly TestCard[] = [
  row('4111111111111111', 1010, 'approved', 'VISA, approved'),
  row('4242424242424242', 1010, 'approved', 'VISA, approved'),
  row('5555555555554444', 1020, 'approved', 'MasterCard, approved'),
  row('5105105105105100', 1020, 'approved', 'MasterCard, approved'),
  row('378282246310005', 1030, 'approved', 'American Express, approved'),
  row('6759649826438453', 1050, 'approved', 'Maestro, approved'),
  row('4026000000000002', 1011, 'approved', 'Visa Electron, approved'),
  row('4000056655665556', 1013, 'approved', 'Visa Debit, approved'),
  row('5200828282828210', 1023, 'approved', 'MasterCard Debit, approved'),
  row('6011111111111117', 1040, 'approved', 'Discover, approved'),
  row('36227206271667', 1060, 'approved', 'Diners Club, approved'),
  row('3566002020360505', 1090, 'approved', 'JCB, approved'),
  row('6703444444444449', 1210, 'approved', 'Bancontact, approved'),
  row('4000000000000002', 1010, 'declined', 'Declined'),
  row('4000000000009995', 1010, 'insufficient-funds', 'Declined: insufficient funds'),
  row('4000000000000069', 1010, 'expired-card', 'Declined: expired card'),
  row('4000000000000127', 1010, 'cvv-mismatch', 'Declined: CVV mismatch (cvvResult N)'),
  row('4000000000000119', 1010, 'failed', 'Failed'),
  row('4000000000000101', 1010, 'failed-retry', 'Failed, retry (first attempt only)'),
  row('4000000000000325', 1010, 'declined-retry', 'Declined, retry (first attempt only)'),
  row('4000000000000317', 1010, 'business-rule', 'Business rule error'),
  row('4000000000000259', 1010, 'fraud', 'Fraud'),
  row('4000000000000036', 1010, 'customer-cancelled', 'Customer processing error'),
  row('4000000000000341', 1010, 'referral', 'Referrals'),
  row('4000000000000010', 1010, 'internal-error', 'Internal error (HTTP 500)'),
  row('4000000000003220', 1010, '3ds', '3-D Secure challenge (code 1234 approves)'),
  row('4000000000001000', 1010, '3ds', '3-D Secure 1.0 only: a 3DS 2.0 request is downgraded (code 1234 approves)', { threeDSecure1Only: true }),
  // The main outcomes in the other common brands, so a link that takes no Visa still offers them.
  row('5100000000000008', 1020, 'declined', 'MasterCard, declined'),
  row('5100000000000115', 1020, 'failed', 'MasterCard, failed'),
  row('5200000000003225', 1020, '3ds', 'MasterCard, 3-D Secure challenge (code 1234 approves)'),
  row('370000000000002', 1030, 'declined', 'American Express, declined'),
  row('370000000000119', 1030, 'failed', 'American Express, failed'),
  row('370000000003220', 1030, '3ds', 'American Express, 3-D Secure challenge (code 1234 approves)'),
  // Every other card brand the sandbox offers: an approved, a declined and a 3-D Secure card each.
  row('4370000000001119', 1015, 'approved', 'VPay, approved'),
  row('4370000000000004', 1015, 'declined', 'VPay, declined'),
  row('4370000000003222', 1015, '3ds', 'VPay, 3-D Secure challenge (code 1234 approves)'),
  row('4917000000000004', 1011, 'declined', 'Visa Electron, declined'),
  row('4917000000003222', 1011, '3ds', 'Visa Electron, 3-D Secure challenge (code 1234 approves)'),
  row('4000056000000004', 1013, 'declined', 'Visa Debit, declined'),
  row('4000056000003222', 1013, '3ds', 'Visa Debit, 3-D Secure challenge (code 1234 approves)'),
  row('5200820000000008', 1023, 'declined', 'MasterCard Debit, declined'),
  row('5200820000003226', 1023, '3ds', 'MasterCard Debit, 3-D Secure challenge (code 1234 approves)'),
  row('6011000000000004', 1040, 'declined', 'Discover, declined'),
  row('6011000000003222', 1040, '3ds', 'Discover, 3-D Secure challenge (code 1234 approves)'),
  row('6759000000000000', 1050, 'declined', 'Maestro, declined'),
  row('6759000000003228', 1050, '3ds', 'Maestro, 3-D Secure challenge (code 1234 approves)'),
  row('36000000000008', 1060, 'declined', 'Diners Club, declined'),
  row('36000000003226', 1060, '3ds', 'Diners Club, 3-D Secure challenge (code 1234 approves)'),
  row('3566000000000000', 1090, 'declined', 'JCB, declined'),
  row('3566000000003228', 1090, '3ds', 'JCB, 3-D Secure challenge (code 1234 approves)'),
  row('6703000000000007', 1210, 'declined', 'Bancontact, declined'),
  row('6703000000003225', 1210, '3ds', 'Bancontact, 3-D Secure challenge (code 1234 approves)'),
];

const BY_NUMBER = new Map(TEST_CARDS.map((card) => [card.number, card]));

/** The test card with this number (digits only), if it is one. */
export function testCard(number: string): TestCard | undefined {
  return BY_NUMBER.get(number);
}

/** The first test card for an outcome name (the CLI's `--outcome`), in one of `acceptedBrandIds` when one is. */
export function cardForOutcome(outcome: OutcomeName, acceptedBrandIds?: readonly number[]): TestCard | undefined {
  const accepted = acceptedBrandIds === undefined ? undefined : TEST_CARDS.find((card) => card.outcome === outcome && acceptedBrandIds.includes(card.brandId));
  return accepted ?? TEST_CARDS.find((card) => card.outcome === outcome);
}

/** The 3-D Secure code that approves a challenge. */
export const THREE_DS_APPROVE_CODE = '1234';

/** Luhn checksum of a digit string. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = number.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * What a charge of this (Luhn-valid) number does. A test card: its outcome. Another number of a card brand
 * the sandbox knows (by its range): what the provider's staging did with such a card in a recorded suite
 * (etrias' functional tests paid with 4444333322221111 and got 2 Pending with a 3-D Secure redirect), so the
 * 3-D Secure challenge, where code 1234 approves. A number of no known brand: `not-a-test-card` (3005).
 * The number itself is never stored, whichever it is.
 */
export function behaviourOfNumber(number: string): Behaviour {
  const known = testCard(number);
  if (known !== undefined) return known.outcome;
  const brandId = brandOfRange(number);
  return brandId !== undefined ? '3ds' : 'not-a-test-card';
}

/**
 * The brand of a card number: from the test-card table, else from its number's range (IIN,
 * domain/cards.ts `CARD_RANGES`). Undefined when no range matches.
 */
export function detectBrand(number: string): number | undefined {
  return testCard(number)?.brandId ?? brandOfRange(number);
}
