/**
 * What a customer's submission on a hosted page does to its link or checkout (docs/hosted-pages.md, "Lifecycle on submission"),
 * or to a card redirect payment (docs/api.md, "Redirect payments"):
 * one-time form tokens, the charge, the attempt count, the parent's status (PAID, DECLINED after three
 * failed attempts, DECLINEDBYCUSTOMER, PENDING / `challengeOpen` while 3-D Secure is open), and the
 * redirect to the merchant's `returnUrl` with the query of docs/api.md.
 *
 * The lifecycle's rules live in `domain/lifecycle.ts`; this applies them to stored records. Every function
 * here is synchronous and runs inside `sandbox.store.write(...)`: checking a form token,
 * marking it used and charging happen in one write, so two concurrent posts of the same token (a double
 * click) can never make two payments.
 */
import type { Deps } from './deps.js';
import type { ChargeDeps } from './charge.js';
import { cvvLength, normalizeCardNumber, parseExpiryMonth, parseExpiryYear, validCvv } from '../domain/cards.js';
import {
  attemptsLeft,
  closeChallenge,
  moveAfterAttempt,
  moveParent,
  parentState,
  parentStatus,
  type Ending,
  type Parent,
  type ParentState,
} from '../domain/lifecycle.js';
import { challengePath, merchantRedirect, paymentReturnUrl } from '../domain/paths.js';
import type { CheckoutRecord, PaymentRecord, TokenRecord } from '../domain/records.js';
import { detectBrand } from '../domain/test-cards.js';
import { FIELD_LIMITS, FORM_TOKEN_TTL_MS, formTarget, issueFormToken as issueSignedToken, verifyFormToken } from '../domain/hosted-form.js';
import { ApiError, errorOf, FAILURES, httpStatusOfResult, notPayable, RESULTS } from '../errors.js';
import { chargeCard, resolveChallenge, type ChargeRequest } from './charge.js';
import type { ThreeDSecureRequest } from '../domain/three-d-secure.js';

/** What the hosted pages' submissions use: the charge's repositories, the links and checkouts they move, the form tokens. */
export type SubmissionDeps = ChargeDeps & Pick<Deps, 'store' | 'links' | 'checkouts' | 'formTokens' | 'formTokenSecret' | 'forgetCaches'>;

/** The link or checkout with this id, whatever its business: the hosted page's id is its capability. */
export function loadParent(sandbox: Pick<Deps, 'links' | 'checkouts'>, kind: Parent['kind'], id: string): Parent | undefined {
  if (kind === 'link') {
    const record = sandbox.links.get(id);
    return record ? { kind, record } : undefined;
  }
  const record = sandbox.checkouts.get(id);
  return record ? { kind, record } : undefined;
}

/** The parent of a payment made on a hosted page. */
export function parentOfPayment(sandbox: Pick<Deps, 'links' | 'checkouts'>, payment: PaymentRecord): Parent | undefined {
  if (payment.parentKind === undefined || payment.parentId === undefined) return undefined;
  return loadParent(sandbox, payment.parentKind, payment.parentId);
}

/** The payment waiting for 3-D Secure on this parent, if a challenge is open. */
export function openChallenge(sandbox: Pick<Deps, 'payments'>, parent: Parent): PaymentRecord | undefined {
  const last = parent.record.paymentIds[parent.record.paymentIds.length - 1];
  const payment = last === undefined ? undefined : sandbox.payments.get(last);
  return payment !== undefined && payment.result === 2 ? payment : undefined;
}

// ---- One-time form tokens ----

/** What a used token led to, replayed for a second post of the same form (back button, double click). */
export type StoredOutcome = { kind: 'redirect'; url: string; ending: Ending } | { kind: 'challenge'; url: string } | { kind: 'page' };

export type TokenCheck = { status: 'fresh' } | { status: 'used'; outcome: StoredOutcome | undefined } | { status: 'unknown' };

/** Used tokens recorded between two prunes of the expired ones. */
const PRUNE_EVERY = 100;

