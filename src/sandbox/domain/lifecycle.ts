/**
 * The lifecycle of links, checkouts and payments (docs/hosted-pages.md, "Lifecycle on submission"): every state a resource can be
 * in, every transition between them, and what each state answers. Pure: the time is passed in, records go
 * in and new records come out; services store them.
 */
import { businessRule, ERROR_CODES, RESULTS, type ResultKind } from '../errors.js';
import type { CheckoutRecord, CheckoutState, LinkRecord, LinkStatus, LinkStoredStatus, CheckoutStoredState, PaymentRecord } from './records.js';

/** A checkout identifier is valid for 30 minutes (docs/api.md). */
export const CHECKOUT_VALIDITY_MS = 30 * 60_000;

/** Failed attempts after which a link or checkout is declined. */
export const MAX_ATTEMPTS = 3;

/** The link's status at `now`: a link still open (READY or PENDING) past its expiration time is EXPIRED. */
export function linkStatus(link: LinkRecord, now: number): LinkStatus {
  if ((link.status === 'READY' || link.status === 'PENDING') && now >= link.expiresAt) return 'EXPIRED';
  return link.status;
}

/** The checkout's state at `now`: still pending after its 30 minutes is TIMEOUT. */
export function checkoutState(checkout: CheckoutRecord, now: number): CheckoutState {
  if (checkout.state === 'PENDING' && now >= checkout.expiresAt) return 'TIMEOUT';
  return checkout.state;
}

// ---- Links and checkouts as the customer's hosted page sees them ----

/** A link or checkout, tagged. */
export type Parent = { kind: 'link'; record: LinkRecord } | { kind: 'checkout'; record: CheckoutRecord };

/** Where a link or checkout stands for the customer. */
export type ParentState = 'open' | 'challenge' | 'expired' | 'cancelled' | 'paid' | 'declined' | 'declinedbycustomer';

/** How a flow ended when the browser goes back to the merchant. */
export type Ending = 'paid' | 'declined' | 'declinedbycustomer';

/** The customer's view of each API status (a checkout's PENDING depends on an open challenge, below). */
const STATE_OF_STATUS: Record<LinkStatus | CheckoutState, ParentState> = {
  READY: 'open',
  PENDING: 'challenge',
  EXPIRED: 'expired',
  TIMEOUT: 'expired',
  CANCELLED: 'cancelled',
  PAID: 'paid',
  DECLINED: 'declined',
  DECLINEDBYCUSTOMER: 'declinedbycustomer',
};

/** The parent's state at `now`. */
export function parentState(parent: Parent, now: number): ParentState {
  if (parent.kind === 'link') return STATE_OF_STATUS[linkStatus(parent.record, now)];
  const state = checkoutState(parent.record, now);
  if (state === 'PENDING') return parent.record.challengeOpen ? 'challenge' : 'open';
  return STATE_OF_STATUS[state];
}

/** The API status of a link or checkout at `now` (link status, or checkout state). */
export function parentStatus(parent: Parent, now: number): LinkStatus | CheckoutState {
  return parent.kind === 'link' ? linkStatus(parent.record, now) : checkoutState(parent.record, now);
}

/** How the parent's flow ended for the customer, or undefined while it is open, expired or cancelled. */
export function endingOf(parent: Parent, now: number): Ending | undefined {
  const state = parentState(parent, now);
  return state === 'paid' || state === 'declined' || state === 'declinedbycustomer' ? state : undefined;
}

/** Where a submission moves a parent: one of the open states, or an ending. */
export type ParentMove = 'open' | 'challenge' | Ending;

const LINK_STATUS_AFTER: Record<ParentMove, LinkStoredStatus> = {
  open: 'READY',
  challenge: 'PENDING',
  paid: 'PAID',
  declined: 'DECLINED',
  declinedbycustomer: 'DECLINEDBYCUSTOMER',
};

const CHECKOUT_STATE_AFTER: Record<ParentMove, CheckoutStoredState> = {
  open: 'PENDING',
  challenge: 'PENDING',
  paid: 'PAID',
  declined: 'DECLINED',
  declinedbycustomer: 'DECLINEDBYCUSTOMER',
};

/**
 * The parent after its lifecycle moved to `to`; an attempt's `payment` is counted and remembered.
 */
export function moveParent(parent: Parent, to: ParentMove, now: number, payment?: PaymentRecord): Parent {
  const attempts = parent.record.attempts + (payment ? 1 : 0);
  const paymentIds = payment ? [...parent.record.paymentIds, payment.id] : parent.record.paymentIds;
  if (parent.kind === 'link') {
    return { kind: 'link', record: { ...parent.record, status: LINK_STATUS_AFTER[to], attempts, paymentIds, updatedAt: now } };
  }
  const record: CheckoutRecord = {
    ...parent.record,
    state: CHECKOUT_STATE_AFTER[to],
    challengeOpen: to === 'challenge',
    attempts,
    paymentIds,
    updatedAt: now,
  };
  return { kind: 'checkout', record };
}

