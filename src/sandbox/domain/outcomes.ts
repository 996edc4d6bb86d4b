/**
 * The outcome engine: what happens when a card (or a token, which replays its card's behaviour) is
 * charged. Pure and deterministic given the id source (approval codes): the store-facing parts (attempt
 * counting, tokens, records) live in `services/charge.ts`.
 *
 * Letters used in `card.cvvResult` (the spec leaves them open): `M` match, `N` no match (the CVV-mismatch
 * card), `P` not processed (no CVV presented: token payments). `card.avsResult` is always `Y` (address
 * matches): the sandbox takes no address. Both are empty on a payment still waiting for 3-D Secure.
 */
import { FAILURES, RESULTS, httpStatusOfResult, type Failure } from '../errors.js';
import type { IdSource } from './ids.js';
import { FAILURE_OF_BEHAVIOUR as FAILURE_OF, type Behaviour } from './test-cards.js';

export type { Behaviour };

export interface OutcomeInput {
  behaviour: Behaviour;
  /** The card's brand. */
  brandId: number;
  /** The card's expiry month is over (sandbox clock). */
  expired: boolean;
  /** A CVV came with the charge (false for token payments). */
  cvvPresented: boolean;
  /**
   * For the retry cards: which attempt with a retry card this is for the link, checkout or trackingCode
   * (1 = first). The first fails, later ones are approved.
   */
  retryAttempt: number;
  /** Approved cards go through the 3-D Secure challenge first (link created with `threeDSecure: true`). */
  forceThreeDSecure?: boolean;
  /** The challenge already passed: the 3-D Secure card (and forced challenges) are approved outright. */
  skipThreeDSecure?: boolean;
}

export interface Outcome {
  result: number;
  description: string;
  /** HTTP status a direct API call answers with (500 only for the internal-error card). */
  httpStatus: number;
  error?: { code: number; message: string } | undefined;
  /** Six characters on approval, empty otherwise. */
  approvalCode: string;
  cvvResult: string;
  avsResult: string;
  brandId: number;
  /** True when the payment must wait for the 3-D Secure challenge (result 2). */
  challenge: boolean;
}

/** The failure of a 3-D Secure challenge (wrong code or cancelled). */
export const THREE_DS_FAILED: Failure = FAILURES.threeDSecureFailed;

/** Approval letters (see the module comment). */
export function cvvResultOf(behaviour: Behaviour, cvvPresented: boolean): string {
  if (behaviour === 'cvv-mismatch') return 'N';
  return cvvPresented ? 'M' : 'P';
}

/** The outcome of a failure entry, with the card letters. */
export function failureOutcome(failure: Failure, brandId: number, cvvResult: string): Outcome {
  const { result, description } = RESULTS[failure.kind];
  return {
    result,
    description,
    httpStatus: httpStatusOfResult(result),
    error: { code: failure.code, message: failure.message },
    approvalCode: '',
    cvvResult,
    avsResult: 'Y',
    brandId,
    challenge: false,
  };
}

/** An approval, with a fresh approval code. */
export function approvedOutcome(brandId: number, cvvResult: string, ids: Pick<IdSource, 'approvalCode'>): Outcome {
  return { ...RESULTS.ok, httpStatus: 200, approvalCode: ids.approvalCode(), cvvResult, avsResult: 'Y', brandId, challenge: false };
}

/**
 * Decides a charge. Order: an unknown (non-test) card is declined before anything else; then a past
 * expiry; then the card's own behaviour.
 */
export function decideOutcome(input: OutcomeInput, ids: Pick<IdSource, 'approvalCode'>): Outcome {
  const { behaviour, brandId } = input;
  const cvvResult = cvvResultOf(behaviour, input.cvvPresented);
  if (behaviour === 'not-a-test-card') return failureOutcome(FAILURE_OF['not-a-test-card']!, brandId, cvvResult);
  if (input.expired) return failureOutcome(FAILURE_OF['expired-card']!, brandId, cvvResult);

  let approves = behaviour === 'approved';
  if ((behaviour === 'failed-retry' || behaviour === 'declined-retry') && input.retryAttempt > 1) approves = true;

  if (behaviour === '3ds' || (approves && input.forceThreeDSecure === true)) {
    if (input.skipThreeDSecure === true) return approvedOutcome(brandId, cvvResult, ids);
    return { ...RESULTS.pending, httpStatus: 200, approvalCode: '', cvvResult: '', avsResult: '', brandId, challenge: true };
  }
  if (approves) return approvedOutcome(brandId, cvvResult, ids);
  const failure = FAILURE_OF[behaviour];
  if (!failure) throw new Error(`outcome engine: no rule for behaviour ${behaviour}`);
  return failureOutcome(failure, brandId, cvvResult);
}

/** The outcome of a 3-D Secure challenge: code `1234` approves, anything else (or cancel, `null`) is -10. */
export function challengeOutcome(
  code: string | null,
  approveCode: string,
  brandId: number,
  cvvPresented: boolean,
  ids: Pick<IdSource, 'approvalCode'>,
): Outcome {
  const cvvResult = cvvPresented ? 'M' : 'P';
  if (code !== null && code.trim() === approveCode) return approvedOutcome(brandId, cvvResult, ids);
  return failureOutcome(THREE_DS_FAILED, brandId, cvvResult);
}
