/**
 * Payment links (docs/hosted-pages.md, "Lifecycle on submission"): parse -> validate -> domain -> envelope.
 */
import {
  absent,
  brandIds,
  duration,
  optionalBoolean,
  optionalString,
  requireObject,
  returnUrl,
  threeDSecureVersion,
  tokenize,
  type JsonObject,
} from '../http/fields.js';
import { LINK_DEFAULT_BRAND_IDS } from '../domain/brands.js';
import { customerActed, linkStatus } from '../domain/lifecycle.js';
import type { LinkRecord, LinkStatus } from '../domain/records.js';
import { envelope, envelopeText } from '../http/envelope.js';
import { missingProperty, RESULTS } from '../errors.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import { parseTransaction, paymentEntries } from './common.js';
import { linkCreatedView, linkView, transactionView, type LinkBody } from '../domain/answers.js';

async function createLink(req: RouteRequest) {
  const { sandbox } = req;
  const json = await req.json();
  const businessId = req.businessFromBody(json);
  const body = requireObject(json.body, 'body');
  const transaction = parseTransaction(body, { trackingRequired: false });
  const t = body.transaction as JsonObject;
  // The portal's "Create Payment Link" example: the link's type (SINGLE) and descriptor, echoed back.
  const type = optionalString(t.type, 'body.transaction.type', { max: 50 })?.toUpperCase();
  if (type !== undefined) transaction.type = type;
  const descriptor = optionalString(t.descriptor, 'body.transaction.descriptor', { max: 127 });
  if (descriptor !== undefined) transaction.descriptor = descriptor;
  const l = requireObject(body.link, 'body.link');
  const period = duration(l.duration, 'body.link.duration');
  // Without brandIds a link offers the portal's default list ("Get Payment Link").
  const brands = absent(l.brandIds) ? [...LINK_DEFAULT_BRAND_IDS] : brandIds(l.brandIds, 'body.link.brandIds');
  const url = returnUrl(l.returnUrl, 'body.link.returnUrl');
  const tokenizeMode = tokenize(l.tokenize, 'body.link.tokenize');
  const threeDSecure = optionalBoolean(l.threeDSecure, 'body.link.threeDSecure') ?? false;
  // The provider's clients send the protocol version beside the switch (`{version: "2"}`): its payments' results name it.
  const version = threeDSecureVersion(body.threeDSecure, 'body.threeDSecure');

  const link = await sandbox.services.links.create({
    businessId,
    transaction,
    brandIds: brands,
    returnUrl: url,
    duration: period,
    tokenize: tokenizeMode,
    threeDSecure,
    threeDSecureVersion: version,
  });
  return envelope(sandbox, RESULTS.success, {
    link: linkCreatedView(link, sandbox.baseUrl),
    transaction: transactionView(link.transaction),
  });
}

/** The retrieval body: `Ok` with link and transaction until the customer acted, then `Completed` with payments. */
export function linkStatusEnvelope(sandbox: SandboxView, link: LinkRecord) {
  const status = linkStatus(link, sandbox.clock.now());
  const body: LinkBody = {
    link: linkView(link, status, sandbox.baseUrl),
    transaction: transactionView(link.transaction),
  };
  if (!customerActed(link)) return envelope(sandbox, RESULTS.ok, body);
  body.payments = paymentEntries(sandbox.services, link.paymentIds);
  return envelope(sandbox, RESULTS.completed, body);
}

interface CachedBody {
  status: LinkStatus;
  storedStatus: LinkRecord['status'];
  updatedAt: number;
  attempts: number;
  baseUrl: string;
  json: string;
}

/**
 * Serialized `body` of links nobody has paid yet, the answer merchants poll: kept on the record object (the
 * store hands out a new one on every update; a symbol stays out of its fields and of JSON) and checked
 * against everything the body depends on.
 */
const UNPAID_BODY = Symbol('unpaidBody');
type WithBody = LinkRecord & { [UNPAID_BODY]?: CachedBody };

/** {@link linkStatusEnvelope}, answered from a cached serialized body while nothing was attempted. */
function linkStatusReply(sandbox: SandboxView, link: LinkRecord): unknown {
  if (customerActed(link)) return linkStatusEnvelope(sandbox, link);
  const now = sandbox.clock.now();
  const status = linkStatus(link, now);
  const baseUrl = sandbox.baseUrl;
  let cached = (link as WithBody)[UNPAID_BODY];
  if (
    cached === undefined ||
    cached.status !== status ||
    cached.storedStatus !== link.status ||
    cached.updatedAt !== link.updatedAt ||
    cached.attempts !== link.attempts ||
    cached.baseUrl !== baseUrl
  ) {
    const json = JSON.stringify({ link: linkView(link, status, baseUrl), transaction: transactionView(link.transaction) });
    cached = { status, storedStatus: link.status, updatedAt: link.updatedAt, attempts: link.attempts, baseUrl, json };
    (link as WithBody)[UNPAID_BODY] = cached;
  }
  return Reply.jsonText(200, envelopeText(sandbox, RESULTS.ok, cached.json));
}

function getLink(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  return linkStatusReply(req.sandbox, req.sandbox.services.links.get(businessId, req.params.linkId!));
}

function findLink(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const code = req.query.get('trackingCode');
  if (!code) throw missingProperty('trackingCode');
  return linkStatusReply(req.sandbox, req.sandbox.services.links.byTrackingCode(businessId, code));
}

async function cancelLinkRoute(req: RouteRequest) {
  // The business comes from the body's header, as for every POST; a bodiless POST may give it in the query.
  const businessId = req.query.has('businessId') ? req.businessFromQuery() : req.businessFromBody(await req.json());
  const link = await req.sandbox.services.links.cancel(businessId, req.params.linkId!);
  return linkStatusEnvelope(req.sandbox, link);
}

export const linkRoutes: Route[] = [
  { route: 'links.create', handler: createLink },
  { route: 'links.list', handler: findLink },
  { route: 'links.get', handler: getLink },
  { route: 'links.cancel', handler: cancelLinkRoute },
];
