/**
 * Tokens as handlers ask for them: a card saved for a business (checked like a charge, refused when it
 * could never be charged), and read only by its own business.
 */
import { brandById } from '../domain/brands.js';
import type { TokenRecord } from '../domain/records.js';
import { ApiError, invalidValue, notFound } from '../errors.js';
import { inspectCard, type CardInput } from './charge.js';
import type { Deps } from './deps.js';
import { cardFingerprint, saveToken, type SaveTokenDeps } from './tokens.js';

/** What `POST {api}/tokens` asks for, type-checked. */
export interface NewToken {
  businessId: string;
  card: CardInput;
  /** The brand the request names, checked against the card. */
  brandId?: number | undefined;
  trackingCode?: string | undefined;
  customer?: TokenRecord['customer'];
  /** `body.customer.customerId`: one of the token's key fields. */
  customerId?: string | undefined;
}

/**
 * Saves a card as a token of the business (the existing token of the same card, else a new one). A
 * token is a promise to charge the card later: a card that could never be charged (not a test card,
 * expired) is refused without storing anything.
 */
export function createToken(deps: Pick<Deps, 'store'> & SaveTokenDeps, input: NewToken): Promise<TokenRecord> {
  const card = inspectCard(input.card);
  if (input.brandId !== undefined && input.brandId !== card.brandId) {
    throw invalidValue(
      'body.brandId',
      `The card is ${card.brandId === 0 ? 'of no brand the sandbox knows' : `a ${brandById(card.brandId)?.name} card (brandId ${card.brandId})`}.`,
    );
  }
  const refusal = card.refusal(deps.clock.now());
  if (refusal) throw new ApiError(refusal);
  return deps.store.write(() =>
    saveToken(deps, {
      businessId: input.businessId,
      fingerprint: cardFingerprint(deps, input.businessId, card.number, card.expiryMonth, card.expiryYear, input.customerId),
      behaviour: card.behaviour,
      brandId: card.brandId,
      displayHint: card.displayHint,
      firstSixDigits: card.firstSixDigits,
      lastFourDigits: card.lastFourDigits,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      holderName: card.holderName,
      trackingCode: input.trackingCode,
      customer: input.customer,
    }),
  );
}

/** The business's token; another business's token is a 404, exactly like one that does not exist. */
export function getToken(deps: Pick<Deps, 'tokens'>, businessId: string, token: string): TokenRecord {
  const found = deps.tokens.getOwned(token, businessId);
  if (!found) throw notFound('Token');
  return found;
}
