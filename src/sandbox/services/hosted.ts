/**
 * The hosted pages (links, checkouts, card redirect payments, 3-D Secure, bank and wallet pages) as their
 * handlers ask for them: the record a page shows, found by its id whatever its business (the id in the
 * URL is the capability a customer holds), and each post of a form run in one write with its one-time
 * token (services/submission.ts), so a double click never makes two payments.
 */
import type { Parent } from '../domain/lifecycle.js';
import type { PaymentRecord } from '../domain/records.js';
import { notFound } from '../errors.js';
import { settleBankPayment, simulatorFlow, type Settlement } from './bank.js';
import type { Deps } from './deps.js';
import {
  issueFormToken,
  loadParent,
  openChallenge,
  parentOfPayment,
  playCustomer,
  submitCardForm,
  submitChallenge,
  submitPaymentForm,
  type CardFormPost,
  type ChallengeOutcome,
  type ChallengePost,
  type CustomerPlay,
  type PaymentFormOutcome,
  type SubmissionDeps,
  type SubmissionOutcome,
  savedCards,
} from './submission.js';

/** The link or checkout of a hosted page; 404 when there is none. */
export function hostedParent(deps: Pick<Deps, 'links' | 'checkouts'>, kind: Parent['kind'], id: string): Parent {
  const parent = loadParent(deps, kind, id);
  if (!parent) throw notFound(kind === 'link' ? 'Payment link' : 'Checkout');
  return parent;
}

/** The payment of a hosted page (3-D Secure, card form of a redirect payment); 404 when there is none. */
export function hostedPayment(deps: Pick<Deps, 'payments'>, paymentId: string): PaymentRecord {
  const payment = deps.payments.get(paymentId);
  if (!payment) throw notFound('Payment');
  return payment;
}

/** The payment that paid a link or checkout, if one did. */
export function paidPaymentId(deps: Pick<Deps, 'payments'>, parent: Parent): string | undefined {
  return parent.record.paymentIds.find((id) => deps.payments.get(id)?.result === 0);
}

/** Posts the card form of a link or checkout; returns what it led to. */
export function postCardForm(deps: SubmissionDeps, parent: Parent, post: CardFormPost): Promise<SubmissionOutcome> {
  return deps.store.write(() => submitCardForm(deps, parent, post));
}

/** Posts the 3-D Secure form of a payment; returns what it led to and the payment as it is after it. */
export async function postChallenge(
  deps: SubmissionDeps,
  payment: PaymentRecord,
  post: ChallengePost,
): Promise<{ outcome: ChallengeOutcome; current: PaymentRecord }> {
  const outcome = await deps.store.write(() => submitChallenge(deps, payment, post));
  return { outcome, current: deps.payments.get(payment.id) ?? payment };
}

/** Posts the card form of a card redirect payment; returns what it led to. */
export function postPaymentForm(deps: SubmissionDeps, payment: PaymentRecord, post: CardFormPost): Promise<PaymentFormOutcome> {
  return deps.store.write(() => submitPaymentForm(deps, payment, post));
}

/** Plays the customer on a link or checkout (the dashboard's "pay as customer") in one write; returns the parent as it ends. */
export function playCustomerNow(deps: SubmissionDeps, kind: Parent['kind'], id: string, play: (parent: Parent) => CustomerPlay): Promise<Parent> {
  return deps.store.write(() => {
    const parent = hostedParent(deps, kind, id);
    return playCustomer(deps, parent, play(parent));
  });
}

/** The payment of a bank or wallet page; 404 when there is none of that flow. */
export function simulatorPayment(deps: Pick<Deps, 'payments'>, flow: 'bank' | 'wallet', paymentId: string): PaymentRecord {
  const payment = deps.payments.get(paymentId);
  if (!payment || simulatorFlow(payment) !== flow) throw notFound(flow === 'wallet' ? 'Wallet payment' : 'Bank payment');
  return payment;
}

/** A button of the bank or wallet page: settles the payment (read again inside the write) and returns it. */
export function pressSimulatorButton(
  deps: Pick<Deps, 'store' | 'payments' | 'clock'>,
  payment: PaymentRecord,
  how: Settlement,
  chosenIssuerId?: string,
): Promise<PaymentRecord> {
  return deps.store.write(() => settleBankPayment(deps, deps.payments.get(payment.id) ?? payment, how, chosenIssuerId));
}

/** Which hosted resource an id names, for the library's demo page. */
export function hostedKindOf(deps: Pick<Deps, 'links' | 'checkouts'>, id: string): 'paymentlink' | 'checkout' | undefined {
  return deps.links.get(id) ? 'paymentlink' : deps.checkouts.get(id) ? 'checkout' : undefined;
}

export { issueFormToken, openChallenge, parentOfPayment, savedCards };