/**
 * A new one-time token for the form of `target` (domain/hosted-form.ts, `formTarget`): nothing is stored,
 * so showing a page (a GET, a HEAD, a crawler) writes nothing. A token is recorded only when a form is
 * posted with it ({@link takeFormToken}), which keeps it one-time.
 */
export function issueFormToken(sandbox: Pick<Deps, 'clock' | 'formTokenSecret'>, target: string): string {
  return issueSignedToken(sandbox.formTokenSecret, target, sandbox.clock.now());
}

/**
 * Checks a posted token for `target` and, when it is fresh, records it used (in the caller's write, with the
 * charge). Unknown: not signed for this form, or issued more than a day ago by the sandbox clock.
 */
export function takeFormToken(sandbox: SubmissionDeps, token: string, target: string): TokenCheck {
  const now = sandbox.clock.now();
  const issuedAt = verifyFormToken(sandbox.formTokenSecret, token, target, now);
  if (issuedAt === undefined) return { status: 'unknown' };
  const row = sandbox.formTokens.find(token);
  if (row) return { status: 'used', outcome: row.outcome as StoredOutcome | undefined };
  sandbox.formTokens.insertUsed(token, target, issuedAt, now);
  // Used tokens are kept until they would be refused as expired anyway.
  if (sandbox.formTokens.usedSinceDelete() >= PRUNE_EVERY) sandbox.formTokens.deleteCreatedBefore(now - FORM_TOKEN_TTL_MS);
  return { status: 'fresh' };
}

/** Records where a used token led. */
export function recordTokenOutcome(sandbox: SubmissionDeps, token: string, outcome: StoredOutcome): void {
  sandbox.formTokens.recordOutcome(token, outcome);
}

// ---- Submissions ----

/** The fields of a card form post (contract 3). */
export interface CardFormPost {
  formToken: string;
  action: 'pay' | 'decline';
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cvv: string;
  holderName: string;
  saveCard: boolean;
  /** One-click checkouts: the saved card chosen (a token the checkout offers); empty or absent for a typed card. */
  savedToken?: string | undefined;
}

/** Values a re-shown form keeps: never the card number or the CVV. */
export interface KeptValues {
  holderName: string;
  expiryMonth: string;
  expiryYear: string;
  saveCard: boolean;
}

export type SubmissionOutcome =
  /** Back to the merchant (303, or `{redirect}` when framed). */
  | { kind: 'redirect'; url: string; ending: Ending; payment?: PaymentRecord }
  /** To the 3-D Secure page of the payment waiting for it. */
  | { kind: 'challenge'; url: string; paymentId: string }
  /** A failed attempt with attempts left (or bad input): the form again with the reason. */
  | { kind: 'retry'; reason: string; attemptsLeft: number; values: KeptValues; httpStatus: number; payment?: PaymentRecord }
  /** The parent cannot be paid any more (-8): its state page says so. */
  | { kind: 'refused'; state: ParentState }
  /** The token was used before: where that post went. */
  | { kind: 'replay'; outcome: StoredOutcome | undefined }
  /** No such token for this form: nothing was done. */
  | { kind: 'stale' };

function keptValues(post: CardFormPost): KeptValues {
  return {
    holderName: post.holderName.slice(0, FIELD_LIMITS.holderName),
    expiryMonth: post.expiryMonth.slice(0, FIELD_LIMITS.expiryMonth),
    expiryYear: post.expiryYear.slice(0, FIELD_LIMITS.expiryYear),
    saveCard: post.saveCard,
  };
}

/** What each card field is called on the form, for the customer. */
const FIELD_NAMES: Record<string, string> = {
  'body.card.number': 'the card number',
  'body.card.expiryMonth': 'the expiry month',
  'body.card.expiryYear': 'the expiry year',
  'body.card.cvv': 'the security code',
  'body.card.holderName': 'the name on the card',
};

/**
 * An input error of the charge, worded for the customer on the hosted page: the form's field names, not
 * the API's paths (the API's own message stays in the request log and the API answers).
 */
