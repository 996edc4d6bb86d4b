/**
 * Parsing shared by the API resources: the `body.transaction` block and the payment entries of a link or checkout.
 */
import {
  absent,
  optionalString,
  requireString,
  authorizationMode,
  transactionReferences,
  requireAmount,
  requireCurrency,
  requireObject,
  returnUrl,
  trackingCode,
  type JsonObject,
} from '../http/fields.js';
import type { TransactionFields } from '../domain/records.js';
import { invalidValue, missingProperty } from '../errors.js';
import { normalIban } from '../domain/iban.js';
import type { BankAccount } from '../domain/records.js';
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

/**
 * `body.bank` of a SEPA credit or a SEPA Direct Debit payment (the account paid to or debited): `iban` (a well-formed IBAN with valid check digits, spaces allowed) and
 * `accountHolderName` required; `bic` (8 or 11 characters) and `countryCode` (two letters) optional.
 */
export function parseBankAccount(bank: JsonObject): BankAccount {
  const ibanText = requireString(bank.iban, 'body.bank.iban', { max: 42 });
  const iban = normalIban(ibanText);
  if (iban === undefined) throw invalidValue('body.bank.iban', 'Expected an IBAN with valid check digits, such as NL91ABNA0417164300.');
  const accountHolderName = requireString(bank.accountHolderName, 'body.bank.accountHolderName', { max: 100 });
  const bic = optionalString(bank.bic, 'body.bank.bic')?.toUpperCase();
  if (bic !== undefined && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic))
    throw invalidValue('body.bank.bic', 'Expected a BIC of 8 or 11 characters, such as ABNANL2A.');
  const countryCode = optionalString(bank.countryCode, 'body.bank.countryCode')?.toUpperCase();
  if (countryCode !== undefined && !/^[A-Z]{2}$/.test(countryCode))
    throw invalidValue('body.bank.countryCode', 'Expected an ISO 3166 alpha-2 country code, such as NL.');
  return { iban, accountHolderName, ...(bic !== undefined ? { bic } : {}), ...(countryCode !== undefined ? { countryCode } : {}) };
}
