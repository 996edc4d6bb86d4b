/**
 * Charging a card or a token: the one path shared by the hosted pages and the direct payments API
 * (contract 2). Validates the card (input errors throw before anything is stored), counts attempts for
 * the retry cards, asks the outcome engine, tokenizes on success and stores the payment record. Both
 * functions are synchronous and must run inside `sandbox.store.write(() => ...)`.
 */
import { refuseControlCharacters } from '../domain/text.js';
import { brandById } from '../domain/brands.js';
import {
  cardDigitsSummary,
  isExpired,
  looksLikeCardNumber,
  maskCardNumber,
  normalizeCardNumber,
  parseExpiryMonth,
  parseExpiryYear,
  validCvv,
  cvvLength,
  HOLDER_NAME_MAX,
} from '../domain/cards.js';
import { maskDigitRuns } from '../domain/mask.js';
import { isoUtc } from '../domain/clock.js';
import { challengeOutcome, decideOutcome, type Behaviour, type Outcome } from '../domain/outcomes.js';
import type { CardSummary, PaymentRecord, PaymentRedirect, TokenRecord, TransactionReferences } from '../domain/records.js';
import { behaviourOfNumber, detectBrand, luhnValid, testCard, THREE_DS_APPROVE_CODE } from '../domain/test-cards.js';
import { businessRule, ERROR_CODES, invalidValue, missingProperty, notFound, type ApiErrorInit } from '../errors.js';
import { challengePath } from '../domain/paths.js';
import type { Deps } from './deps.js';
import { cardFingerprint, saveToken, type SaveTokenDeps } from './tokens.js';
import { pathOf } from '../domain/routes.js';
import { afterChallenge, isVersion2, threeDSecureResult, type ThreeDSecureRequest } from '../domain/three-d-secure.js';

/** Card data as the customer or the merchant sent it. Never stored: only its summary is. */
export interface CardInput {
  number: string;
  cvv?: string;
  expiryMonth: string;
  expiryYear: string;
  /** Optional (the provider's reference); a card without one is stored and answered without a name. */
  holderName?: string | undefined;
}

export interface ChargeRequest {
  businessId: string;
  action: 'PAYMENT' | 'AUTHORIZE' | 'CREDIT';
  amount: number;
  currencyCode: string;
  trackingCode?: string;
  /** Statement descriptor, echoed in the answer. */
  descriptor?: string | undefined;
  /** `storeId`, `invoiceId`, `purchaseId`, `countryCode`, `languageCode` of the request, echoed in the answer. */
  references?: TransactionReferences | undefined;
  /** `body.transaction.notifyUrl` of a direct payment (webhook events). */
  notifyUrl?: string | undefined;
  /**
   * `body.transaction.returnUrl` of a direct card payment: where the browser goes once a 3-D Secure check
   * it needed is over (`returnUrl?id=<paymentId>`), as for a redirect payment.
   */
  returnUrl?: string | undefined;
  source: { card: CardInput } | { token: string };
  /** Brand the request names (direct payments); checked against the card. */
  brandId?: number;
  /** Link/checkout brandIds: a card outside them is -1 (1002, body.card.number). */
  allowedBrandIds?: number[];
  /** Save the card as a token on success. */
  tokenize: boolean;
  /** `body.customer.customerId` of a direct payment: a key field of the token it saves. */
  customerId?: string | undefined;
  parent?: { kind: 'link' | 'checkout'; id: string };
  /** What retry cards count attempts by: 'link:<id>', 'checkout:<id>' or 'tc:<businessId>:<trackingCode>'. */
  attemptKey: string;
  /** True when re-running after a passed challenge. */
  skipThreeDSecure?: boolean;
  /** `body.threeDSecure` of a direct card payment: its result is answered; MPI data skips the challenge. */
  threeDSecure?: ThreeDSecureRequest | undefined;
  /** Link created with threeDSecure: true: approved cards go through the challenge first. */
  forceThreeDSecure?: boolean;
  /**
   * A pending card redirect payment to charge in place: the outcome replaces it under the same id (and keeps
   * its request code, time and return address) instead of making a new payment.
   */
  into?: PaymentRecord;
}

/** A charge source after validation: what the outcome engine and the record need, without the CVV. */
interface Source {
  behaviour: Behaviour;
  brandId: number;
  expiryMonth: string;
  expiryYear: string;
  holderName: string;
  firstSixDigits: string;
  lastFourDigits: string;
  displayHint: string;
  cvvPresented: boolean;
  /** Card sources only: the full number, kept in this function's scope to fingerprint a token. */
  number?: string;
  /** Token sources only. */
  token?: TokenRecord;
}

/** Counts one more retry-card attempt for `key` and returns the count (1 = first). */
function countAttempt(sandbox: Pick<Deps, 'attempts'>, key: string): number {
  return sandbox.attempts.count(key);
}

