/**
 * Checkouts as handlers ask for them: created Pending for 30 minutes, and read only by their own
 * business (another business's checkout is a 404). A checkout's tracking code is held for good
 * (domain/tracking-codes.ts): the store's unique index enforces it in the insert itself.
 */
import { CHECKOUT_VALIDITY_MS } from '../domain/lifecycle.js';
import { pathOf } from '../domain/routes.js';
import type { CheckoutRecord, OneClickRequest, Tokenize, TransactionFields } from '../domain/records.js';
import { invalidValue, missingProperty, notFound } from '../errors.js';
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
  /** One-click: the tokens and flags asked for (checked against the business's tokens here). */
  oneClick?: OneClickRequest | undefined;
  /** `body.customer.customerId`: whose saved cards `useCustomerTokens` offers. */
  customerId?: string | undefined;
  /** Where the specific tokens were sent (`body.checkout.oneClick.tokens` or `body.checkout.tokens`), for errors. */
  tokensPath?: string | undefined;
}

/**
 * The saved cards a one-click checkout offers (the portal's One-Click Checkout): every token of the
 * customer id with `useCustomerTokens` (none is no error: an empty list), then the specific tokens not
 * already there. A specific token the business does not hold (unknown, or another business's: the same
 * answer) or one saved for another customer id than the checkout's is refused (1002); nothing is stored.
 */
function savedTokens(deps: Pick<Deps, 'tokens'>, input: NewCheckout): string[] | undefined {
  const oneClick = input.oneClick;
  if (oneClick === undefined) return undefined;
  if (oneClick.useCustomerTokens === true && input.customerId === undefined) throw missingProperty('body.customer.customerId');
  const offered: string[] = [];
  if (oneClick.useCustomerTokens === true && input.customerId !== undefined) {
    for (const token of deps.tokens.byCustomerId(input.businessId, input.customerId)) offered.push(token.id);
  }
  const path = input.tokensPath ?? 'body.checkout.oneClick.tokens';
  for (const [i, id] of (oneClick.tokens ?? []).entries()) {
    const token = deps.tokens.getOwned(id, input.businessId);
    if (!token) throw invalidValue(`${path}[${i}]`, `Unknown token for this business; create one with POST ${pathOf('tokens.create')}.`);
    const owner = token.customer?.customerId;
    if (input.customerId !== undefined && owner !== undefined && owner !== null && String(owner) !== input.customerId) {
      throw invalidValue(`${path}[${i}]`, 'The token was saved for another customer than body.customer.customerId.');
    }
    if (!offered.includes(token.id)) offered.push(token.id);
  }
  return offered;
}

/** Stores a new PENDING checkout; -8 when its tracking code is already used by another checkout of the business. */
export async function createCheckout(deps: Pick<Deps, 'store' | 'checkouts' | 'tokens' | 'clock' | 'ids'>, input: NewCheckout): Promise<CheckoutRecord> {
  const now = deps.clock.now();
  const saved = savedTokens(deps, input);
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
    ...(input.oneClick !== undefined ? { oneClick: input.oneClick, savedTokens: saved } : {}),
    ...(input.customerId !== undefined ? { customerId: input.customerId } : {}),
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
