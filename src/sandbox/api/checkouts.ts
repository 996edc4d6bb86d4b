/**
 * Checkouts (docs/hosted-pages.md, "Lifecycle on submission"): created Pending, valid for 30 minutes, optionally
 * tokenizing the card.
 */
import {
  brandIds,
  isObject,
  optionalBoolean,
  optionalIdentifier,
  optionalObject,
  requireObject,
  returnUrl,
  threeDSecureVersion,
  tokenize,
  type JsonObject,
} from '../http/fields.js';
import { checkoutState, RESULT_OF_CHECKOUT_STATE } from '../domain/lifecycle.js';
import type { CheckoutRecord, CheckoutState, OneClickRequest } from '../domain/records.js';
import { envelope } from '../http/envelope.js';
import { errorBody, errorOf, FAILURES, invalidValue, missingProperty, RESULTS } from '../errors.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import { parseTransaction, paymentEntries } from './common.js';
import { checkoutView, transactionView, type CheckoutBody } from '../domain/answers.js';

/** A list of token strings at `path` (at most 100, each a non-empty string). */
function tokenList(value: unknown, path: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidValue(path, 'Expected a list of tokens.');
  if (value.length > 100) throw invalidValue(path, 'At most 100 tokens.');
  return value.map((token, i) => {
    if (typeof token !== 'string' || token.trim() === '') throw invalidValue(`${path}[${i}]`, 'Expected a token (a string).');
    return token;
  });
}

/**
 * The one-click part of a checkout: `body.checkout.oneClick` {tokens, useCustomerTokens, requireCvv,
 * threeDSecure} as the SDKs send it, and `body.checkout.tokens` / `useCustomerTokens` as the portal's
 * One-Click Checkout page words them (both spellings together make one superset). Undefined for a checkout
 * that asks for neither.
 */
function oneClickOf(c: JsonObject): { oneClick: OneClickRequest; tokensPath: string } | undefined {
  const nested = optionalObject(c.oneClick, 'body.checkout.oneClick') ?? {};
  const nestedTokens = tokenList(nested.tokens, 'body.checkout.oneClick.tokens');
  const flatTokens = tokenList(c.tokens, 'body.checkout.tokens');
  const useCustomerTokens =
    optionalBoolean(nested.useCustomerTokens, 'body.checkout.oneClick.useCustomerTokens') ??
    optionalBoolean(c.useCustomerTokens, 'body.checkout.useCustomerTokens');
  const requireCvv = optionalBoolean(nested.requireCvv, 'body.checkout.oneClick.requireCvv');
  const threeDSecure = optionalBoolean(nested.threeDSecure, 'body.checkout.oneClick.threeDSecure');
  if (!isObject(c.oneClick) && flatTokens === undefined && useCustomerTokens === undefined) return undefined;
  const tokens = nestedTokens === undefined && flatTokens === undefined ? undefined : [...new Set([...(nestedTokens ?? []), ...(flatTokens ?? [])])];
  const oneClick: OneClickRequest = {};
  if (tokens !== undefined) oneClick.tokens = tokens;
  if (useCustomerTokens !== undefined) oneClick.useCustomerTokens = useCustomerTokens;
  if (requireCvv !== undefined) oneClick.requireCvv = requireCvv;
  if (threeDSecure !== undefined) oneClick.threeDSecure = threeDSecure;
  return { oneClick, tokensPath: nestedTokens === undefined && flatTokens !== undefined ? 'body.checkout.tokens' : 'body.checkout.oneClick.tokens' };
}

async function createCheckout(req: RouteRequest) {
  const { sandbox } = req;
  const json = await req.json();
  const businessId = req.businessFromBody(json);
  const body = requireObject(json.body, 'body');
  const transaction = parseTransaction(body, { trackingRequired: false });
  const c = requireObject(body.checkout, 'body.checkout');
  const brands = brandIds(c.brandIds, 'body.checkout.brandIds');
  const url = returnUrl(c.returnUrl, 'body.checkout.returnUrl');
  const tokenizeMode = tokenize(c.tokenize, 'body.checkout.tokenize');
  // The portal's "3D Secure with Checkout": the flag turns the challenge on, the version says which protocol.
  const threeDSecure = optionalBoolean(c.threeDSecure, 'body.checkout.threeDSecure') ?? false;
  const version = threeDSecureVersion(body.threeDSecure, 'body.threeDSecure');
  // The portal's One-Click Checkout: saved cards offered beside the card form.
  const oneClick = oneClickOf(c);
  const customer = optionalObject(body.customer, 'body.customer');
  const customerId = customer === undefined ? undefined : optionalIdentifier(customer.customerId, 'body.customer.customerId', { max: 100 });

  const checkout = await sandbox.services.checkouts.create({
    businessId,
    transaction,
    brandIds: brands,
    returnUrl: url,
    tokenize: tokenizeMode,
    threeDSecure,
    threeDSecureVersion: version,
    oneClick: oneClick?.oneClick,
    tokensPath: oneClick?.tokensPath,
    customerId,
  });
  return envelope(sandbox, RESULTS.pending, {
    checkout: checkoutView(checkout, sandbox.baseUrl),
    transaction: transactionView(checkout.transaction),
  });
}

/** `body.error` of the checkout states whose result is an error result. */
const ERROR_OF_STATE: Partial<Record<CheckoutState, { code: number; message: string }>> = {
  DECLINED: errorOf(FAILURES.checkoutDeclined),
  DECLINEDBYCUSTOMER: errorOf(FAILURES.checkoutDeclinedByCustomer),
};

/**
 * The status answer: the result follows the checkout's state (2 Pending, 0 Completed, -4 Declined,
 * -10 Customer processing error, 4 Timeout), with `body.error` and a requestCode for the error results.
 * The HTTP status is 200 whatever the result, as the provider answered status GETs (the table of docs/api.md
 * gives 400 for -4 and -10; docs/api.md lists the difference). The body still carries the checkout, its
 * transaction and every payment attempt.
 */
export function checkoutStatusReply(sandbox: SandboxView, checkout: CheckoutRecord): Reply {
  const state = checkoutState(checkout, sandbox.clock.now());
  const body: CheckoutBody = {
    checkout: checkoutView(checkout, sandbox.baseUrl),
    transaction: transactionView(checkout.transaction),
  };
  if (checkout.paymentIds.length > 0 || state !== 'PENDING') {
    body.payments = paymentEntries(sandbox.services, checkout.paymentIds);
  }
  const outcome = RESULT_OF_CHECKOUT_STATE[state];
  const error = ERROR_OF_STATE[state];
  if (error) body.error = errorBody(error);
  // A GET answers 200 whatever the checkout's result (recorded from the provider): the result is in the body.
  return Reply.json(200, envelope(sandbox, outcome, body, outcome.result < 0));
}

function getCheckout(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  return checkoutStatusReply(req.sandbox, req.sandbox.services.checkouts.get(businessId, req.params.checkoutId!));
}

function findCheckout(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const code = req.query.get('trackingCode');
  if (!code) throw missingProperty('trackingCode');
  return checkoutStatusReply(req.sandbox, req.sandbox.services.checkouts.byTrackingCode(businessId, code));
}

export const checkoutRoutes: Route[] = [
  { route: 'checkouts.create', handler: createCheckout },
  { route: 'checkouts.list', handler: findCheckout },
  { route: 'checkouts.get', handler: getCheckout },
];