function cardSource(card: CardInput): Source {
  if (typeof card.number !== 'string' || card.number.trim() === '') throw missingProperty('body.card.number');
  const number = normalizeCardNumber(card.number);
  if (!looksLikeCardNumber(number)) throw invalidValue('body.card.number', 'Expected 12 to 19 digits.');
  if (!luhnValid(number)) throw invalidValue('body.card.number', 'The number fails the Luhn check; see docs/test-cards.md for the test cards.');

  if (typeof card.expiryMonth !== 'string' || card.expiryMonth.trim() === '') throw missingProperty('body.card.expiryMonth');
  const expiryMonth = parseExpiryMonth(card.expiryMonth);
  if (expiryMonth === undefined) throw invalidValue('body.card.expiryMonth', 'Expected a month from 1 to 12.');
  if (typeof card.expiryYear !== 'string' || card.expiryYear.trim() === '') throw missingProperty('body.card.expiryYear');
  const expiryYear = parseExpiryYear(card.expiryYear);
  if (expiryYear === undefined) throw invalidValue('body.card.expiryYear', 'Expected a year as YYYY or YY.');

  const holderName = typeof card.holderName === 'string' ? card.holderName.trim() : '';
  if (holderName.length > HOLDER_NAME_MAX) throw invalidValue('body.card.holderName', `At most ${HOLDER_NAME_MAX} characters.`);
  refuseControlCharacters(holderName, 'body.card.holderName');

  const known = testCard(number);
  const brandId = known?.brandId ?? detectBrand(number) ?? 0;
  if (card.cvv !== undefined && !validCvv(card.cvv, brandId)) {
    throw invalidValue('body.card.cvv', `Expected ${cvvLength(brandId)} digits for this card.`);
  }
  return {
    behaviour: behaviourOfNumber(number),
    brandId,
    expiryMonth,
    expiryYear,
    // The payment record and the token keep the name: a card number typed into it is masked there too.
    holderName: maskDigitRuns(holderName),
    ...cardDigitsSummary(number),
    displayHint: maskCardNumber(number),
    cvvPresented: card.cvv !== undefined,
    number,
  };
}

/** A validated card, for callers that do not charge it (token creation). */
export interface InspectedCard extends Omit<Source, 'cvvPresented' | 'number' | 'token'> {
  number: string;
  /** Why the card can never be charged at `nowMs` (not a test card, expired), as an error to throw. */
  refusal(nowMs: number): ApiErrorInit | undefined;
}

/** Validates a card like {@link chargeCard} does (throwing the same input errors) without charging it. */
export function inspectCard(card: CardInput): InspectedCard {
  const source = cardSource(card);
  const { cvvPresented: _cvvPresented, token: _token, ...fields } = source;
  return {
    ...fields,
    number: source.number!,
    refusal(nowMs) {
      const expired = isExpired(source.expiryMonth, source.expiryYear, nowMs);
      if (source.behaviour !== 'not-a-test-card' && !expired) return undefined;
      const outcome = decideOutcome(
        { behaviour: source.behaviour, brandId: source.brandId, expired, cvvPresented: source.cvvPresented, retryAttempt: 1 },
        { approvalCode: () => '' },
      );
      return { result: outcome.result, code: outcome.error!.code, message: outcome.error!.message };
    },
  };
}

function tokenSource(sandbox: Pick<Deps, 'tokens'>, businessId: string, token: string): Source {
  if (typeof token !== 'string' || token === '') throw missingProperty('body.transaction.token');
  // A token of another business is unknown here: an input error, exactly like a token that never existed.
  const saved = sandbox.tokens.getOwned(token, businessId);
  if (!saved) throw invalidValue('body.transaction.token', `Unknown token for this business; create one with POST ${pathOf('tokens.create')}.`);
  return {
    behaviour: saved.behaviour as Behaviour,
    brandId: saved.brandId,
    expiryMonth: saved.expiryMonth,
    expiryYear: saved.expiryYear,
    holderName: saved.holderName,
    firstSixDigits: saved.firstSixDigits,
    lastFourDigits: saved.lastFourDigits,
    displayHint: saved.displayHint,
    cvvPresented: false,
    token: saved,
  };
}

function brandName(brandId: number): string {
  return brandById(brandId)?.name ?? 'this brand';
}