/**
 * Where an attempt's payment leaves its parent (which already counts it): paid, the open challenge,
 * declined after the last allowed attempt, or open for another try.
 */
export function moveAfterAttempt(parent: Parent, payment: PaymentRecord): ParentMove {
  if (payment.result === 0) return 'paid';
  if (payment.result === 2) return 'challenge';
  return parent.record.attempts >= MAX_ATTEMPTS ? 'declined' : 'open';
}

/** Attempts the customer has left on this parent. */
export function attemptsLeft(parent: Parent): number {
  return Math.max(0, MAX_ATTEMPTS - parent.record.attempts);
}

/** A checkout whose open challenge was abandoned (expired while it was open): the challenge is closed. */
export function closeChallenge(checkout: CheckoutRecord, now: number): CheckoutRecord {
  return { ...checkout, challengeOpen: false, updatedAt: now };
}

/** A link cancelled by the merchant (docs/api.md): only a READY or PENDING link can be, else -8. */
export function cancelLink(link: LinkRecord, now: number): LinkRecord {
  const status = linkStatus(link, now);
  if (status !== 'READY' && status !== 'PENDING') {
    throw businessRule(`The payment link is ${status} and cannot be cancelled; only a READY or PENDING link can.`, ERROR_CODES.invalidTransition);
  }
  return { ...link, status: 'CANCELLED', updatedAt: now };
}

/** Whether the customer acted on the link (paid, failed or declined): its GET then answers Completed with payments. */
export function customerActed(link: LinkRecord): boolean {
  return link.attempts > 0 || link.status === 'DECLINEDBYCUSTOMER';
}

/** A checkout's status answer follows its state (2 Pending, 0 Completed, -4 Declined, -10, 4 Timeout). */
export const RESULT_OF_CHECKOUT_STATE: Record<CheckoutState, (typeof RESULTS)[ResultKind]> = {
  PENDING: RESULTS.pending,
  PAID: RESULTS.completed,
  DECLINED: RESULTS.declined,
  DECLINEDBYCUSTOMER: RESULTS.customerProcessing,
  TIMEOUT: RESULTS.timeout,
};

/** The API status a checkout status answer's result stands for (the inverse of {@link RESULT_OF_CHECKOUT_STATE}). */
export function checkoutStateOfResult(result: number): CheckoutState | undefined {
  for (const state in RESULT_OF_CHECKOUT_STATE) {
    if (RESULT_OF_CHECKOUT_STATE[state as CheckoutState].result === result) return state as CheckoutState;
  }
  return undefined;
}

/** How a payment reads in a list: APPROVED or OK for successes, PENDING, else its result's description. */
export function paymentStateText(p: PaymentRecord): string {
  if (p.result === 0) return p.action === 'PAYMENT' || p.action === 'AUTHORIZE' ? 'APPROVED' : 'OK';
  if (p.result === 2) return 'PENDING';
  return p.description.toUpperCase();
}

// ---- Credits to a bank account (SEPA) ----

const DAY_MS = 86_400_000;

/**
 * When a SEPA credit made at `createdAt` settles: the next business day at the same time of day (a SEPA
 * credit transfer arrives by the next banking day): Friday's on Monday, Saturday's and Sunday's on Tuesday,
 * days counted in UTC. Holidays are not counted.
 */
export function creditSettlesAt(createdAt: number): number {
  let at = createdAt;
  let businessDays = 0;
  // Weekend days do not count; the credit is on its way from the next business day it starts.
  while (isWeekend(at)) at += DAY_MS;
  while (businessDays < 1) {
    at += DAY_MS;
    if (!isWeekend(at)) businessDays += 1;
  }
  return at;
}

function isWeekend(epochMs: number): boolean {
  const day = new Date(epochMs).getUTCDay();
  return day === 0 || day === 6;
}

/** True for a SEPA credit still waiting (result 1) whose settlement time has come at `now`. */
export function creditDue(credit: PaymentRecord, now: number): boolean {
  return credit.action === 'CREDIT' && credit.result === RESULTS.waiting.result && credit.settlesAt !== undefined && now >= credit.settlesAt;
}

/** The transition 1 Waiting -> 0 Ok of a SEPA credit at `now`; the credit as it is when it is not due. */
export function settleCredit(credit: PaymentRecord, now: number): PaymentRecord {
  if (!creditDue(credit, now)) return credit;
  return { ...credit, ...RESULTS.ok, httpStatus: 200, settlesAt: undefined, updatedAt: now };
}
