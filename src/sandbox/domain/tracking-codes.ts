/**
 * The tracking-code rule of every resource a merchant creates (docs/api.md, "Tracking codes"): which
 * kinds share a namespace and which stored resources hold a code so that a new one with it is -8 (2001).
 *
 * Decided from the provider's lookups. Each kind is looked up on its own endpoint and no lookup ever
 * answers another kind, so each kind is its own namespace per business: a payment's code never blocks a
 * credit, a link or a checkout, nor the reverse. Within a kind:
 * - links, checkouts and tokens are looked up as ONE answer, and nothing frees their code: every one
 *   holds it for good (the store's unique index enforces it; tokens check it before the insert);
 * - payments are looked up as a LIST (follow-ups included), and credits as one answer per code; both
 *   let a failed attempt be tried again under the same code (the retry test cards count attempts by
 *   tracking code). A payment or credit holds its code while it succeeded, is waiting or is pending
 *   (results 0, 1, 2); a failure (negative result) frees it. Follow-ups (capture, cancel, refund) and
 *   the attempts of a link or checkout carry a code but hold none in these namespaces.
 */

/** The kinds of resource with a tracking-code namespace of their own (per business). */
export type TrackedKind = 'link' | 'checkout' | 'token' | 'payment' | 'credit';

/** What the rule reads of a stored payment record. */
export interface TrackedPayment {
  action: string;
  result: number;
  parentKind?: string | undefined;
  parentPaymentId?: string | undefined;
}

/** Results that keep a payment's or credit's code: 0 success, 1 waiting, 2 pending. */
function holdingResult(result: number): boolean {
  return result === 0 || result === 1 || result === 2;
}

/**
 * The namespace a payment record's tracking code is in: `credit` for a credit, `payment` for a direct
 * payment, none for a follow-up or an attempt of a link or checkout (those live under their parent).
 */
export function trackedKindOfPayment(p: TrackedPayment): 'payment' | 'credit' | undefined {
  if (p.parentKind !== undefined || p.parentPaymentId !== undefined) return undefined;
  return p.action === 'CREDIT' ? 'credit' : 'payment';
}

/** True when `existing` (a stored payment record with the code) keeps a new `kind` from using the code. */
export function paymentHoldsCode(kind: 'payment' | 'credit', existing: TrackedPayment): boolean {
  return trackedKindOfPayment(existing) === kind && holdingResult(existing.result);
}

/**
 * True when a new resource of `kind` may not take the code: `sameCode` are the business's stored records
 * with that code (payment records for `payment` and `credit`, records of the kind otherwise).
 */
export function trackingCodeTaken(kind: TrackedKind, sameCode: readonly TrackedPayment[] | readonly unknown[]): boolean {
  if (kind === 'payment' || kind === 'credit') return (sameCode as readonly TrackedPayment[]).some((p) => paymentHoldsCode(kind, p));
  // Links, checkouts and tokens: looked up as one answer, so any stored one holds the code for good.
  return sameCode.length > 0;
}