function checkBrand(req: ChargeRequest, source: Source): void {
  const cardPath = source.token ? 'body.transaction.token' : 'body.card.number';
  if (req.brandId !== undefined && req.brandId !== source.brandId) {
    const what = source.brandId === 0 ? 'of no brand the sandbox knows' : `a ${brandName(source.brandId)} card (brandId ${source.brandId})`;
    throw invalidValue('body.transaction.brandId', `The card is ${what}; send its brandId or leave brandId out.`);
  }
  if (req.allowedBrandIds !== undefined && !req.allowedBrandIds.includes(source.brandId)) {
    const names = req.allowedBrandIds.map(brandName).join(', ');
    throw invalidValue(cardPath, `${source.brandId === 0 ? 'This card brand' : `${brandName(source.brandId)}`} is not accepted here; accepted: ${names}.`);
  }
}

function cardSummary(source: Source, outcome: Outcome): CardSummary {
  return {
    approvalCode: outcome.approvalCode,
    cvvResult: outcome.cvvResult,
    avsResult: outcome.avsResult,
    expiryMonth: source.expiryMonth,
    expiryYear: source.expiryYear,
    firstSixDigits: source.firstSixDigits,
    lastFourDigits: source.lastFourDigits,
    holderName: source.holderName,
  };
}

/**
 * Charges a card or a token and stores the attempt. Throws an input error (-1) without storing anything
 * for a bad card, an unknown token or a brand outside `brandId`/`allowedBrandIds`; otherwise returns the
 * stored record: result 0, 2 (3-D Secure, `redirect.url` to the challenge page) or negative.
 */
/** What charging uses: payments, saved tokens, retry attempts, the clock, ids, the base URL and the token secret. */
export type ChargeDeps = Pick<Deps, 'payments' | 'tokens' | 'attempts' | 'clock' | 'ids' | 'baseUrl' | 'meta'>;

/**
 * Where a payment needing 3-D Secure sends the customer: a form to post, as the provider answered it
 * (`method` POST and non-empty `fields`, which its clients assert and generic payment libraries post to
 * `url`). The challenge page takes that post as it takes a GET. The fields are the classic 3-D Secure
 * ones: `MD` the payment's id, `PaReq` an opaque request, `TermUrl` where the browser ends (when known).
 */
export function challengeRedirect(baseUrl: string, paymentId: string, returnUrl: string | undefined): PaymentRedirect {
  const fields: Record<string, string> = { MD: paymentId, PaReq: Buffer.from(`paylink-3ds:${paymentId}`, 'utf8').toString('base64') };
  if (returnUrl !== undefined) fields.TermUrl = returnUrl;
  return { method: 'POST', url: baseUrl + challengePath(paymentId), fields };
}

export function chargeCard(sandbox: ChargeDeps, req: ChargeRequest): PaymentRecord {
  const source = 'card' in req.source ? cardSource(req.source.card) : tokenSource(sandbox, req.businessId, req.source.token);
  checkBrand(req, source);

  const now = sandbox.clock.now();
  const expired = isExpired(source.expiryMonth, source.expiryYear, now);
  const retryCard = source.behaviour === 'failed-retry' || source.behaviour === 'declined-retry';
  const retryAttempt = retryCard && !expired ? countAttempt(sandbox, req.attemptKey) : 1;

  const base = req.into;
  const id = base?.id ?? sandbox.ids.uuid();
  const requestCode = base?.requestCode ?? sandbox.ids.requestCode();
  const outcome = decideOutcome(
    {
      behaviour: source.behaviour,
      brandId: source.brandId,
      expired,
      cvvPresented: source.cvvPresented,
      retryAttempt,
      forceThreeDSecure: req.forceThreeDSecure,
      // External MPI data: the merchant's own 3-D Secure server authenticated the card already.
      skipThreeDSecure: req.skipThreeDSecure === true || req.threeDSecure?.mpi !== undefined,
    },
    sandbox.ids,
  );

  const record: PaymentRecord = {
    // In place: what the pending payment was created with stays (flow, returnUrl...); the outcome is new.
    ...(base !== undefined ? { ...base, redirect: undefined, challenge: undefined, refundedAmount: undefined, capturedAmount: undefined } : {}),
    kind: 'payment',
    id,
    businessId: req.businessId,
    trackingCode: req.trackingCode,
    createdAt: base?.createdAt ?? now,
    updatedAt: now,
    action: req.action,
    parentKind: req.parent?.kind,
    parentId: req.parent?.id,
    result: outcome.result,
    description: outcome.description,
    httpStatus: outcome.httpStatus,
    error: outcome.error,
    requestCode,
    requestTimestamp: base?.requestTimestamp ?? isoUtc(now),
    amount: req.amount,
    currencyCode: req.currencyCode,
    brandId: source.brandId,
    // A number outside the test-card table leaves no trace of itself, not even its first and last digits.
    card: source.behaviour === 'not-a-test-card' ? undefined : cardSummary(source, outcome),
  };
  if (req.descriptor !== undefined) record.descriptor = req.descriptor;
  if (req.references !== undefined && Object.keys(req.references).length > 0) record.references = req.references;
  if (req.notifyUrl !== undefined) record.notifyUrl = req.notifyUrl;
  if (req.returnUrl !== undefined && base === undefined) record.returnUrl = req.returnUrl;
  if (outcome.result === 0 && req.action === 'AUTHORIZE') record.capturedAmount = 0;
  if ((outcome.result === 0 || outcome.result === 2) && req.action !== 'CREDIT') record.refundedAmount = 0;

  const issuer1Only = source.number !== undefined && testCard(source.number)?.threeDSecure1Only === true;
  if (req.threeDSecure !== undefined && req.skipThreeDSecure !== true)
    record.threeDSecure = threeDSecureResult(req.threeDSecure, outcome.challenge, issuer1Only);
  if (source.token) {
    record.token = { token: source.token.token, displayHint: source.token.displayHint };
  } else if (req.tokenize && source.number !== undefined && (outcome.result === 0 || outcome.challenge)) {
    const pending = {
      fingerprint: cardFingerprint(sandbox, req.businessId, source.number, source.expiryMonth, source.expiryYear, req.customerId),
      behaviour: source.behaviour,
      displayHint: source.displayHint,
      // Kept on the token so a one-click checkout with `useCustomerTokens` finds it by the customer id.
      ...(req.customerId !== undefined ? { customerId: req.customerId } : {}),
    };
    if (outcome.result === 0) record.token = tokenOf(sandbox, record, pending);
    else record.challenge = { behaviour: source.behaviour, cvvPresented: source.cvvPresented, tokenize: pending };
  }
  if (outcome.challenge) {
    record.redirect = challengeRedirect(sandbox.baseUrl, id, record.returnUrl);
    record.challenge ??= { behaviour: source.behaviour, cvvPresented: source.cvvPresented };
    if (req.threeDSecure?.challengeWindowSize !== undefined) record.challenge.windowSize = req.threeDSecure.challengeWindowSize;
    if (issuer1Only && req.threeDSecure !== undefined && isVersion2(req.threeDSecure.version)) record.challenge.downgraded = true;
  }
  if (base !== undefined) sandbox.payments.update(record);
  else sandbox.payments.insert(record);
  return record;
}

