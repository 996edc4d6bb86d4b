/**
 * 3-D Secure results of a direct card payment that sends `body.threeDSecure` (the portal's "3DS 2.0 with
 * Payments API", the SDKs' RequestThreeDSecure/ResponseThreeDSecure). Which flow a card takes is the test
 * card's, so no new card numbers are needed (docs/test-cards.md, "3-D Secure 2.0"):
 * - a 3-D Secure test card (`...3220` and its brand siblings) is enrolled and challenged: flow `CHALLENGE`,
 *   authenticated (`Y`) by code 1234, failed (`N`) otherwise;
 * - any other card with version 2.x is authenticated without a challenge: flow `FRICTIONLESS`, `Y`; with
 *   version 1 it is not enrolled (`N`) and goes straight to authorization, as 3DS 1 had no frictionless flow;
 * - the 3-D Secure 1.0 card (`4000000000001000`): its issuer knows 3DS 1.0 only, so a 2.x request is
 *   downgraded: the challenge runs as 3DS 1.0 and the answer says `version` `"1"` with no `flow` (a 3DS 2
 *   notion), which is how the merchant sees the downgrade;
 * - external MPI data (`eci` with `avv`/`cavv`): the merchant authenticated already, no challenge at all.
 */
import type { PaymentRecord, ThreeDSecureResult } from './records.js';

/** What a payment's `body.threeDSecure` asks for, checked. */
export interface ThreeDSecureRequest {
  /** `"1"`, `"2"`, `"2.1"`...; `"1"` when none is sent. */
  version: string;
  /** External MPI data: the merchant's own 3-D Secure server authenticated the card. */
  mpi?: { eci: string; avv: string; xid?: string | undefined; dsTransactionId?: string | undefined } | undefined;
  /**
   * `additionalInfo.challengeWindowSize` (the SDKs' ThreeDSecureAdditionalInfo): the size of the window the
   * merchant embeds the challenge in, an EMV 3-D Secure code from {@link CHALLENGE_WINDOW_SIZES}.
   */
  challengeWindowSize?: string | undefined;
}

/**
 * The challenge window sizes of EMV 3-D Secure (`challengeWindowSize`), width x height in CSS pixels; `05`
 * is the whole window. The embedded flow's challenge page lays itself out in the size asked for.
 */
export const CHALLENGE_WINDOW_SIZES: Readonly<Record<string, { width: number; height: number } | 'full'>> = {
  '01': { width: 250, height: 400 },
  '02': { width: 390, height: 400 },
  '03': { width: 500, height: 600 },
  '04': { width: 600, height: 400 },
  '05': 'full',
};

/** True for a `challengeWindowSize` code the sandbox knows. */
export function isChallengeWindowSize(code: string): boolean {
  return Object.hasOwn(CHALLENGE_WINDOW_SIZES, code);
}

/**
 * What the challenge page of the embedded flow posts to the merchant's page that frames it, once the check
 * is over (docs/hosted-pages.md, "The embedded 3-D Secure flow"): the payment's id and result, and its
 * `threeDSecure` results when the payment asked for them. No card data, so it may be read by the frame's parent.
 */
export interface EmbeddedThreeDSecureMessage {
  threeDSecureComplete: {
    paymentId: string;
    result: number;
    description: string;
    threeDSecure?: ThreeDSecureResult | undefined;
  };
}

/** The message of {@link EmbeddedThreeDSecureMessage} for a payment whose check is over. */
export function embeddedThreeDSecureMessage(payment: Pick<PaymentRecord, 'id' | 'result' | 'description' | 'threeDSecure'>): EmbeddedThreeDSecureMessage {
  return {
    threeDSecureComplete: {
      paymentId: payment.id,
      result: payment.result,
      description: payment.description,
      ...(payment.threeDSecure !== undefined ? { threeDSecure: { ...payment.threeDSecure } } : {}),
    },
  };
}

/** True for a 3DS 2.x version. */
export function isVersion2(version: string): boolean {
  return version.startsWith('2');
}

/** The version a check runs on: the one asked for, or 3DS 1.0 when the issuer knows no other (the downgrade). */
export const DOWNGRADED_VERSION = '1';

/**
 * The result of a charge that sent `body.threeDSecure`, right after the outcome engine decided it.
 * `issuer1Only`: the card's issuer knows 3-D Secure 1.0 only (a 2.x request is downgraded).
 */
export function threeDSecureResult(request: ThreeDSecureRequest, challenged: boolean, issuer1Only = false): ThreeDSecureResult {
  if (request.mpi !== undefined) return { version: request.version, eci: request.mpi.eci };
  if (challenged && issuer1Only) return { version: DOWNGRADED_VERSION, enrollmentResult: 'Y' };
  if (challenged) return { version: request.version, enrollmentResult: 'Y', ...(isVersion2(request.version) ? { flow: 'CHALLENGE' as const } : {}) };
  if (isVersion2(request.version)) return { version: request.version, enrollmentResult: 'Y', authenticationResult: 'Y', flow: 'FRICTIONLESS' };
  return { version: request.version, enrollmentResult: 'N' };
}

/** The result once the challenge is over: authenticated with the right code, failed otherwise. */
export function afterChallenge(result: ThreeDSecureResult, approved: boolean): ThreeDSecureResult {
  return { ...result, authenticationResult: approved ? 'Y' : 'N' };
}

/** A payment's 3-D Secure results in one line, as the CLI's status and the dashboard show them: `version 2, flow CHALLENGE, enrolled Y, authentication Y`. */
export function threeDSecureSummary(result: Partial<Record<keyof ThreeDSecureResult, string | undefined>>): string {
  const parts = [`version ${result.version ?? '1'}`];
  if (result.flow) parts.push(`flow ${result.flow}`);
  if (result.enrollmentResult) parts.push(`enrolled ${result.enrollmentResult}`);
  if (result.authenticationResult) parts.push(`authentication ${result.authenticationResult}`);
  if (result.eci) parts.push(`eci ${result.eci} (external MPI data)`);
  return parts.join(', ');
}
