/**
 * Direct payments (docs/test-cards.md, "Direct payments", docs/api.md "Redirect payments"): card
 * and token payments, redirect payments (a card brand's hosted form, bank and wallet pages), invoice
 * payments (AfterPay), their lookup, and capture, cancel and refund.
 */
import { brandAuthorizes, brandById, brandTakesCurrency } from '../domain/brands.js';
import { HOLDER_NAME_MAX } from '../domain/cards.js';
import {
  absent,
  descriptor as descriptorField,
  isObject,
  optionalIdentifier,
  optionalNumber,
  optionalObject,
  optionalString,
  paymentTrackingCode,
  requireAmount,
  requireCurrency,
  requireInteger,
  requireObject,
  requireString,
  returnUrl,
  threeDSecureRequest,
  trackingCode as parseTrackingCode,
  type Json,
  type JsonObject,
} from '../http/fields.js';
import type { PaymentRecord, TransactionReferences } from '../domain/records.js';
import { invalidValue, missingProperty } from '../errors.js';
import { Reply, type Route, type RouteRequest } from '../http/router.js';
import type { CardInput } from '../services/charge.js';
import type { FollowUpAction } from '../domain/follow-ups.js';
import { parseBankAccount, parseTransaction } from './common.js';
import { paymentEnvelope } from '../domain/answers.js';

/** The references actually sent, or undefined when none was. */
function pruned(refs: TransactionReferences): TransactionReferences | undefined {
  const kept = Object.fromEntries(Object.entries(refs).filter(([, v]) => v !== undefined)) as TransactionReferences;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** A payment answered with the HTTP status of its result: 200, 400 for failures, 500 for the -7 test card. */
function paymentReply(p: PaymentRecord): Reply {
  return Reply.json(p.httpStatus, paymentEnvelope(p));
}

/** Top-level `action`: `payment` or `authorize`, any case. */
function parseAction(value: Json | undefined): 'PAYMENT' | 'AUTHORIZE' {
  const action = requireString(value, 'action').toUpperCase();
  if (action !== 'PAYMENT' && action !== 'AUTHORIZE') throw invalidValue('action', 'Expected payment or authorize.');
  return action;
}

/** A string, or a JSON integer taken as its digits (expiry fields). */
function stringOrInteger(value: Json | undefined, path: string): string {
  if (value === undefined || value === null) throw missingProperty(path);
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) throw invalidValue(path, 'Expected digits.');
    return String(value);
  }
  return requireString(value, path);
}

/**
 * `body.card` of a payment or token request, type-checked. The rules on the values themselves (Luhn,
 * expiry, CVV length) are `chargeCard`'s, so the hosted pages and the API apply the same ones.
 */
export function parseCardInput(card: JsonObject, options: { cvvRequired: boolean }): CardInput {
  const number = requireString(card.number, 'body.card.number', { max: 30 });
  const expiryMonth = stringOrInteger(card.expiryMonth, 'body.card.expiryMonth');
  const expiryYear = stringOrInteger(card.expiryYear, 'body.card.expiryYear');
  // Optional, as the provider's reference marks it: its own examples (3DS 2.0 payment, tokenization) leave it out.
  const holderName = optionalString(card.holderName, 'body.card.holderName', { max: HOLDER_NAME_MAX });
  const cvv = options.cvvRequired ? requireString(card.cvv, 'body.card.cvv', { max: 4 }) : optionalString(card.cvv, 'body.card.cvv', { max: 4 });
  const input: CardInput = { number, expiryMonth, expiryYear };
  if (holderName !== undefined) input.holderName = holderName;
  if (cvv !== undefined) input.cvv = cvv;
  return input;
}

/** `tokenize`: a JSON boolean, or `true`/`false` in any case. */
function parseTokenize(value: Json | undefined, path: string): boolean {
  if (absent(value)) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(path, 'Expected true or false.');
}

function optionalBrandId(value: Json | undefined, path: string): number | undefined {
  if (absent(value)) return undefined;
  const id = requireInteger(value, path);
  if (brandById(id) === undefined) throw invalidValue(path, 'Unknown brand id; see docs/api.md for the brands the sandbox knows.');
  return id;
}

/** `body.transaction.returnUrl` (card, bank and wallet payments): optional, an absolute http(s) URL. */
function optionalReturnUrl(value: Json | undefined): string | undefined {
  return absent(value) ? undefined : returnUrl(value, 'body.transaction.returnUrl');
}

const INVOICE_TEXT_FIELDS: Record<string, readonly string[]> = {
  customer: ['ipAddress', 'birthDate', 'email', 'familyName', 'givenName', 'phoneNumber', 'sex'],
  address: ['city', 'countryCode', 'houseNumber', 'houseNumberAddition', 'street', 'zip', 'state'],
};

/** Known text fields of `object` hold text (or a number, taken as its digits); others are not looked at. */
function checkTexts(object: JsonObject, path: string, fields: readonly string[]): void {
  for (const field of fields) {
    const value = object[field];
    if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number') {
      throw invalidValue(`${path}.${field}`, 'Expected a string.');
    }
  }
}

