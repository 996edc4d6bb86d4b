/**
 * Capture, cancel and refund (docs/test-cards.md, "Direct payments"): what a follow-up may move, the
 * amount it moves, the follow-up's own record and the original after it. Pure: ids and time are passed in.
 */
import { businessRule, ERROR_CODES, RESULTS } from '../errors.js';
import { isoUtc } from './clock.js';
import { minorUnits, roundToMinor } from './money.js';
import type { PaymentRecord } from './records.js';

export type FollowUpAction = 'CAPTURE' | 'CANCEL' | 'REFUND';

const VERB: Record<FollowUpAction, string> = { CAPTURE: 'capture', CANCEL: 'cancel', REFUND: 'refund' };

function refuse(message: string): never {
  throw businessRule(message, ERROR_CODES.invalidTransition);
}

/**
 * A follow-up of a payment that never succeeded (pending, waiting or failed), in the provider's words: its
 * clients match "the operation needs at least one successful previous transaction" in the error text.
 */
function refuseNoSuccess(verb: string, original: PaymentRecord): never {
  refuse(
    `Invalid ${verb}: the operation needs at least one successful previous transaction (the ${original.action.toLowerCase()} is ${original.result} ${original.description}).`,
  );
}

function toMinor(amount: number, currencyCode: string): number {
  return Math.round(amount * 10 ** (minorUnits(currencyCode) ?? 2));
}

/**
 * What a refund naming a capture may move (the provider's clients refund a capture by its own id): what is
 * left of that capture, and never more than is left of the authorization it captured.
 */
function refundableOfCapture(capture: PaymentRecord, authorization: PaymentRecord): number {
  const cur = capture.currencyCode;
  if (capture.result !== 0) refuseNoSuccess('refund', capture);
  if (authorization.cancelled) refuse('The authorization was cancelled; there is nothing to refund.');
  const ofCapture = roundToMinor(capture.amount - (capture.refundedAmount ?? 0), cur);
  const ofAuthorization = roundToMinor((authorization.capturedAmount ?? 0) - (authorization.refundedAmount ?? 0), cur);
  const rest = Math.min(ofCapture, ofAuthorization);
  if (rest <= 0) refuse('The capture is already refunded in full.');
  return rest;
}

/** What a follow-up may move now, or a -8 naming the rule it breaks. */
export function allowedFollowUpAmount(original: PaymentRecord, action: FollowUpAction, authorization?: PaymentRecord): number {
  if (action === 'REFUND' && original.action === 'CAPTURE' && authorization !== undefined) return refundableOfCapture(original, authorization);
  const verb = VERB[action];
  const cur = original.currencyCode;
  if (original.action !== 'PAYMENT' && original.action !== 'AUTHORIZE') {
    refuse(`A ${verb} applies to a payment or an authorization, not to a ${original.action.toLowerCase()}.`);
  }
  if (original.result !== 0) refuseNoSuccess(verb, original);
  const captured = original.capturedAmount ?? 0;
  const refunded = original.refundedAmount ?? 0;
  if (action === 'CAPTURE' || action === 'CANCEL') {
    if (original.action !== 'AUTHORIZE') {
      refuse(
        action === 'CAPTURE'
          ? 'Only an authorization can be captured; this payment was charged at once.'
          : 'Only an authorization can be cancelled; refund a payment instead.',
      );
    }
    if (original.cancelled) refuse('The authorization was cancelled.');
    if (action === 'CANCEL') {
      if (captured > 0) refuse('The authorization is already captured; refund it instead of cancelling it.');
      return original.amount;
    }
    const rest = roundToMinor(original.amount - captured, cur);
    if (rest <= 0) refuse('The authorization is already captured in full.');
    return rest;
  }
  if (original.cancelled) refuse('The authorization was cancelled; there is nothing to refund.');
  const refundable = original.action === 'PAYMENT' ? original.amount : captured;
  if (refundable <= 0) refuse('Nothing of the authorization was captured, so there is nothing to refund; cancel it instead.');
  const rest = roundToMinor(refundable - refunded, cur);
  if (rest <= 0) refuse('The payment is already refunded in full.');
  return rest;
}

/**
 * The amount a follow-up moves: all that is allowed when none is asked, else the asked amount, which a
 * cancel must match and a capture or refund must not exceed. `asked` parses it for the original's currency
 * (undefined: none asked); it runs only once the follow-up itself is allowed.
 */
export function followUpAmount(
  original: PaymentRecord,
  action: FollowUpAction,
  asked: (currencyCode: string) => number | undefined,
  authorization?: PaymentRecord,
): number {
  const allowed = allowedFollowUpAmount(original, action, authorization);
  const requested = asked(original.currencyCode);
  if (requested === undefined) return allowed;
  const cur = original.currencyCode;
  if (action === 'CANCEL' && toMinor(requested, cur) !== toMinor(allowed, cur)) {
    refuse(`A cancel releases the whole authorization (${allowed} ${cur}); leave the amount out or send exactly that.`);
  }
  if (toMinor(requested, cur) > toMinor(allowed, cur)) {
    refuse(`At most ${allowed} ${cur} can be ${action === 'CAPTURE' ? 'captured' : 'refunded'} now; ${requested} ${cur} was asked.`);
  }
  return requested;
}

/** What a follow-up record needs that the domain cannot make itself. */
export interface FollowUpIds {
  id: string;
  requestCode: string;
  approvalCode: string;
  /** The follow-up's own tracking code when the merchant sent one, else the original's. */
  trackingCode?: string | undefined;
}

/** A follow-up's own payment record (result 0) and the original after it. */
export function applyFollowUp(
  original: PaymentRecord,
  action: FollowUpAction,
  amount: number,
  ids: FollowUpIds,
  now: number,
): { followUp: PaymentRecord; original: PaymentRecord } {
  const cur = original.currencyCode;
  const followUp: PaymentRecord = {
    kind: 'payment',
    id: ids.id,
    businessId: original.businessId,
    trackingCode: ids.trackingCode ?? original.trackingCode,
    createdAt: now,
    updatedAt: now,
    action,
    parentPaymentId: original.id,
    ...RESULTS.ok,
    httpStatus: 200,
    requestCode: ids.requestCode,
    requestTimestamp: isoUtc(now),
    amount,
    currencyCode: cur,
    brandId: original.brandId,
    card: original.card ? { ...original.card, approvalCode: ids.approvalCode } : undefined,
  };
  const updated: PaymentRecord = { ...original, updatedAt: now };
  if (action === 'CAPTURE') updated.capturedAmount = roundToMinor((original.capturedAmount ?? 0) + amount, cur);
  if (action === 'REFUND') updated.refundedAmount = roundToMinor((original.refundedAmount ?? 0) + amount, cur);
  if (action === 'CANCEL') updated.cancelled = true;
  return { followUp, original: updated };
}

/** A refund of a capture also counts against the authorization the capture belongs to. */
export function refundAgainstAuthorization(authorization: PaymentRecord, amount: number, now: number): PaymentRecord {
  const refunded = roundToMinor((authorization.refundedAmount ?? 0) + amount, authorization.currencyCode);
  return { ...authorization, refundedAmount: refunded, updatedAt: now };
}
