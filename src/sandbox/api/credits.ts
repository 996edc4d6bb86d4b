/**
 * Credits (payouts to a card), the provider's `/gateway/v3/credits`: created with a card like a payment,
 * read by id and by trackingCode. They are payment records with the action `CREDIT`, kept out of the
 * payments endpoints, and cannot be captured, cancelled or refunded. Test cards decide the outcome as for
 * payments; 3-D Secure does not apply to a payout.
 */
import { paymentEnvelope } from '../domain/answers.js';
import { brandById } from '../domain/brands.js';
import { invalidValue, missingProperty } from '../errors.js';
import { optionalNumber, optionalString, requireObject } from '../http/fields.js';
import { Reply, type Route, type RouteRequest } from '../http/router.js';
import { parseTransaction } from './common.js';
import { parseCardInput } from './payments.js';

async function createCredit(req: RouteRequest) {
  const json = await req.json();
  const businessId = req.businessFromBody(json);
  const body = requireObject(json.body, 'body');
  const transaction = parseTransaction(body, { trackingRequired: true });
  const t = body.transaction as Record<string, unknown>;
  const brandId = optionalNumber(t.brandId, 'body.transaction.brandId');
  if (brandId !== undefined && brandById(brandId)?.kind !== 'card') {
    throw invalidValue('body.transaction.brandId', 'A credit is paid out to a card: use a card brand or leave brandId out.');
  }
  const descriptor = optionalString(t.descriptor, 'body.transaction.descriptor', { max: 127 });
  const card = parseCardInput(requireObject(body.card, 'body.card'), { cvvRequired: false });
  const record = await req.sandbox.services.credits.create({
    businessId,
    amount: transaction.amount,
    currencyCode: transaction.currencyCode,
    trackingCode: transaction.trackingCode!,
    descriptor,
    card,
    brandId,
    notifyUrl: transaction.notifyUrl,
  });
  return Reply.json(record.httpStatus, paymentEnvelope(record));
}

function getCredit(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  return Reply.json(200, paymentEnvelope(req.sandbox.services.credits.get(businessId, req.params.creditId!)));
}

/** Every credit with the trackingCode, oldest first, as a top-level array like the payments lookup. */
function findCredits(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const code = req.query.get('trackingCode');
  if (!code) throw missingProperty('trackingCode');
  return Reply.json(200, req.sandbox.services.credits.byTrackingCode(businessId, code).map(paymentEnvelope));
}

export const creditRoutes: Route[] = [
  { method: 'POST', path: '/gateway/v3/credits', kind: 'api', handler: createCredit },
  { method: 'GET', path: '/gateway/v3/credits', kind: 'api', handler: findCredits },
  { method: 'GET', path: '/gateway/v3/credits/:creditId', kind: 'api', handler: getCredit },
];