function tokenOf(
  sandbox: SaveTokenDeps,
  record: PaymentRecord,
  pending: { fingerprint: string; behaviour: string; displayHint: string; customerId?: string | undefined },
): { token: string; displayHint: string } {
  const card = record.card!;
  const token = saveToken(sandbox, {
    businessId: record.businessId,
    fingerprint: pending.fingerprint,
    behaviour: pending.behaviour,
    brandId: record.brandId,
    displayHint: pending.displayHint,
    firstSixDigits: card.firstSixDigits,
    lastFourDigits: card.lastFourDigits,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    holderName: card.holderName,
    customer: pending.customerId !== undefined ? { customerId: pending.customerId } : undefined,
  });
  return { token: token.token, displayHint: token.displayHint };
}

/**
 * Finishes a payment waiting for 3-D Secure: code `1234` approves it (and saves the token if one was
 * asked for), any other code or `null` (cancel) makes it -10. Does not touch links or checkouts.
 */
export function resolveChallenge(sandbox: Pick<Deps, 'payments' | 'clock' | 'ids'> & SaveTokenDeps, paymentId: string, code: string | null): PaymentRecord {
  const current = sandbox.payments.get(paymentId);
  if (!current) throw notFound('Payment');
  if (current.result !== 2 || current.challenge === undefined) {
    throw businessRule(`This payment is not waiting for 3-D Secure (its result is ${current.result} ${current.description}).`, ERROR_CODES.invalidTransition);
  }
  const now = sandbox.clock.now();
  const outcome = challengeOutcome(code, THREE_DS_APPROVE_CODE, current.brandId, current.challenge.cvvPresented, sandbox.ids);
  const updated: PaymentRecord = {
    ...current,
    result: outcome.result,
    description: outcome.description,
    httpStatus: outcome.httpStatus,
    error: outcome.error,
    card: current.card ? { ...current.card, approvalCode: outcome.approvalCode, cvvResult: outcome.cvvResult, avsResult: outcome.avsResult } : undefined,
    redirect: undefined,
    challenge: undefined,
    updatedAt: now,
  };
  if (current.threeDSecure !== undefined) updated.threeDSecure = afterChallenge(current.threeDSecure, outcome.result === 0);
  if (outcome.result === 0) {
    if (updated.action === 'AUTHORIZE') updated.capturedAmount = 0;
    if (current.challenge.tokenize) updated.token = tokenOf(sandbox, updated, current.challenge.tokenize);
  } else {
    updated.refundedAmount = undefined;
  }
  sandbox.payments.update(updated);
  return updated;
}