function customerMessage(error: ApiError): string {
  const field = error.field === undefined ? undefined : FIELD_NAMES[error.field.path];
  if (field === undefined) return 'Please check the card details and try again.';
  if (error.field?.path === 'body.card.number' && error.field.hint !== undefined && /not accepted here/.test(error.field.hint)) return error.field.hint;
  if (error.field?.path === 'body.card.number') return 'Please check the card number: it is not a valid card number. The sandbox banner lists the test cards.';
  return `Please check ${field}.${error.field?.hint !== undefined ? ` ${error.field.hint}` : ''}`;
}

/** The hosted form's own checks, worded for a customer; the charge repeats the API's checks after them. */
function formProblem(post: CardFormPost): string | undefined {
  const number = normalizeCardNumber(post.cardNumber);
  if (number === '') return 'Enter the card number.';
  if (post.expiryMonth.trim() === '' || post.expiryYear.trim() === '') return 'Enter the expiry month and year.';
  if (parseExpiryMonth(post.expiryMonth) === undefined) return 'The expiry month must be between 1 and 12.';
  if (parseExpiryYear(post.expiryYear) === undefined) return 'Enter the expiry year as YY or YYYY.';
  const brandId = detectBrand(number);
  if (!validCvv(post.cvv.trim(), brandId)) return `Enter the ${cvvLength(brandId)}-digit security code.`;
  if (post.holderName.trim() === '') return 'Enter the name on the card.';
  return undefined;
}

function saveParent(sandbox: SubmissionDeps, parent: Parent): void {
  if (parent.kind === 'link') sandbox.links.update(parent.record);
  else sandbox.checkouts.update(parent.record);
}

function failureReason(payment: PaymentRecord): string {
  const message = payment.error?.message ?? payment.description;
  return `The payment was not approved: ${message}`;
}

/**
 * Where a stored payment leaves its parent: paid, the challenge, the last failed attempt, or another try.
 * `parent` already counts the payment.
 */
function afterPayment(sandbox: SubmissionDeps, parent: Parent, payment: PaymentRecord, values: KeptValues): SubmissionOutcome {
  const to = moveAfterAttempt(parent, payment);
  const done = moveParent(parent, to, sandbox.clock.now());
  saveParent(sandbox, done);
  if (to === 'challenge') return { kind: 'challenge', url: challengePath(payment.id), paymentId: payment.id };
  if (to !== 'open') return { kind: 'redirect', url: merchantRedirect(done, to, payment.id), ending: to, payment };
  // The internal-error test card asks for a 500; the page answers it with the form all the same.
  const httpStatus = payment.result === -7 ? 500 : 200;
  return { kind: 'retry', reason: failureReason(payment), attemptsLeft: attemptsLeft(parent), values, httpStatus, payment };
}

/** Stores where a used token led, so a second post of it goes to the same place. */
function remember(sandbox: SubmissionDeps, token: string, outcome: SubmissionOutcome): void {
  if (outcome.kind === 'redirect') recordTokenOutcome(sandbox, token, { kind: 'redirect', url: outcome.url, ending: outcome.ending });
  else if (outcome.kind === 'challenge') recordTokenOutcome(sandbox, token, { kind: 'challenge', url: outcome.url });
  else recordTokenOutcome(sandbox, token, { kind: 'page' });
}

/**
 * A post of the card form of a link or checkout: checks the one-time token, refuses a parent that cannot
 * be paid (-8: nothing is charged), and otherwise declines or charges and moves the lifecycle.
 */
export function submitCardForm(sandbox: SubmissionDeps, parent: Parent, post: CardFormPost): SubmissionOutcome {
  const token = takeFormToken(sandbox, post.formToken, formTarget(parent.kind, parent.record.id));
  if (token.status === 'unknown') return { kind: 'stale' };
  if (token.status === 'used') return { kind: 'replay', outcome: token.outcome };
  // Read again inside the write: the caller loaded it before awaiting the body, and another tab may have
  // paid or failed an attempt since.
  const current = loadParent(sandbox, parent.kind, parent.record.id) ?? parent;
  const outcome = submitFresh(sandbox, current, post);
  remember(sandbox, post.formToken, outcome);
  return outcome;
}

