/**
 * The sandbox's test cards (SANDBOX.md, "Test cards"): the only card numbers it processes, each with the
 * outcome it asks for. Shared by the outcome engine, the hosted pages' sandbox banner and the CLI's
 * `--outcome` names.
 */

/** Outcome names, as the CLI's `--outcome` takes them. */
export type OutcomeName =
  | 'approved'
  | 'declined'
  | 'insufficient-funds'
  | 'expired-card'
  | 'cvv-mismatch'
  | 'failed'
  | 'failed-retry'
  | 'declined-retry'
  | 'business-rule'
  | 'fraud'
  | 'customer-cancelled'
  | 'referral'
  | 'internal-error'
  | '3ds';

export interface TestCard {
  number: string;
  brandId: number;
  outcome: OutcomeName;
  /** Result the card produces (for `3ds`, the challenge decides). */
  result: number;
  /** What a person reads in the docs and on the hosted page's sandbox banner. */
  label: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brandId: 1010, outcome: 'approved', result: 0, label: 'VISA, approved' },
  { number: '4242424242424242', brandId: 1010, outcome: 'approved', result: 0, label: 'VISA, approved' },
  { number: '5555555555554444', brandId: 1020, outcome: 'approved', result: 0, label: 'MasterCard, approved' },
  { number: '5105105105105100', brandId: 1020, outcome: 'approved', result: 0, label: 'MasterCard, approved' },
  { number: '378282246310005', brandId: 1030, outcome: 'approved', result: 0, label: 'American Express, approved' },
  { number: '6759649826438453', brandId: 1050, outcome: 'approved', result: 0, label: 'Maestro, approved' },
  { number: '4026000000000002', brandId: 1011, outcome: 'approved', result: 0, label: 'Visa Electron, approved' },
  { number: '4000056655665556', brandId: 1013, outcome: 'approved', result: 0, label: 'Visa Debit, approved' },
  { number: '5200828282828210', brandId: 1023, outcome: 'approved', result: 0, label: 'MasterCard Debit, approved' },
  { number: '6011111111111117', brandId: 1040, outcome: 'approved', result: 0, label: 'Discover, approved' },
  { number: '36227206271667', brandId: 1060, outcome: 'approved', result: 0, label: 'Diners Club, approved' },
  { number: '3566002020360505', brandId: 1090, outcome: 'approved', result: 0, label: 'JCB, approved' },
  { number: '6703444444444449', brandId: 1210, outcome: 'approved', result: 0, label: 'Bancontact, approved' },
  { number: '4000000000000002', brandId: 1010, outcome: 'declined', result: -4, label: 'Declined' },
  { number: '4000000000009995', brandId: 1010, outcome: 'insufficient-funds', result: -4, label: 'Declined: insufficient funds' },
  { number: '4000000000000069', brandId: 1010, outcome: 'expired-card', result: -4, label: 'Declined: expired card' },
  { number: '4000000000000127', brandId: 1010, outcome: 'cvv-mismatch', result: -4, label: 'Declined: CVV mismatch (cvvResult N)' },
  { number: '4000000000000119', brandId: 1010, outcome: 'failed', result: -2, label: 'Failed' },
  { number: '4000000000000101', brandId: 1010, outcome: 'failed-retry', result: -3, label: 'Failed, retry (first attempt only)' },
  { number: '4000000000000325', brandId: 1010, outcome: 'declined-retry', result: -5, label: 'Declined, retry (first attempt only)' },
  { number: '4000000000000317', brandId: 1010, outcome: 'business-rule', result: -8, label: 'Business rule error' },
  { number: '4000000000000259', brandId: 1010, outcome: 'fraud', result: -9, label: 'Fraud' },
  { number: '4000000000000036', brandId: 1010, outcome: 'customer-cancelled', result: -10, label: 'Customer processing error' },
  { number: '4000000000000341', brandId: 1010, outcome: 'referral', result: -11, label: 'Referrals' },
  { number: '4000000000000010', brandId: 1010, outcome: 'internal-error', result: -7, label: 'Internal error (HTTP 500)' },
  { number: '4000000000003220', brandId: 1010, outcome: '3ds', result: 2, label: '3-D Secure challenge (code 1234 approves)' },
];

const BY_NUMBER = new Map(TEST_CARDS.map((card) => [card.number, card]));

/** The test card with this number (digits only), if it is one. */
export function testCard(number: string): TestCard | undefined {
  return BY_NUMBER.get(number);
}

/** The first test card for an outcome name (the CLI's `--outcome`). */
export function cardForOutcome(outcome: OutcomeName): TestCard | undefined {
  return TEST_CARDS.find((card) => card.outcome === outcome);
}

/** Every outcome name, in table order, without repeats. */
export const OUTCOME_NAMES: readonly OutcomeName[] = [...new Set(TEST_CARDS.map((card) => card.outcome))];

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
 * The brand of a card number: from the test-card table, else from its number's range (IIN). Undefined when
 * no range matches.
 */
export function detectBrand(number: string): number | undefined {
  const known = testCard(number);
  if (known) return known.brandId;
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  const six = Number(number.slice(0, 6));
  if (number.startsWith('34') || number.startsWith('37')) return 1030;
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 1020;
  if (number.startsWith('6011') || number.startsWith('65') || (six >= 622126 && six <= 622925) || (Number(number.slice(0, 3)) >= 644 && Number(number.slice(0, 3)) <= 649)) return 1040;
  if (four >= 3528 && four <= 3589) return 1090;
  if (number.startsWith('36') || number.startsWith('38') || number.startsWith('39') || (Number(number.slice(0, 3)) >= 300 && Number(number.slice(0, 3)) <= 305)) return 1060;
  if (number.startsWith('6703')) return 1210;
  if (number.startsWith('50') || (two >= 56 && two <= 69)) return 1050;
  if (number.startsWith('4')) return 1010;
  return undefined;
}
