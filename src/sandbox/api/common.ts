/**
 * Parsing shared by the API resources: the `body.transaction` block and the payment entries of a link or checkout.
 */
import { absent, authorizationMode, transactionReferences, requireAmount, requireCurrency, requireObject, returnUrl, trackingCode, type JsonObject } from '../http/fields.js';
import type { TransactionFields } from '../domain/records.js';
import { missingProperty } from '../errors.js';
import type { Services } from '../services/index.js';
import { paymentEntry, type PaymentEnvelope } from '../domain/answers.js';

/**
 * `body.transaction` {amount, currencyCode, authorizationMode, trackingCode}. The amount's presence is
 * checked before the currency so a request missing both names the amount first, as the provider does.
 */
export function parseTransaction(body: JsonObject, options: { trackingRequired: boolean }): TransactionFields {
  const t = requireObject(body.transaction, 'body.transaction');
  if (t.amount === undefined || t.amount === null) throw missingProperty('body.transaction.amount');
  const currencyCode = requireCurrency(t.currencyCode, 'body.transaction.currencyCode');
  const amount = requireAmount(t.amount, 'body.transaction.amount', currencyCode);
  const fields: TransactionFields = {
    amount,
    currencyCode,
    authorizationMode: authorizationMode(t.authorizationMode, 'body.transaction.authorizationMode'),
    trackingCode: trackingCode(t.trackingCode, 'body.transaction.trackingCode', options.trackingRequired),
  };
  Object.assign(fields, transactionReferences(t, 'body.transaction'));
  // Where webhook events about its payments go (docs/webhooks.md); http and https only.
  if (!absent(t.notifyUrl)) fields.notifyUrl = returnUrl(t.notifyUrl, 'body.transaction.notifyUrl');
  return fields;
}

/** `body.payments[]` of a link or checkout: an entry for each attempt, oldest first. */
export function paymentEntries(services: Services, paymentIds: readonly string[]): PaymentEnvelope[] {
  return services.payments.byIds(paymentIds).map((p) => paymentEntry(p));
}
