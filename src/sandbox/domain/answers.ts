/**
 * The provider's answers built from records, exactly in its field names and casing: the bodies of links,
 * checkouts and payments and a payment's whole envelope (what a GET answers and what a webhook carries).
 * Pure: records in, plain objects out.
 */
import { isoUtc } from './clock.js';
import { errorBody } from '../errors.js';
import { hostedPageUrl } from './paths.js';
import { brandById } from './brands.js';
import type {
  AuthorizationMode,
  CardSummary,
  CheckoutRecord,
  OneClickRequest,
  ThreeDSecureResult,
  TokenRecord,
  LinkRecord,
  LinkStatus,
  PaymentRecord,
  PaymentRedirect,
  TransactionFields,
  TransactionReferences,
} from './records.js';

// ---- The wire types: what the API answers ----

/** `header` of an envelope. */
export interface EnvelopeHeader {
  requestTimestamp: string;
  requestCode?: string;
}

/** The provider's response envelope `{result, description, header, body}`. */
export interface Envelope<B> {
  result: number;
  description: string;
  header: EnvelopeHeader;
  body: B;
}

/** `body.error` of a failure. */
export interface ErrorAnswer {
  code: number;
  message: string;
  detailedMessage: string;
}

/** The body of a failure envelope: the error, and what else the failure tells (a payment's id, ...). */
export interface ErrorBody {
  error: ErrorAnswer;
  [field: string]: unknown;
}

/** A hosted page's address (`redirect` of a link or checkout). */
export interface PageRedirect {
  method: 'GET';
  url: string;
}

/** The merchant's references a transaction carries (`storeId`, `invoiceId`, ...), as sent. */
export type ReferencesAnswer = Pick<TransactionReferences, 'storeId' | 'invoiceId' | 'purchaseId' | 'countryCode' | 'languageCode'>;

/** `body.transaction` of a link or checkout. */
export interface TransactionAnswer extends ReferencesAnswer {
  amount: number;
  currencyCode: string;
  authorizationMode: AuthorizationMode;
  trackingCode?: string;
  type?: string;
  descriptor?: string;
}

/** `body.link`. */
export interface LinkAnswer {
  linkId: string;
  status: LinkStatus;
  redirect: PageRedirect;
  brandIds: number[];
  expirationTime: string;
  tokenize: LinkRecord['tokenize'];
  threeDSecure: boolean;
}

/** `body.checkout`. */
export interface CheckoutAnswer {
  checkoutId: string;
  redirect: PageRedirect;
  brandIds: number[];
  expirationTime: string;
  tokenize: CheckoutRecord['tokenize'];
  threeDSecure?: true;
  /** One-click checkouts: what `body.checkout.oneClick` asked for. */
  oneClick?: OneClickRequest;
}

/** `body.card`: the card's summary, without a holder name when none was sent. */
export type CardAnswer = Omit<CardSummary, 'holderName'> & { holderName?: string };

/** `body.transaction` of a payment; the sandbox's extensions only on a payment's own answer. */
export interface PaymentTransactionAnswer extends ReferencesAnswer {
  id: string;
  action: string;
  amount: number;
  currencyCode: string;
  brandId: number;
  trackingCode?: string;
  parentId?: string;
  descriptor?: string;
  capturedAmount?: number;
  refundedAmount?: number;
  cancelled?: true;
  settlesAt?: string;
}

/** `body.bank` of a bank payment: only strings, a value not known left out. */
export interface BankAnswer {
  name?: string;
  countryCode?: string;
  issuerId?: string;
  accountNumber?: string;
  accountHolderName?: string;
  iban?: string;
  bic?: string;
}

/** The `body` of a payment entry. */
export interface PaymentBodyAnswer {
  transaction: PaymentTransactionAnswer;
  card?: CardAnswer;
  token?: { token: string; displayHint: string };
  /** How 3-D Secure went, for a payment that sent `body.threeDSecure` (the SDKs' ResponseThreeDSecure). */
  threeDSecure?: ThreeDSecureResult;
  redirect?: PaymentRedirect;
  error?: ErrorAnswer;
}

/** The `body` of a payment's own answer (creation, GET, follow-ups, webhooks). */
export interface DirectPaymentBodyAnswer extends PaymentBodyAnswer {
  id: string;
  trackingCode?: string;
  bank?: BankAnswer;
}

/** A payment's envelope (an entry of `body.payments[]`, or a payment's own answer). */
export type PaymentEnvelope<B extends PaymentBodyAnswer = PaymentBodyAnswer> = Envelope<B> & { header: { requestTimestamp: string; requestCode: string } };

/** The body of a link's answer: `payments` once the customer acted. */
export interface LinkBody {
  link: LinkAnswer;
  transaction: TransactionAnswer;
  payments?: PaymentEnvelope[];
}

