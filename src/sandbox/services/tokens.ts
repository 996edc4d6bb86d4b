/**
 * Saved cards (tokens). A token is found again by a keyed fingerprint of business, card number and
 * expiry (HMAC-SHA256 with a secret kept in this database's `meta` table), so the same card gives the same
 * token while the number itself is never stored. Call the writers inside `sandbox.store.write`.
 */
import { maskedRecord } from '../domain/mask.js';
import { createHmac, randomBytes } from 'node:crypto';
import type { TokenRecord } from '../domain/records.js';
import type { Deps } from './deps.js';
import { trackingCodeTaken } from '../domain/tracking-codes.js';
import { duplicateTrackingCode } from '../errors.js';

/** The `meta` key of the fingerprint secret (left out of snapshots, kept by a restore). */
export const TOKEN_SECRET_KEY = 'tokens.secret';

/** The per-database fingerprint secret, created on first use (inside a write). */
function secret(sandbox: Pick<Deps, 'meta'>): string {
  let value = sandbox.meta.get<string>(TOKEN_SECRET_KEY);
  if (value === undefined) {
    value = randomBytes(32).toString('hex');
    sandbox.meta.set(TOKEN_SECRET_KEY, value);
  }
  return value;
}

/**
 * The fingerprint of a card for a business: what makes the same card give the same token. The key fields
 * are the provider's ("Create Token": business, customer id when given, card number, expiry month and
 * year); a card saved without a customer id keeps the fingerprint it always had.
 */
export function cardFingerprint(
  sandbox: Pick<Deps, 'meta'>,
  businessId: string,
  number: string,
  expiryMonth: string,
  expiryYear: string,
  customerId?: string,
): string {
  const key = `${businessId}\n${number}\n${expiryMonth}\n${expiryYear}${customerId !== undefined ? `\ncustomer:${customerId}` : ''}`;
  return createHmac('sha256', secret(sandbox)).update(key).digest('hex');
}

/** What a new token is made of: the record less what `saveToken` assigns itself. */
export type SaveTokenInput = Omit<TokenRecord, 'kind' | 'id' | 'token' | 'createdAt'>;

/**
 * The token of this card for this business: the existing one (with the trackingCode it was saved with), or
 * a new one. A new token's trackingCode must be unused by the business's other tokens (2001).
 */
/** What saving a token uses. */
export type SaveTokenDeps = Pick<Deps, 'tokens' | 'ids' | 'clock' | 'meta'>;

export function saveToken(sandbox: SaveTokenDeps, input: SaveTokenInput): TokenRecord {
  const existing = sandbox.tokens.byFingerprint(input.businessId, input.fingerprint);
  if (existing) return existing;
  if (input.trackingCode !== undefined && trackingCodeTaken('token', sandbox.tokens.byTrackingCode(input.businessId, input.trackingCode))) {
    throw duplicateTrackingCode('body.trackingCode');
  }
  const id = sandbox.ids.uuid();
  const token: TokenRecord = {
    kind: 'token',
    id,
    token: id,
    businessId: input.businessId,
    trackingCode: input.trackingCode,
    createdAt: sandbox.clock.now(),
    brandId: input.brandId,
    displayHint: input.displayHint,
    firstSixDigits: input.firstSixDigits,
    lastFourDigits: input.lastFourDigits,
    expiryMonth: input.expiryMonth,
    expiryYear: input.expiryYear,
    holderName: input.holderName,
    behaviour: input.behaviour,
    fingerprint: input.fingerprint,
    // Stored as sent, but with card data masked: a number or a CVV anywhere inside (docs/reliability.md, "Security").
    customer: input.customer === undefined ? undefined : maskedRecord(input.customer),
  };
  sandbox.tokens.insert(token);
  return token;
}