/**
 * What an invoice payment (AfterPay) sends beside the transaction, as the provider's PHP client's
 * AfterpayTest does: `customer`, `billingAddress`, `shippingAddress` (with its own `customer`) and
 * `order.orderLines`. Checked loosely (objects where objects belong, text and numbers where the client
 * sends them, unknown fields left alone) and not stored; the customer's `birthDate` is returned, the one
 * detail AfterPay decides on (domain/afterpay.ts).
 */
function parseInvoiceDetails(body: JsonObject): { birthDate?: string | undefined } {
  const customer = optionalObject(body.customer, 'body.customer');
  if (customer !== undefined) checkTexts(customer, 'body.customer', INVOICE_TEXT_FIELDS.customer!);
  const birthDate = typeof customer?.birthDate === 'string' ? customer.birthDate : undefined;
  for (const key of ['billingAddress', 'shippingAddress'] as const) {
    const address = optionalObject(body[key], `body.${key}`);
    if (address === undefined) continue;
    checkTexts(address, `body.${key}`, INVOICE_TEXT_FIELDS.address!);
    const addressee = optionalObject(address.customer, `body.${key}.customer`);
    if (addressee !== undefined) checkTexts(addressee, `body.${key}.customer`, INVOICE_TEXT_FIELDS.customer!);
  }
  const order = optionalObject(body.order, 'body.order');
  const lines = order?.orderLines;
  if (absent(lines)) return { birthDate };
  if (!Array.isArray(lines)) throw invalidValue('body.order.orderLines', 'Expected an array of order lines.');
  lines.forEach((line, index) => {
    const path = `body.order.orderLines[${index}]`;
    if (!isObject(line)) throw invalidValue(path, 'Expected an object.');
    checkTexts(line, path, ['description', 'productCode', 'purchaseType']);
    for (const field of ['itemAmount', 'totalAmount', 'quantity', 'taxPercentage', 'discountAmount', 'taxAmount'])
      optionalNumber(line[field], `${path}.${field}`);
  });
  return { birthDate };
}

async function createPayment(req: RouteRequest) {
  const json = await req.json();
  const businessId = req.businessFromBody(json);
  const action = parseAction(json.action);
  const body = requireObject(json.body, 'body');
  const transaction = parseTransaction(body, { trackingRequired: true });
  const t = body.transaction as JsonObject;
  const trackingCode = paymentTrackingCode(t.trackingCode, 'body.transaction.trackingCode');
  const { storeId, invoiceId, purchaseId, countryCode, languageCode } = transaction;
  const references = pruned({ storeId, invoiceId, purchaseId, countryCode, languageCode });
  const brandId = optionalBrandId(t.brandId, 'body.transaction.brandId');
  const tokenize = parseTokenize(t.tokenize, 'body.transaction.tokenize');
  const token = optionalString(t.token, 'body.transaction.token', { max: 100 });
  const descriptor = descriptorField(t.descriptor, 'body.transaction.descriptor');
  const card = optionalObject(body.card, 'body.card');
  const bank = optionalObject(body.bank, 'body.bank');

  const brand = brandId !== undefined ? brandById(brandId) : undefined;
  const extra = { ...(transaction.notifyUrl !== undefined ? { notifyUrl: transaction.notifyUrl } : {}), ...(references !== undefined ? { references } : {}) };
  const common = { businessId, action, amount: transaction.amount, currencyCode: transaction.currencyCode, trackingCode, descriptor, extra };
  const payments = req.sandbox.services.payments;

  if (brand !== undefined && brand.kind !== 'card') {
    if (card !== undefined || token !== undefined)
      throw invalidValue('body.transaction.brandId', `A ${brand.name} payment takes no card or token; leave out body.card and body.transaction.token.`);
    if (!brandTakesCurrency(brand, transaction.currencyCode)) {
      throw invalidValue('body.transaction.currencyCode', `${brand.name} takes ${brand.currencies!.join(', ')}; see docs/api.md.`);
    }
    if (tokenize) throw invalidValue('body.transaction.tokenize', `A ${brand.name} payment cannot be tokenized.`);
    if (brand.kind === 'invoice') {
      const invoice = parseInvoiceDetails(body);
      if (bank !== undefined) throw invalidValue('body.bank', `A ${brand.name} payment takes no body.bank.`);
      return paymentReply(await payments.create({ via: 'brand', request: { ...common, brand, invoice } }));
    }
    if (brand.kind === 'debit') {
      // SEPA Direct Debit: the account to debit in body.bank, as a SEPA credit names the account paid to.
      if (bank === undefined) throw missingProperty('body.bank');
      return paymentReply(await payments.create({ via: 'brand', request: { ...common, brand, account: parseBankAccount(bank) } }));
    }
    // The reference: a brand without a separate authorize-capture flow makes an "authorize" a final payment,
    // answered with action "payment".
    const brandAction = brandAuthorizes(brand) ? action : 'PAYMENT';
    const back = optionalReturnUrl(t.returnUrl);
    let bankInput: { countryCode?: string | undefined; issuerId?: string | undefined } | undefined;
    if (brand.kind === 'bank') {
      if (bank === undefined) throw missingProperty('body.bank');
      // The provider's clients send issuerId as a number and often no countryCode (iDEAL is Dutch).
      const countryCode = optionalString(bank.countryCode, 'body.bank.countryCode')?.toUpperCase();
      if (countryCode !== undefined && !/^[A-Z]{2}$/.test(countryCode))
        throw invalidValue('body.bank.countryCode', 'Expected an ISO 3166 alpha-2 country code, such as NL.');
      bankInput = { countryCode, issuerId: optionalIdentifier(bank.issuerId, 'body.bank.issuerId', { max: 50 }) };
    } else if (bank !== undefined) {
      throw invalidValue('body.bank', `A ${brand.name} payment takes no body.bank.`);
    }
    return paymentReply(await payments.create({ via: 'brand', request: { ...common, action: brandAction, brand, returnUrl: back, bank: bankInput } }));
  }

  // A card brand and a returnUrl without card data: the customer enters the card on the hosted form.
  if (brand !== undefined && card === undefined && token === undefined && bank === undefined && !absent(t.returnUrl)) {
    const back = returnUrl(t.returnUrl, 'body.transaction.returnUrl');
    return paymentReply(await payments.create({ via: 'brand', request: { ...common, brand, returnUrl: back, tokenize } }));
  }

  if (bank !== undefined)
    throw invalidValue(
      'body.bank',
      'Only a bank payment (body.transaction.brandId 3010 iDEAL, 3020 Sofort, 3025 Giropay, 3030 EPS) or a SEPA Direct Debit (6010) takes body.bank.',
    );
  if (card !== undefined && token !== undefined) throw invalidValue('body.card', 'Send either body.card or body.transaction.token, not both.');
  if (card === undefined && token === undefined) throw missingProperty('body.card');
  const source = card !== undefined ? { card: parseCardInput(card, { cvvRequired: false }) } : { token: token! };
  // The token a tokenized payment saves is keyed by the customer too, when the request names one.
  const customer = optionalObject(body.customer, 'body.customer');
  const customerId = customer === undefined ? undefined : optionalIdentifier(customer.customerId, 'body.customer.customerId', { max: 100 });
  // The portal's 3DS 2.0 with Payments API: the version asked for, or external MPI data.
  const threeDSecure = threeDSecureRequest(body.threeDSecure, 'body.threeDSecure');

  const record = await payments.create({
    via: 'card',
    charge: {
      businessId,
      action,
      amount: transaction.amount,
      currencyCode: transaction.currencyCode,
      trackingCode,
      descriptor,
      references,
      notifyUrl: transaction.notifyUrl,
      returnUrl: optionalReturnUrl(t.returnUrl),
      source,
      brandId,
      tokenize,
      customerId,
      threeDSecure,
    },
  });
  return paymentReply(record);
}

