/**
 * Credits (payouts to a card), the provider's `/gateway/v3/credits`: created with a card like a payment,
 * read by id and by trackingCode. They are payment records with the action `CREDIT`, kept out of the
 * payments endpoints, and cannot be captured, cancelled or refunded. Test cards decide the outcome as for
 * payments; 3-D Secure does not apply to a payout.
 */
import { paymentEnvelope } from '../domain/answers.js';
import type { PaymentRecord } from '../domain/records.js';
import { brandById } from '../domain/brands.js';
import { duplicateTrackingCode, invalidValue, missingProperty, notFound } from '../errors.js';
import { optionalNumber, optionalString, requireObject } from '../http/fields.js';
import { Reply, type Route, type RouteRequest } from '../http/router.js';
import { chargeCard } from '../services/charge.js';
import { parseTransaction } from './common.js';
import { parseCardInput } from './payments.js';

function creditOf(record: PaymentRecord | undefined): PaymentRecord | undefined {
  return record?.action === 'CREDIT' ? record : undefined;
}

async function createCredit(req: RouteRequest) {
  const { sandbox } = req;
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
  const trackingCode = transaction.trackingCode!;
  const record = await sandbox.store.write(() => {
    const taken = sandbox.payments.byTrackingCode(businessId, trackingCode).some((p) => p.action === 'CREDIT' && p.result === 0);
    if (taken) throw duplicateTrackingCode('body.transaction.trackingCode');
    return chargeCard(sandbox, {
      businessId,
      action: 'CREDIT',
      amount: transaction.amount,
      currencyCode: transaction.currencyCode,
      trackingCode,
      descriptor,
      source: { card },
      ...(brandId !== undefined ? { brandId } : {}),
      tokenize: false,
      attemptKey: `credit:${businessId}:${trackingCode}`,
      skipThreeDSecure: true,
    });
  });
  return Reply.json(record.httpStatus, paymentEnvelope(record));
}

function getCredit(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const credit = creditOf(req.sandbox.payments.getOwned(req.params.creditId!, businessId));
  if (!credit) throw notFound('Credit');
  return Reply.json(200, paymentEnvelope(credit));
}

/** Every credit with the trackingCode, oldest first, as a top-level array like the payments lookup. */
function findCredits(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const code = req.query.get('trackingCode');
  if (!code) throw missingProperty('trackingCode');
  const found = req.sandbox.payments.byTrackingCode(businessId, code).filter((p) => p.action === 'CREDIT');
  return Reply.json(200, found.map(paymentEnvelope));
}

export const creditRoutes: Route[] = [
  { method: 'POST', path: '/gateway/v3/credits', kind: 'api', handler: createCredit },
  { method: 'GET', path: '/gateway/v3/credits', kind: 'api', handler: findCredits },
  { method: 'GET', path: '/gateway/v3/credits/:creditId', kind: 'api', handler: getCredit },
];
