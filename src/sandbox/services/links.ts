/**
 * Payment links as handlers ask for them: created (the record built from what the request asked, the
 * expiry checked against the year 9999), cancelled through the lifecycle inside the write that stores it,
 * copied (the dashboard), and read only by their own business (another business's link is a 404, like
 * one that does not exist). A link's tracking code is held for good (domain/tracking-codes.ts): the
 * store's unique index on (business, trackingCode) enforces it in the insert itself.
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from './deps.js';
import { cancelLink as cancelled } from '../domain/lifecycle.js';
import type { LinkRecord, Tokenize, TransactionFields } from '../domain/records.js';
import { duplicateTrackingCode, invalidValue, notFound } from '../errors.js';
import { isUniqueViolation } from '../store/failures.js';
import { DEFAULT_LINK_DURATION, linkDurationMs } from '../domain/link-duration.js';

/** Runs an insert, turning the unique-index violation on (business, trackingCode) into the -8 error. */
export function insertUnique(insert: () => void): void {
  try {
    insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateTrackingCode('body.transaction.trackingCode');
    throw error;
  }
}

/** The first instant whose ISO 8601 form needs a five-digit year. */
const LATEST_EXPIRY_MS = Date.UTC(10000, 0, 1);

/** What a new link is made of (checked input of `POST {api}/paymentlinks`). */
export interface NewLink {
  businessId: string;
  transaction: TransactionFields;
  brandIds: number[];
  returnUrl: string;
  /** The duration as sent (upper case) and its length. */
  duration: { text: string; ms: number };
  tokenize: Tokenize;
  threeDSecure: boolean;
  /** `body.threeDSecure.version` as sent (`"1"`, `"2"`...), kept with the link. */
  threeDSecureVersion?: string | undefined;
}

type LinkWriteDeps = Pick<Deps, 'store' | 'links' | 'clock' | 'ids'>;

/**
 * Stores a new READY link; -8 when its tracking code is already used by another link of the business.
 * Not `async`: the write's own promise is the answer's, one turn of the microtask queue fewer per link.
 */
export function createLink(deps: LinkWriteDeps, input: NewLink): Promise<LinkRecord> {
  const now = deps.clock.now();
  // The API writes date-times with a four-digit year: an expiry past 9999 would answer `+010000-...`.
  if (now + input.duration.ms >= LATEST_EXPIRY_MS) {
    throw invalidValue(
      'body.link.duration',
      'The link would expire after the year 9999 by the sandbox clock. Use a shorter duration or set the sandbox clock back.',
    );
  }
  const link: LinkRecord = {
    kind: 'link',
    id: deps.ids.uuid(),
    businessId: input.businessId,
    trackingCode: input.transaction.trackingCode,
    createdAt: now,
    updatedAt: now,
    transaction: input.transaction,
    brandIds: input.brandIds,
    returnUrl: input.returnUrl,
    duration: input.duration.text,
    expiresAt: now + input.duration.ms,
    status: 'READY',
    tokenize: input.tokenize,
    threeDSecure: input.threeDSecure,
    ...(input.threeDSecureVersion !== undefined ? { threeDSecureVersion: input.threeDSecureVersion } : {}),
    attempts: 0,
    paymentIds: [],
  };
  return deps.store.writeStatement(() => {
    insertUnique(() => deps.links.insert(link));
    return link;
  });
}

/**
 * A new READY link with the same amount, brands, return URL and duration as link `id`, and a fresh
 * tracking code (the dashboard's copy, an operator's action: any business's link).
 */
export async function copyLink(deps: LinkWriteDeps, id: string): Promise<LinkRecord> {
  const original = deps.links.get(id);
  if (!original) throw notFound('Payment link');
  const now = deps.clock.now();
  const suffix = randomUUID().slice(0, 8);
  const link: LinkRecord = {
    ...original,
    id: deps.ids.uuid(),
    trackingCode: original.trackingCode === undefined ? undefined : `${original.trackingCode.slice(0, 80)}-copy-${suffix}`,
    createdAt: now,
    updatedAt: now,
    expiresAt: now + (linkDurationMs(original.duration) ?? DEFAULT_LINK_DURATION.ms),
    status: 'READY',
    attempts: 0,
    paymentIds: [],
  };
  await deps.store.writeStatement(() => insertUnique(() => deps.links.insert(link)));
  return link;
}

/** Cancels a READY or PENDING link of the business (-8 otherwise); returns it cancelled. */
export function cancelLink(deps: Pick<Deps, 'store' | 'links' | 'clock'>, businessId: string, linkId: string): Promise<LinkRecord> {
  return deps.store.write(() => {
    const current = deps.links.getOwned(linkId, businessId);
    if (!current) throw notFound('Payment link');
    const link = cancelled(current, deps.clock.now());
    deps.links.update(link);
    return link;
  });
}

/** The business's link; 404 for anything else. */
export function getLink(deps: Pick<Deps, 'links'>, businessId: string, linkId: string): LinkRecord {
  const link = deps.links.getOwned(linkId, businessId);
  if (!link) throw notFound('Payment link');
  return link;
}

/** The business's link with the tracking code (there is one at most); 404 when none. */
export function findLink(deps: Pick<Deps, 'links'>, businessId: string, trackingCode: string): LinkRecord {
  const link = deps.links.byTrackingCode(businessId, trackingCode)[0];
  if (!link) throw notFound('Payment link');
  return link;
}
