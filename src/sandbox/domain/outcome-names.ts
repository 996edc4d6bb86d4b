/**
 * The outcomes a test card can ask for, as the CLI's `--outcome`, fixtures and the dashboard name them:
 * the one list the type is made from. Its own tiny module so the CLI's help reads it without loading the
 * card table and the error catalogue (`test/unit/outcomes.test.ts` checks every name has a card).
 */
export const OUTCOME_NAMES = [
  'approved',
  'declined',
  'insufficient-funds',
  'expired-card',
  'cvv-mismatch',
  'failed',
  'failed-retry',
  'declined-retry',
  'business-rule',
  'fraud',
  'customer-cancelled',
  'referral',
  'internal-error',
  '3ds',
] as const;

/** An outcome name. */
export type OutcomeName = (typeof OUTCOME_NAMES)[number];