async function getPayment(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  // A GET answers 200 whatever the payment's result (recorded from the provider): the result is in the body.
  return Reply.json(200, paymentEnvelope(await req.sandbox.services.payments.get(businessId, req.params.paymentId!)));
}

/**
 * Every payment of a business with a trackingCode, oldest first, each as its own envelope (captures and
 * refunds too), as a top-level JSON array: the provider answered this lookup without an envelope (its PHP
 * client reads it with `executeAndReturnArray`). None found is an empty array.
 */
async function findPayments(req: RouteRequest) {
  const businessId = req.businessFromQuery();
  const code = req.query.get('trackingCode');
  if (!code) throw missingProperty('trackingCode');
  const found = await req.sandbox.services.payments.byTrackingCode(businessId, code);
  return Reply.json(200, found.map(paymentEnvelope));
}

function followUpRoute(action: FollowUpAction) {
  return async (req: RouteRequest) => {
    const json = await req.json();
    const businessId = req.businessFromBody(json);
    const body = optionalObject(json.body, 'body');
    const t = body !== undefined ? optionalObject(body.transaction, 'body.transaction') : undefined;
    const requested = t?.amount;
    // The provider's clients send the follow-up's own trackingCode (and the currency) with it.
    const trackingCode = t === undefined ? undefined : parseTrackingCode(t.trackingCode, 'body.transaction.trackingCode', false);
    const currency = t === undefined || absent(t.currencyCode) ? undefined : requireCurrency(t.currencyCode, 'body.transaction.currencyCode');
    const child = await req.sandbox.services.payments.followUp({
      businessId,
      paymentId: req.params.paymentId!,
      action,
      trackingCode,
      amountFor: (cur) => {
        if (currency !== undefined && currency !== cur) throw invalidValue('body.transaction.currencyCode', `The payment is in ${cur}.`);
        return absent(requested) ? undefined : requireAmount(requested, 'body.transaction.amount', cur);
      },
    });
    return paymentReply(child);
  };
}

export const paymentRoutes: Route[] = [
  { route: 'payments.create', handler: createPayment },
  { route: 'payments.list', handler: findPayments },
  { route: 'payments.get', handler: getPayment },
  { route: 'payments.capture', handler: followUpRoute('CAPTURE') },
  { route: 'payments.cancel', handler: followUpRoute('CANCEL') },
  { route: 'payments.refund', handler: followUpRoute('REFUND') },
];
