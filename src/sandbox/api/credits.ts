/**
 * Credits, the provider's `{api}/credits`: payouts to a card (created with a card like a payment;
 * test cards decide the outcome; 3-D Secure does not apply to a payout) or to a bank account by SEPA
 * (brand 6010, `body.bank`, no card: `1 Waiting` until it settles). Read by id and by trackingCode (one
 * credit). They are payment records with the action `CREDIT`, kept out of the payments endpoints, and
 * cannot be captured, cancelled or refunded.
 */
import { paymentEnvelope } from '../domain/answers.js';
import { brandById, SEPA_CREDIT } from '../domain/brands.js';
import { invalidValue, missingProperty } from '../errors.js';
import { descriptor as descriptorField, optionalNumber, optionalObject, requireObject } from '../http/fields.js';
import { Reply, type Route, type RouteRequest } from '../http/router.js';
import { parseBankAccount, parseTransaction } from './common.js';
import { parseCardInput } from './payments.js';

async function createCredit(req: RouteRequest) {
  const json = await req.json();
  const businessId = req.businessFromBody(json);
  const body = requireObject(json.body, 'body');
  const transaction = parseTransaction(body, { trackingRequired: true });
  const t = body.transaction as Record<string, unknown>;
  const brandId = optionalNumber(t.brandId, 'body.transaction.brandId');
  const bank = optionalObject(body.bank, 'body.bank');
  const descriptor = descriptorField(t.descriptor, 'body.transaction.descriptor');
  // A credit to a bank account: SEPA, named by its brand or by a bank account sent without a card.
  if (brandId === SEPA_CREDIT.id || (brandId === undefined && bank !== undefined && optionalObject(body.card, 'body.card') === undefined)) {
    if (optionalObject(body.card, 'body.card') !== undefined)
      throw invalidValue('body.card', 'A SEPA credit (brandId 6010) is paid to body.bank: leave body.card out.');
    if (bank === undefined) throw missingProperty('body.bank');
    if (!(SEPA_CREDIT.currencies as readonly string[]).includes(transaction.currencyCode))
      throw invalidValue('body.transaction.currencyCode', 'A SEPA credit is paid in EUR.');
    const record = await req.sandbox.services.credits.createToBank({
      businessId,
      amount: transaction.amount,
      currencyCode: transaction.currencyCode,
      trackingCode: transaction.trackingCode!,
      descriptor,
      bank: parseBankAccount(bank),
      notifyUrl: transaction.notifyUrl,
    });
    return Reply.json(record.httpStatus, paymentEnvelope(record));
  }
  if (brandId !== undefined && brandById(brandId)?.kind !== 'card') {
    throw invalidValue(
      'body.transaction.brandId',
      'A credit is paid out to a card (a card brand, or leave brandId out) or to a bank account (6010 SEPA with body.bank).',
    );
  }
  if (bank !== undefined) throw invalidValue('body.bank', 'Only a SEPA credit (brandId 6010) takes body.bank; a card credit takes body.card.');
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

async function getCredit(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  return Reply.json(200, paymentEnvelope(await req.sandbox.services.credits.get(businessId, req.params.creditId!)));
}

/**
 * The credit with the trackingCode as ONE envelope, HTTP 200 whatever its result: the provider's clients
 * read credits by tracking code as a single answer (while they read payments by tracking code as a list).
 */
async function findCredit(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const code = req.query.get('trackingCode');
  if (!code) throw missingProperty('trackingCode');
  return Reply.json(200, paymentEnvelope(await req.sandbox.services.credits.byTrackingCode(businessId, code)));
}

export const creditRoutes: Route[] = [
  { route: 'credits.create', handler: createCredit },
  { route: 'credits.list', handler: findCredit },
  { route: 'credits.get', handler: getCredit },
];