/** The body of a checkout's answer: `payments` once the customer acted, `error` for a failed or timed-out one. */
export interface CheckoutBody {
  checkout: CheckoutAnswer;
  transaction: TransactionAnswer;
  payments?: PaymentEnvelope[];
  error?: ErrorAnswer;
}

/** The sandbox extension's view of a token (never the fingerprint). */
export interface TokenAnswer {
  tokenId: string;
  token: string;
  brandId: TokenRecord['brandId'];
  displayHint: string;
  firstSixDigits: TokenRecord['firstSixDigits'];
  lastFourDigits: TokenRecord['lastFourDigits'];
  expiryMonth: TokenRecord['expiryMonth'];
  expiryYear: TokenRecord['expiryYear'];
  createdAt: string;
  holderName?: string;
  trackingCode?: string;
  customer?: TokenRecord['customer'];
}

export function transactionView(t: TransactionFields): TransactionAnswer {
  const view: TransactionAnswer = {
    amount: t.amount,
    currencyCode: t.currencyCode,
    authorizationMode: t.authorizationMode,
  };
  if (t.trackingCode !== undefined) view.trackingCode = t.trackingCode;
  if (t.type !== undefined) view.type = t.type;
  if (t.descriptor !== undefined) view.descriptor = t.descriptor;
  Object.assign(view, referencesView(t));
  return view;
}

/** The merchant's references (`storeId`, `invoiceId`, `purchaseId`, `countryCode`, `languageCode`) it sent. */
export function referencesView(refs: TransactionReferences | undefined): ReferencesAnswer {
  const view: Record<string, unknown> = {};
  if (refs === undefined) return view;
  for (const key of ['storeId', 'invoiceId', 'purchaseId', 'countryCode', 'languageCode'] as const) {
    if (refs[key] !== undefined) view[key] = refs[key];
  }
  return view;
}

/**
 * `body.link` on creation (docs/api.md). The provider's creation answer carried what its retrieval answer
 * does: the status (its PHP client requires it), `tokenize` and `threeDSecure` (clients assert them on
 * the creation answer), so it is the retrieval view of the new link.
 */
export function linkCreatedView(link: LinkRecord, baseUrl: string): LinkAnswer {
  return linkView(link, link.status, baseUrl);
}

/** `body.link` on retrieval (docs/api.md). */
export function linkView(link: LinkRecord, status: LinkStatus, baseUrl: string): LinkAnswer {
  return {
    linkId: link.id,
    status,
    redirect: { method: 'GET', url: hostedPageUrl(baseUrl, 'link', link.id) },
    brandIds: link.brandIds,
    expirationTime: isoUtc(link.expiresAt),
    tokenize: link.tokenize,
    threeDSecure: link.threeDSecure,
  };
}

/** `body.checkout` (docs/api.md). */
export function checkoutView(checkout: CheckoutRecord, baseUrl: string): CheckoutAnswer {
  const view: CheckoutAnswer = {
    checkoutId: checkout.id,
    redirect: { method: 'GET', url: hostedPageUrl(baseUrl, 'checkout', checkout.id) },
    brandIds: checkout.brandIds,
    expirationTime: isoUtc(checkout.expiresAt),
    tokenize: checkout.tokenize,
  };
  // The portal's 3-D Secure checkout answers `threeDSecure: true`; its other examples show no such field.
  if (checkout.threeDSecure === true) view.threeDSecure = true;
  // One-click (the SDKs' ResponseCheckout carries `oneClick` as it was sent): echoed as asked for.
  if (checkout.oneClick !== undefined) view.oneClick = { ...checkout.oneClick };
  return view;
}

/** `body.transaction` of a payment (entry or direct payment). */
export function paymentTransactionView(p: PaymentRecord): PaymentTransactionAnswer {
  const view: PaymentTransactionAnswer = {
    id: p.id,
    action: p.action.toLowerCase(),
    amount: p.amount,
    currencyCode: p.currencyCode,
    brandId: p.brandId,
  };
  if (p.trackingCode !== undefined) view.trackingCode = p.trackingCode;
  if (p.parentPaymentId !== undefined) view.parentId = p.parentPaymentId;
  if (p.descriptor !== undefined) view.descriptor = p.descriptor;
  Object.assign(view, referencesView(p.references));
  return view;
}

/** `body.card`: the card's summary; a card sent without a holder name (optional) is answered without one. */
export function cardView(card: CardSummary): CardAnswer {
  const { holderName, ...rest } = card;
  return holderName === '' ? rest : { ...rest, holderName };
}

/** The `body` of a payment: transaction, card, token when tokenized, redirect while pending, error on failure. */
export function paymentBody(p: PaymentRecord): PaymentBodyAnswer {
  const body: PaymentBodyAnswer = { transaction: paymentTransactionView(p) };
  if (p.card !== undefined) body.card = cardView(p.card);
  if (p.token !== undefined) body.token = { ...p.token };
  if (p.threeDSecure !== undefined) body.threeDSecure = { ...p.threeDSecure };
  if (p.redirect !== undefined) body.redirect = p.redirect.fields !== undefined ? { ...p.redirect, fields: { ...p.redirect.fields } } : { ...p.redirect };
  if (p.error !== undefined) body.error = errorBody(p.error);
  return body;
}

