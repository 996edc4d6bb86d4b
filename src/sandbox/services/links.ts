/**
 * Creating, cancelling and copying payment links and creating checkouts: the records of `api/` and the
 * dashboard stored with the same uniqueness of tracking codes, and the lifecycle's cancel applied inside
 * the write that stores it.
 */
import type { Deps } from './deps.js';
import { cancelLink as cancelled } from '../domain/lifecycle.js';
import type { CheckoutRecord, LinkRecord } from '../domain/records.js';
import { duplicateTrackingCode, notFound } from '../errors.js';
import { isUniqueViolation } from '../store/failures.js';

/** Runs an insert, turning the unique-index violation on (business, trackingCode) into the -8 error. */
function insertUnique(insert: () => void): void {
  try {
    insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateTrackingCode('body.transaction.trackingCode');
    throw error;
  }
}

/** Stores a new link; -8 when its tracking code is already used by another link of the business. */
export function createLink(sandbox: Pick<Deps, 'store' | 'links'>, link: LinkRecord): Promise<void> {
  return sandbox.store.writeStatement(() => insertUnique(() => sandbox.links.insert(link)));
}

/** Stores a new checkout; -8 when its tracking code is already used by another checkout of the business. */
export function createCheckout(sandbox: Pick<Deps, 'store' | 'checkouts'>, checkout: CheckoutRecord): Promise<void> {
  return sandbox.store.writeStatement(() => insertUnique(() => sandbox.checkouts.insert(checkout)));
}

/** Cancels a READY or PENDING link of the business (-8 otherwise); returns it cancelled. */
export function cancelLink(sandbox: Pick<Deps, 'store' | 'links' | 'clock'>, businessId: string, linkId: string): Promise<LinkRecord> {
  return sandbox.store.write(() => {
    const current = sandbox.links.getOwned(linkId, businessId);
    if (!current) throw notFound('Payment link');
    const link = cancelled(current, sandbox.clock.now());
    sandbox.links.update(link);
    return link;
  });
}
