/**
 * Lifecycle rules of links and checkouts (SANDBOX.md, "Lifecycle"). Pure: the time is passed in.
 */
import type { CheckoutRecord, CheckoutState, LinkRecord, LinkStatus } from './records.js';

/** A checkout identifier is valid for 30 minutes (spec section 8). */
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

/** Whether a customer may still submit the form: only an open link or checkout within its time. */
export function linkIsPayable(link: LinkRecord, now: number): boolean {
  const status = linkStatus(link, now);
  return status === 'READY' || status === 'PENDING';
}

export function checkoutIsPayable(checkout: CheckoutRecord, now: number): boolean {
  return checkoutState(checkout, now) === 'PENDING';
}