/**
 * One entry of `body.payments[]` (docs/api.md): its own result, description, header and body. A direct
 * payment's answer is the same envelope around a richer body (see `api/payments.ts`).
 */
export function paymentEntry<B extends PaymentBodyAnswer = PaymentBodyAnswer>(p: PaymentRecord, body: B): PaymentEnvelope<B>;
export function paymentEntry(p: PaymentRecord): PaymentEnvelope;
export function paymentEntry(p: PaymentRecord, body: PaymentBodyAnswer = paymentBody(p)): PaymentEnvelope {
  return {
    result: p.result,
    description: p.description,
    header: { requestTimestamp: p.requestTimestamp, requestCode: p.requestCode },
    body,
  };
}

/** The body of a direct payment: the spec's `id` and `trackingCode`, then transaction, card, token... */
export function directPaymentBody(p: PaymentRecord): DirectPaymentBodyAnswer {
  const head: { id: string; trackingCode?: string } = { id: p.id };
  if (p.trackingCode !== undefined) head.trackingCode = p.trackingCode;
  // Key order as the provider's: id and trackingCode first.
  const body: DirectPaymentBodyAnswer = Object.assign(head, paymentBody(p));
  const transaction = body.transaction;
  // Sandbox extension: how much of a payment or authorization was captured, refunded or cancelled.
  if (p.capturedAmount !== undefined) transaction.capturedAmount = p.capturedAmount;
  if (p.refundedAmount !== undefined) transaction.refundedAmount = p.refundedAmount;
  if (p.cancelled) transaction.cancelled = true;
  // Sandbox extension: when a waiting SEPA credit settles, by the sandbox clock.
  if (p.settlesAt !== undefined) transaction.settlesAt = isoUtc(p.settlesAt);
  if (p.bank !== undefined) body.bank = bankView(p);
  return body;
}

/**
 * `body.bank` of a bank payment: the bank's `name` (iDEAL: the customer's bank in the provider's form,
 * `ABN_AMRO`; otherwise the brand's), `countryCode` when known, the `issuerId` sent, and once paid the
 * payer's account (`accountNumber` for iDEAL, `accountHolderName`, `iban`, `bic`). Only strings: a value not known
 * is left out, never answered as `{}` or `null`.
 */
export function bankView(p: PaymentRecord): BankAnswer {
  const bank = p.bank ?? {};
  const view: BankAnswer = {};
  // A SEPA credit's account is named by no brand: 6010 as a payment brand is SEPA Direct Debit.
  const name = bank.name ?? (p.action === 'CREDIT' ? undefined : brandById(p.brandId)?.name);
  if (name !== undefined) view.name = name;
  for (const key of ['countryCode', 'issuerId', 'accountNumber', 'accountHolderName', 'iban', 'bic'] as const) {
    const value = bank[key];
    if (typeof value === 'string') view[key] = value;
  }
  return view;
}

/** The envelope of a payment, as its creation answered it (and every later GET answers it). */
export function paymentEnvelope(p: PaymentRecord): PaymentEnvelope<DirectPaymentBodyAnswer> {
  return paymentEntry(p, directPaymentBody(p));
}

/** What saving a card answers (`POST {api}/tokens`): the token, its hint, and the trackingCode it was first saved with. */
export type TokenCreatedAnswer = Pick<TokenAnswer, 'tokenId' | 'token' | 'displayHint' | 'trackingCode'>;

/** The answer to saving a card, from the token it made or found (a card sent again keeps its first token). */
export function tokenCreatedView(token: TokenRecord): TokenCreatedAnswer {
  const view: TokenCreatedAnswer = { tokenId: token.id, token: token.token, displayHint: token.displayHint };
  // What GET answers: a card sent again keeps the token, and the trackingCode, it was first saved with.
  if (token.trackingCode !== undefined) view.trackingCode = token.trackingCode;
  return view;
}

/** The sandbox extension's view of a token (`GET {api}/tokens/{token}`): never the fingerprint. */
export function tokenView(token: TokenRecord): TokenAnswer {
  const view: TokenAnswer = {
    tokenId: token.id,
    token: token.token,
    brandId: token.brandId,
    displayHint: token.displayHint,
    firstSixDigits: token.firstSixDigits,
    lastFourDigits: token.lastFourDigits,
    expiryMonth: token.expiryMonth,
    expiryYear: token.expiryYear,
    createdAt: isoUtc(token.createdAt),
  };
  // A card saved without a holder name (optional in the provider's reference) has none to show.
  if (token.holderName !== '') view.holderName = token.holderName;
  if (token.trackingCode !== undefined) view.trackingCode = token.trackingCode;
  if (token.customer !== undefined) view.customer = token.customer;
  return view;
}