function submitFresh(sandbox: SubmissionDeps, parent: Parent, post: CardFormPost): SubmissionOutcome {
  const now = sandbox.clock.now();
  const state = parentState(parent, now);
  if (state === 'challenge') {
    const open = openChallenge(sandbox, parent);
    if (open) return { kind: 'challenge', url: challengePath(open.id), paymentId: open.id };
  }
  if (state !== 'open') return { kind: 'refused', state };

  if (post.action === 'decline') {
    const done = moveParent(parent, 'declinedbycustomer', now);
    saveParent(sandbox, done);
    return { kind: 'redirect', url: merchantRedirect(done, 'declinedbycustomer'), ending: 'declinedbycustomer' };
  }

  if (post.savedToken !== undefined && post.savedToken !== '') return submitSaved(sandbox, parent, post, post.savedToken);

  const values = keptValues(post);
  const problem = formProblem(post);
  if (problem !== undefined) return { kind: 'retry', reason: problem, attemptsLeft: attemptsLeft(parent), values, httpStatus: 200 };

  const { record } = parent;
  const card = { number: post.cardNumber, cvv: post.cvv.trim(), expiryMonth: post.expiryMonth, expiryYear: post.expiryYear, holderName: post.holderName };
  return chargeOnPage(sandbox, parent, post, now, {
    source: { card },
    tokenize: record.tokenize === 'TRUE' || (record.tokenize === 'INQUIRE' && post.saveCard),
    forceThreeDSecure: record.threeDSecure === true,
    threeDSecure: pageThreeDSecure(record.threeDSecure === true, record.threeDSecureVersion),
  });
}

/**
 * The 3-D Secure request of a card paid on a link's or checkout's page that asked for 3-D Secure: the
 * version sent with it (`body.threeDSecure.version`, 1 when none), so its payments carry their results
 * (`body.threeDSecure`) as a direct payment's do.
 */
function pageThreeDSecure(asked: boolean, version: string | undefined): ThreeDSecureRequest | undefined {
  return asked ? { version: version ?? '1' } : undefined;
}

/**
 * Charges what the customer gave on a link's or checkout's page, for its amount and under its tracking code,
 * then moves the page on. The charge runs in a nested savepoint: an input error (-1) leaves nothing of it
 * behind, uses no attempt and asks the customer again, while the form token stays used.
 */
