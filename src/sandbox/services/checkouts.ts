/**
 * Checkouts as handlers ask for them: created Pending for 30 minutes, and read only by their own
 * business (another business's checkout is a 404). A checkout's tracking code is held for good
 * (domain/tracking-codes.ts): the store's unique index enforces it in the insert itself.
 */
import { CHECKOUT_VALIDITY_MS } from '../domain/lifecycle.js';
import type { CheckoutRecord, Tokenize, TransactionFields } from '../domain/records.js';
import { notFound } from '../errors.js';
import type { Deps } from './deps.js';
import { insertUnique } from './links.js';

/** What a new checkout is made of (checked input of `POST {api}/checkouts`). */
export interface NewCheckout {
  businessId: string;
  transaction: TransactionFields;
  brandIds: number[];
  returnUrl: string;
  tokenize: Tokenize;
  /** `body.checkout.threeDSecure`: every card on the checkout goes through the challenge, as on a link. */
  threeDSecure?: boolean | undefined;
  /** `body.threeDSecure.version` as sent (`"1"`, `"2"`...), kept with the checkout. */
  threeDSecureVersion?: string | undefined;
}

/** Stores a new PENDING checkout; -8 when its tracking code is already used by another checkout of the business. */
export async function createCheckout(deps: Pick<Deps, 'store' | 'checkouts' | 'clock' | 'ids'>, input: NewCheckout): Promise<CheckoutRecord> {
  const now = deps.clock.now();
  const checkout: CheckoutRecord = {
    kind: 'checkout',
    id: deps.ids.uuid(),
    businessId: input.businessId,
    trackingCode: input.transaction.trackingCode,
    createdAt: now,
    updatedAt: now,
    transaction: input.transaction,
    brandIds: input.brandIds,
    returnUrl: input.returnUrl,
    expiresAt: now + CHECKOUT_VALIDITY_MS,
    state: 'PENDING',
    tokenize: input.tokenize,
    ...(input.threeDSecure === true ? { threeDSecure: true } : {}),
    ...(input.threeDSecureVersion !== undefined ? { threeDSecureVersion: input.threeDSecureVersion } : {}),
    challengeOpen: false,
    attempts: 0,
    paymentIds: [],
  };
  await deps.store.writeStatement(() => insertUnique(() => deps.checkouts.insert(checkout)));
  return checkout;
}

/** The business's checkout; 404 for anything else. */
export function getCheckout(deps: Pick<Deps, 'checkouts'>, businessId: string, checkoutId: string): CheckoutRecord {
  const checkout = deps.checkouts.getOwned(checkoutId, businessId);
  if (!checkout) throw notFound('Checkout');
  return checkout;
}

/** The business's checkout with the tracking code (there is one at most); 404 when none. */
export function findCheckout(deps: Pick<Deps, 'checkouts'>, businessId: string, trackingCode: string): CheckoutRecord {
  const checkout = deps.checkouts.byTrackingCode(businessId, trackingCode)[0];
  if (!checkout) throw notFound('Checkout');
  return checkout;
}
