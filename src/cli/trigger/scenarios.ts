/**
 * The scenarios of `paylink trigger` (docs/cli.md, "paylink trigger"): each a name, what it shows, and the
 * steps a merchant's server and its customer take through the API and the hosted, 3-D Secure and bank
 * pages to get there. Data only: adding a scenario is adding an entry; `run.ts` plays the steps.
 */
import { THREE_DS_APPROVE_CODE, type OutcomeName } from '../../sandbox/domain/test-cards.js';

/** A step: what is done, and under which name its id is kept for later steps and the output. */
export type Step =
  /** A direct card payment (`POST /payments`) with the first test card of `outcome` (of `--brand` when given). */
  | {
      do: 'card-payment';
      as: string;
      outcome?: OutcomeName;
      authorize?: boolean;
      sameTrackingCodeAs?: string;
      /** `body.threeDSecure` sent with it (3DS 2.0: `{version: "2"}`). */
      threeDSecure?: Record<string, string>;
      /** A payment waiting for 3-D Secure: the customer answers its challenge with this code (null: cancel). */
      challengeCode?: string | null;
      /** The test card of `outcome` whose issuer knows 3-D Secure 1.0 only (a 3DS 2.0 request is downgraded). */
      threeDSecure1Only?: true;
    }
  /** A saved card (`POST /tokens`) of the scenario's customer id, approved card (of `--brand` when given). */
  | { do: 'token'; as: string }
  /** Capture, refund or cancel of the payment named `of`; `part` of what is left (default all). */
  | { do: 'capture' | 'refund' | 'cancel'; of: string; as: string; part?: number }
  /** A payment link or a checkout, its hosted page to be played by `hosted-page`. */
  | { do: 'link' | 'checkout'; as: string; tokenize?: 'inquire'; threeDSecure?: boolean; oneClick?: boolean }
  /** The customer on the hosted page of `of`: a test card of `outcome`, the 3-D Secure code (null: cancel), saving the card. */
  | { do: 'hosted-page'; of: string; outcome?: OutcomeName; threeDSCode?: string | null; saveCard?: boolean; savedCard?: boolean; as: string }
  /** A bank or wallet payment (iDEAL unless `--brand` names another), waiting for its page. */
  | { do: 'bank-payment'; as: string; amount?: number; authorize?: boolean }
  /** The customer on the bank or wallet page of `of`. */
  | { do: 'bank-page'; of: string; outcome: 'approved' | 'cancelled' | 'failed' }
  /** The merchant reads the payment `of` (a bank payment settles by the amount convention on a read). */
  | { do: 'read'; of: string }
  /** A credit: a payout to a card. */
  | { do: 'credit'; as: string }
  /** A SEPA Direct Debit (brand 6010) from a sandbox example account: answered at once. */
  | { do: 'sepa-debit'; as: string; authorize?: boolean }
  /** An AfterPay (5020) payment; `underAge` sends a customer born ten years ago (declined, 300400800). */
  | { do: 'afterpay'; as: string; underAge?: boolean };