function chargeOnPage(
  sandbox: SubmissionDeps,
  parent: Parent,
  post: CardFormPost,
  now: number,
  charge: Pick<ChargeRequest, 'source' | 'tokenize' | 'forceThreeDSecure' | 'threeDSecure'>,
): SubmissionOutcome {
  const { record } = parent;
  const values = keptValues(post);
  let payment: PaymentRecord;
  try {
    payment = sandbox.store.savepoint(() =>
      chargeCard(sandbox, {
        businessId: record.businessId,
        action: record.transaction.authorizationMode,
        amount: record.transaction.amount,
        currencyCode: record.transaction.currencyCode,
        ...(record.transaction.trackingCode !== undefined ? { trackingCode: record.transaction.trackingCode } : {}),
        allowedBrandIds: record.brandIds,
        parent: { kind: parent.kind, id: record.id },
        attemptKey: `${parent.kind}:${record.id}`,
        ...charge,
      }),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    sandbox.forgetCaches();
    return { kind: 'retry', reason: customerMessage(error), attemptsLeft: attemptsLeft(parent), values, httpStatus: 200 };
  }
  return afterPayment(sandbox, moveParent(parent, 'open', now, payment), payment, values);
}

/**
 * The saved cards a one-click checkout's form offers: its tokens still held by the business whose brand the
 * checkout accepts, in the order they were resolved (docs/hosted-pages.md, "Saved cards").
 */
export function savedCards(sandbox: Pick<Deps, 'tokens'>, checkout: CheckoutRecord): TokenRecord[] {
  return (checkout.savedTokens ?? []).flatMap((id) => {
    const token = sandbox.tokens.getOwned(id, checkout.businessId);
    return token && checkout.brandIds.includes(token.brandId) ? [token] : [];
  });
}

/**
 * Pays a one-click checkout with one of its saved cards: a token payment (`body.transaction.token`), with
 * the security code asked unless the checkout said `oneClick.requireCvv: false`, through the challenge
 * when it said `oneClick.threeDSecure: true`. A token the form does not offer is not paid.
 */
function submitSaved(sandbox: SubmissionDeps, parent: Parent, post: CardFormPost, tokenId: string): SubmissionOutcome {
  const now = sandbox.clock.now();
  const values = keptValues(post);
  const retry = (reason: string): SubmissionOutcome => ({ kind: 'retry', reason, attemptsLeft: attemptsLeft(parent), values, httpStatus: 200 });
  if (parent.kind !== 'checkout') return retry('Enter the card details.');
  const token = savedCards(sandbox, parent.record).find((t) => t.id === tokenId);
  if (token === undefined) return retry('Choose one of the saved cards, or enter a card.');
  const oneClick = parent.record.oneClick ?? {};
  if (oneClick.requireCvv !== false && !validCvv(post.cvv.trim(), token.brandId))
    return retry(`Enter the ${cvvLength(token.brandId)}-digit security code of the saved card.`);
  return chargeOnPage(sandbox, parent, post, now, {
    source: { token: token.id },
    tokenize: false,
    forceThreeDSecure: oneClick.threeDSecure === true,
    threeDSecure: pageThreeDSecure(oneClick.threeDSecure === true, parent.record.threeDSecureVersion),
  });
}

/** The fields of a 3-D Secure form post (contract 3). */
export interface ChallengePost {
  formToken: string;
  action: 'submit' | 'cancel';
  code: string;
}

export type ChallengeOutcome =
  | SubmissionOutcome
  /** A direct API payment (no link or checkout): the page says how the check ended. */
  | { kind: 'finished'; payment: PaymentRecord };

/**
 * A post of the 3-D Secure page: `1234` approves, anything else or cancel fails the check (-10); then the
 * parent moves on as after any other attempt (paid, declined after the third, or the form again).
 */
export function submitChallenge(sandbox: SubmissionDeps, loaded: PaymentRecord, post: ChallengePost): ChallengeOutcome {
  const token = takeFormToken(sandbox, post.formToken, formTarget('challenge', loaded.id));
  if (token.status === 'unknown') return { kind: 'stale' };
  if (token.status === 'used') return { kind: 'replay', outcome: token.outcome };
  const payment = sandbox.payments.get(loaded.id) ?? loaded;
  if (payment.result !== 2) {
    recordTokenOutcome(sandbox, post.formToken, { kind: 'page' });
    return { kind: 'stale' };
  }

  const parent = parentOfPayment(sandbox, payment);
  const now = sandbox.clock.now();
  if (parent !== undefined && parentState(parent, now) !== 'challenge') {
    // Expired or cancelled while the challenge was open: the check is abandoned, nothing is paid.
    resolveChallenge(sandbox, payment.id, null);
    if (parent.kind === 'checkout') saveParent(sandbox, { kind: 'checkout', record: closeChallenge(parent.record, now) });
    recordTokenOutcome(sandbox, post.formToken, { kind: 'page' });
    return { kind: 'refused', state: parentState(parent, now) };
  }

  const resolved = resolveChallenge(sandbox, payment.id, post.action === 'cancel' ? null : post.code.trim());
  if (parent === undefined) {
    const back = backToMerchant(resolved);
    recordTokenOutcome(sandbox, post.formToken, back ?? { kind: 'page' });
    return back ?? { kind: 'finished', payment: resolved };
  }
  const values: KeptValues = {
    holderName: resolved.card?.holderName ?? '',
    expiryMonth: resolved.card?.expiryMonth ?? '',
    expiryYear: resolved.card?.expiryYear ?? '',
    saveCard: false,
  };
  const outcome = afterPayment(sandbox, parent, resolved, values);
  remember(sandbox, post.formToken, outcome);
  return outcome;
}

/**
 * An open 3-D Secure challenge nobody answered in time (services/time-settles.ts): the check fails as a
 * cancel would (-10, 3014), and the link or checkout moves on as after any failed attempt. Call inside a write.
 */
export function abandonChallenge(sandbox: SubmissionDeps, payment: PaymentRecord): PaymentRecord {
  const resolved = resolveChallenge(sandbox, payment.id, null);
  const parent = parentOfPayment(sandbox, resolved);
  if (parent !== undefined) saveParent(sandbox, moveParent(parent, moveAfterAttempt(parent, resolved), sandbox.clock.now()));
  return resolved;
}

// ---- Card redirect payments (a direct payment created with a card brand and a returnUrl, no card) ----

/** A card redirect payment still waiting for the card form (not charged yet, no 3-D Secure open). */
export function awaitingCard(p: PaymentRecord): boolean {
  return p.flow === 'card' && p.result === 2 && p.challenge === undefined;
}

/** How a finished payment ended, for the way back to the merchant. */
function paymentEnding(p: PaymentRecord): Ending {
  if (p.result === 0) return 'paid';
  return p.error?.code === FAILURES.checkoutDeclinedByCustomer.code && p.card === undefined ? 'declinedbycustomer' : 'declined';
}

/**
 * The 303 to `returnUrl?id=<paymentId>` of a finished card payment of the API, if it has one: a card
 * redirect payment, or a direct card payment whose 3-D Secure check is over (not a link's or checkout's).
 */
function backToMerchant(p: PaymentRecord): { kind: 'redirect'; url: string; ending: Ending } | undefined {
  if (p.parentKind !== undefined || p.flow === 'bank' || p.flow === 'wallet' || p.returnUrl === undefined || p.result === 2) return undefined;
  return { kind: 'redirect', url: paymentReturnUrl(p.returnUrl, p.id), ending: paymentEnding(p) };
}

export type PaymentFormOutcome =
  /** Back to the merchant: the payment ended (paid, declined, declined by the customer). */
  | { kind: 'redirect'; url: string; ending: Ending }
  /** To the 3-D Secure page of the payment. */
  | { kind: 'challenge'; url: string; paymentId: string }
  /** Bad input: the form again with the reason (nothing was charged). */
  | { kind: 'retry'; reason: string; values: KeptValues }
  /** The payment is no longer waiting for a card: its page says how it ended. */
  | { kind: 'closed'; payment: PaymentRecord }
  /** The token was used before: where that post went. */
  | { kind: 'replay'; outcome: StoredOutcome | undefined }
  /** No such token for this form: nothing was done. */
  | { kind: 'stale' };

/**
 * A post of a card redirect payment's form. One attempt: the charge (or the decline button) settles the
 * payment in place, under its own id, and sends the customer back to the `returnUrl`; a 3-D Secure card
 * goes to the challenge first; input errors show the form again and charge nothing.
 */
export function submitPaymentForm(sandbox: SubmissionDeps, loaded: PaymentRecord, post: CardFormPost): PaymentFormOutcome {
  const token = takeFormToken(sandbox, post.formToken, formTarget('payment', loaded.id));
  if (token.status === 'unknown') return { kind: 'stale' };
  if (token.status === 'used') return { kind: 'replay', outcome: token.outcome };
  const payment = sandbox.payments.get(loaded.id) ?? loaded;
  const outcome = paymentFormFresh(sandbox, payment, post);
  if (outcome.kind === 'redirect') recordTokenOutcome(sandbox, post.formToken, outcome);
  else if (outcome.kind === 'challenge') recordTokenOutcome(sandbox, post.formToken, { kind: 'challenge', url: outcome.url });
  else recordTokenOutcome(sandbox, post.formToken, { kind: 'page' });
  return outcome;
}

function paymentFormFresh(sandbox: SubmissionDeps, payment: PaymentRecord, post: CardFormPost): PaymentFormOutcome {
  if (!awaitingCard(payment)) {
    if (payment.flow === 'card' && payment.result === 2) return { kind: 'challenge', url: challengePath(payment.id), paymentId: payment.id };
    return { kind: 'closed', payment };
  }
  if (post.action === 'decline') {
    const declined: PaymentRecord = {
      ...payment,
      ...RESULTS.customerProcessing,
      httpStatus: httpStatusOfResult(RESULTS.customerProcessing.result),
      error: errorOf(FAILURES.checkoutDeclinedByCustomer),
      redirect: undefined,
      refundedAmount: undefined,
      updatedAt: sandbox.clock.now(),
    };
    sandbox.payments.update(declined);
    return backToMerchant(declined) ?? { kind: 'closed', payment: declined };
  }
  const values = keptValues(post);
  const problem = formProblem(post);
  if (problem !== undefined) return { kind: 'retry', reason: problem, values };
  let charged: PaymentRecord;
  try {
    charged = sandbox.store.savepoint(() =>
      chargeCard(sandbox, {
        businessId: payment.businessId,
        action: payment.action === 'AUTHORIZE' ? 'AUTHORIZE' : 'PAYMENT',
        amount: payment.amount,
        currencyCode: payment.currencyCode,
        ...(payment.trackingCode !== undefined ? { trackingCode: payment.trackingCode } : {}),
        descriptor: payment.descriptor,
        source: {
          card: { number: post.cardNumber, cvv: post.cvv.trim(), expiryMonth: post.expiryMonth, expiryYear: post.expiryYear, holderName: post.holderName },
        },
        // The brand the merchant asked for is the one card brand this form takes.
        allowedBrandIds: [payment.brandId],
        tokenize: payment.tokenize === true,
        attemptKey: `tc:${payment.businessId}:${payment.trackingCode ?? payment.id}`,
        into: payment,
      }),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    sandbox.forgetCaches();
    return { kind: 'retry', reason: customerMessage(error), values };
  }
  if (charged.result === 2) return { kind: 'challenge', url: challengePath(charged.id), paymentId: charged.id };
  return backToMerchant(charged) ?? { kind: 'closed', payment: charged };
}

/** What the customer does when played in this process (the dashboard's "pay as customer"). */
export type CustomerPlay = { action: 'decline' } | { action: 'pay'; card: { number: string; cvv: string }; threeDsCode: string };

/**
 * Plays the customer on a link or checkout in one write: the same one-time form token and submission as
 * the hosted form, then the 3-D Secure page answered with `threeDsCode` if a challenge opened. Returns the
 * parent as it ends, or -8 if it could not be paid any more.
 */
export function playCustomer(sandbox: SubmissionDeps, parent: Parent, play: CustomerPlay): Parent {
  const { kind, record } = parent;
  const year = String(new Date(sandbox.clock.now()).getUTCFullYear() + 3);
  const outcome = submitCardForm(sandbox, parent, {
    formToken: issueFormToken(sandbox, `${kind}:${record.id}`),
    action: play.action,
    cardNumber: play.action === 'pay' ? play.card.number : '',
    expiryMonth: '12',
    expiryYear: year,
    cvv: play.action === 'pay' ? play.card.cvv : '',
    holderName: 'Dashboard Customer',
    saveCard: true,
  });
  if (outcome.kind === 'refused') throw notPayable(kind, parentStatus(parent, sandbox.clock.now()));
  if (outcome.kind === 'challenge' && play.action === 'pay') {
    const payment = sandbox.payments.get(outcome.paymentId);
    if (payment)
      submitChallenge(sandbox, payment, { formToken: issueFormToken(sandbox, formTarget('challenge', payment.id)), action: 'submit', code: play.threeDsCode });
  }
  return loadParent(sandbox, kind, record.id) ?? parent;
}
