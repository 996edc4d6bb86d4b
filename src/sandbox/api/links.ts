/**
 * Payment links (spec 4.1-4.3, SANDBOX.md "Lifecycle"): parse -> validate -> domain -> envelope.
 */
import { brandIds, duration, optionalBoolean, requireObject, returnUrl, tokenize } from '../domain/fields.js';
import { linkStatus } from '../domain/lifecycle.js';
import type { LinkRecord } from '../domain/records.js';
import { envelope } from '../envelope.js';
import { businessRule, ERROR_CODES, missingProperty, notFound, RESULTS } from '../errors.js';
import type { Route, RouteRequest } from '../router.js';
import type { Sandbox } from '../context.js';
import { insertUnique, parseTransaction } from './common.js';
import { linkCreatedView, linkView, paymentEntry, transactionView } from './views.js';

async function createLink(req: RouteRequest) {
  const { sandbox } = req;
  const json = await req.json();
  const businessId = req.businessFromBody(json);
  const body = requireObject(json.body, 'body');
  const transaction = parseTransaction(body, { trackingRequired: false });
  const l = requireObject(body.link, 'body.link');
  const period = duration(l.duration, 'body.link.duration');
  const brands = brandIds(l.brandIds, 'body.link.brandIds');
  const url = returnUrl(l.returnUrl, 'body.link.returnUrl');
  const tokenizeMode = tokenize(l.tokenize, 'body.link.tokenize');
  const threeDSecure = optionalBoolean(l.threeDSecure, 'body.link.threeDSecure') ?? false;

  const now = sandbox.clock.now();
  const link: LinkRecord = {
    kind: 'link',
    id: sandbox.ids.uuid(),
    businessId,
    trackingCode: transaction.trackingCode,
    createdAt: now,
    updatedAt: now,
    transaction,
    brandIds: brands,
    returnUrl: url,
    duration: period.text,
    expiresAt: now + period.ms,
    status: 'READY',
    tokenize: tokenizeMode,
    threeDSecure,
    attempts: 0,
    paymentIds: [],
  };
  await sandbox.store.write(() => insertUnique(() => sandbox.links.insert(link)));
  return envelope(sandbox, RESULTS.success, {
    link: linkCreatedView(link, sandbox.baseUrl),
    transaction: transactionView(link.transaction),
  });
}

/** The retrieval body: `Ok` with link and transaction until the customer acted, then `Completed` with payments. */
export function linkStatusEnvelope(sandbox: Sandbox, link: LinkRecord) {
  const status = linkStatus(link, sandbox.clock.now());
  const body: Record<string, unknown> = {
    link: linkView(link, status, sandbox.baseUrl),
    transaction: transactionView(link.transaction),
  };
  const customerActed = link.attempts > 0 || link.status === 'DECLINEDBYCUSTOMER';
  if (!customerActed) return envelope(sandbox, RESULTS.ok, body);
  body.payments = link.paymentIds.flatMap((id) => {
    const payment = sandbox.payments.get(id);
    return payment ? [paymentEntry(payment)] : [];
  });
  return envelope(sandbox, RESULTS.completed, body);
}

function getLink(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const link = req.sandbox.links.getOwned(req.params.linkId!, businessId);
  if (!link) throw notFound('Payment link');
  return linkStatusEnvelope(req.sandbox, link);
}

function findLink(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const code = req.query.get('trackingCode');
  if (!code) throw missingProperty('trackingCode');
  const link = req.sandbox.links.byTrackingCode(businessId, code)[0];
  if (!link) throw notFound('Payment link');
  return linkStatusEnvelope(req.sandbox, link);
}

async function cancelLink(req: RouteRequest) {
  const { sandbox } = req;
  // The business comes from the body's header, as for every POST; a bodiless POST may give it in the query.
  const businessId = req.query.has('businessId') ? req.businessFromQuery() : req.businessFromBody(await req.json());
  const current = sandbox.links.getOwned(req.params.linkId!, businessId);
  if (!current) throw notFound('Payment link');
  const status = linkStatus(current, sandbox.clock.now());
  if (status !== 'READY' && status !== 'PENDING') {
    throw businessRule(`The payment link is ${status} and cannot be cancelled; only a READY or PENDING link can.`, ERROR_CODES.invalidTransition);
  }
  const now = sandbox.clock.now();
  const link: LinkRecord = { ...current, status: 'CANCELLED', updatedAt: now };
  await sandbox.store.write(() => sandbox.links.update(link));
  return linkStatusEnvelope(sandbox, link);
}

export const linkRoutes: Route[] = [
  { method: 'POST', path: '/gateway/v3/paymentlinks', kind: 'api', handler: createLink },
  { method: 'GET', path: '/gateway/v3/paymentlinks', kind: 'api', handler: findLink },
  { method: 'GET', path: '/gateway/v3/paymentlinks/:linkId', kind: 'api', handler: getLink },
  { method: 'POST', path: '/gateway/v3/paymentlinks/:linkId/cancel', kind: 'api', handler: cancelLink },
];