export interface Scenario {
  name: string;
  /** What it produces, for `trigger --list`. */
  description: string;
  /** The events it makes, in order (for `--list` and the tests). */
  events: readonly string[];
  steps: readonly Step[];
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'payment.approved',
    description: 'A direct card payment, approved.',
    events: ['Transaction.Create'],
    steps: [{ do: 'card-payment', as: 'payment' }],
  },
  {
    name: 'payment.declined',
    description: 'A direct card payment declined by the issuer (-4, 3001).',
    events: ['Transaction.Create'],
    steps: [{ do: 'card-payment', as: 'payment', outcome: 'declined' }],
  },
  {
    name: 'payment.failed-retry',
    description: 'A direct payment answered -3 Failed, retry, then retried with the same tracking code and approved.',
    events: ['Transaction.Create', 'Transaction.Create'],
    steps: [
      { do: 'card-payment', as: 'first', outcome: 'failed-retry' },
      { do: 'card-payment', as: 'retry', outcome: 'failed-retry', sameTrackingCodeAs: 'first' },
    ],
  },
  {
    name: 'authorize.captured',
    description: 'An authorization, then captured in full.',
    events: ['Transaction.Create', 'Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'card-payment', as: 'authorization', authorize: true },
      { do: 'capture', of: 'authorization', as: 'capture' },
    ],
  },
  {
    name: 'payment.cancelled',
    description: 'An authorization, then cancelled (voided) before any capture.',
    events: ['Transaction.Create', 'Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'card-payment', as: 'authorization', authorize: true },
      { do: 'cancel', of: 'authorization', as: 'cancel' },
    ],
  },
  {
    name: 'refund.partial',
    description: 'An approved payment, then half of it refunded.',
    events: ['Transaction.Create', 'Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'card-payment', as: 'payment' },
      { do: 'refund', of: 'payment', as: 'refund', part: 0.5 },
    ],
  },
  {
    name: 'refund.full',
    description: 'An approved payment, then refunded in full.',
    events: ['Transaction.Create', 'Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'card-payment', as: 'payment' },
      { do: 'refund', of: 'payment', as: 'refund' },
    ],
  },
  {
    name: '3ds.approved',
    description: `A payment link paid with the 3-D Secure card; the customer passes the challenge (code ${THREE_DS_APPROVE_CODE}).`,
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'link', as: 'link' },
      { do: 'hosted-page', of: 'link', outcome: '3ds', threeDSCode: THREE_DS_APPROVE_CODE, as: 'payment' },
    ],
  },
  {
    name: '3ds.abandoned',
    description: 'A payment link paid with the 3-D Secure card; the customer abandons the challenge (cancel: -10, 3014).',
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'link', as: 'link' },
      { do: 'hosted-page', of: 'link', outcome: '3ds', threeDSCode: null, as: 'payment' },
    ],
  },
  {
    name: 'bank.approved',
    description: 'An iDEAL payment (or the --brand bank or wallet) approved by the customer on the bank page.',
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'bank-payment', as: 'payment' },
      { do: 'bank-page', of: 'payment', outcome: 'approved' },
    ],
  },
  {
    name: 'bank.cancelled',
    description: 'An iDEAL payment the customer cancels on the bank page (-10, 3011).',
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'bank-payment', as: 'payment' },
      { do: 'bank-page', of: 'payment', outcome: 'cancelled' },
    ],
  },
  {
    name: 'bank.failed',
    description: 'An iDEAL payment the bank fails (-2, 3006).',
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'bank-payment', as: 'payment' },
      { do: 'bank-page', of: 'payment', outcome: 'failed' },
    ],
  },
  {
    name: 'bank.expired',
    description: "An iDEAL payment the customer never finishes, read by the merchant as 4 Timeout (the provider's amount convention: 3.xx).",
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'bank-payment', as: 'payment', amount: 3.5 },
      { do: 'read', of: 'payment' },
    ],
  },
  {
    name: 'bank.authorize-is-payment',
    description: 'An iDEAL "authorize": a brand without separate capture makes it a final payment (action payment), approved on the bank page.',
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'bank-payment', as: 'payment', authorize: true },
      { do: 'bank-page', of: 'payment', outcome: 'approved' },
    ],
  },
  {
    name: 'checkout.3ds',
    description: `A checkout created with threeDSecure: true, its approved card sent through the challenge, code ${THREE_DS_APPROVE_CODE}; its payment carries the 3-D Secure results (version 1, authentication Y).`,
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'checkout', as: 'checkout', threeDSecure: true },
      { do: 'hosted-page', of: 'checkout', threeDSCode: THREE_DS_APPROVE_CODE, as: 'payment' },
    ],
  },
  {
    name: 'payment.3ds2-frictionless',
    description: 'A direct card payment with threeDSecure version 2 and an approved card: authenticated without a challenge (flow FRICTIONLESS).',
    events: ['Transaction.Create'],
    steps: [{ do: 'card-payment', as: 'payment', threeDSecure: { version: '2' } }],
  },
  {
    name: 'payment.3ds2-challenge',
    description: `A direct payment with threeDSecure version 2 and the 3-D Secure card: challenged (flow CHALLENGE), code ${THREE_DS_APPROVE_CODE} authenticates it.`,
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [{ do: 'card-payment', as: 'payment', outcome: '3ds', threeDSecure: { version: '2' }, challengeCode: THREE_DS_APPROVE_CODE }],
  },
  {
    name: 'payment.3ds2-downgrade',
    description: `A direct payment with threeDSecure version 2 and the card whose issuer knows 3-D Secure 1.0 only: downgraded, challenged as 3DS 1.0 (threeDSecure.version "1", no flow), code ${THREE_DS_APPROVE_CODE} authenticates it.`,
    events: ['Transaction.Create', 'Transaction.Update'],
    steps: [
      { do: 'card-payment', as: 'payment', outcome: '3ds', threeDSecure1Only: true, threeDSecure: { version: '2' }, challengeCode: THREE_DS_APPROVE_CODE },
    ],
  },
  {
    name: 'checkout.one-click',
    description: 'A card saved for a customer id, then a one-click checkout (useCustomerTokens) paid with that saved card and its CVV only: a token payment.',
    events: ['Transaction.Create'],
    steps: [
      { do: 'token', as: 'token' },
      { do: 'checkout', as: 'checkout', oneClick: true },
      { do: 'hosted-page', of: 'checkout', savedCard: true, as: 'payment' },
    ],
  },
  {
    name: 'checkout.tokenized',
    description: 'A checkout with tokenize inquire, paid with "save card" ticked: the payment carries the new token.',
    events: ['Transaction.Create'],
    steps: [
      { do: 'checkout', as: 'checkout', tokenize: 'inquire' },
      { do: 'hosted-page', of: 'checkout', saveCard: true, as: 'payment' },
    ],
  },
  {
    name: 'checkout.declined',
    description: 'A checkout whose customer pays with a declined card.',
    events: ['Transaction.Create'],
    steps: [
      { do: 'checkout', as: 'checkout' },
      { do: 'hosted-page', of: 'checkout', outcome: 'declined', as: 'payment' },
    ],
  },
  {
    name: 'link.paid',
    description: 'A payment link paid by the customer on its hosted page.',
    events: ['Transaction.Create'],
    steps: [
      { do: 'link', as: 'link' },
      { do: 'hosted-page', of: 'link', as: 'payment' },
    ],
  },
  {
    name: 'sepa-debit.captured',
    description: 'A SEPA Direct Debit (6010) authorization, half captured, the rest captured, then the whole refunded.',
    events: [
      'Transaction.Create',
      'Transaction.Create',
      'Transaction.Update',
      'Transaction.Create',
      'Transaction.Update',
      'Transaction.Create',
      'Transaction.Update',
    ],
    steps: [
      { do: 'sepa-debit', as: 'authorization', authorize: true },
      { do: 'capture', of: 'authorization', as: 'capture', part: 0.5 },
      { do: 'capture', of: 'authorization', as: 'rest', part: 0.5 },
      { do: 'refund', of: 'authorization', as: 'refund' },
    ],
  },
  {
    name: 'afterpay.under-age',
    description: 'An AfterPay (5020) payment for a customer under 18: declined, -4, code 300400800 "Age is under 18".',
    events: ['Transaction.Create'],
    steps: [{ do: 'afterpay', as: 'payment', underAge: true }],
  },
  {
    name: 'credit.settled',
    description: 'A credit (a payout to a card), approved.',
    events: ['Transaction.Create'],
    steps: [{ do: 'credit', as: 'credit' }],
  },
];

export function scenarioNamed(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name.toLowerCase());
}
