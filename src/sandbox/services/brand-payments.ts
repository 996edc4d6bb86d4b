/**
 * Payments by brand without card data (docs/api.md, "Redirect payments"): a card brand with a `returnUrl`
 * sends the customer to the hosted card form of that payment, a bank brand to the sandbox bank page, a
 * wallet (PayPal) to the sandbox wallet page, each created `2 Pending`; an invoice brand (AfterPay)
 * answers at once. Both functions are synchronous and run inside `sandbox.store.write(...)`.
 */
import type { Deps } from './deps.js';

/** What creating a payment by brand uses. */
export type BrandPaymentDeps = Pick<Deps, 'payments' | 'clock' | 'ids' | 'baseUrl'>;
import type { Brand } from '../domain/brands.js';
import { isoUtc } from '../domain/clock.js';
import { bankPath, paymentFormPath, walletPath } from '../domain/paths.js';
import type { BankAccount, BankDetails, PaymentRecord, PaymentRedirect, RedirectFlow } from '../domain/records.js';
import { httpStatusOfResult, RESULTS } from '../errors.js';
import { afterpayRefusal } from '../domain/afterpay.js';
import { bankName } from './bank.js';

export interface BrandPaymentRequest {
  businessId: string;
  action: 'PAYMENT' | 'AUTHORIZE';
  amount: number;
  currencyCode: string;
  trackingCode: string;
  brand: Brand;
  descriptor?: string | undefined;
  /** Where the browser goes once the customer acted (required for card brands). */
  returnUrl?: string | undefined;
  /** Card brands: save the card the customer enters as a token. */
  tokenize?: boolean | undefined;
  /** Bank brands: `body.bank` as sent. */
  bank?: { countryCode?: string | undefined; issuerId?: string | undefined } | undefined;
  /** Invoice brands (AfterPay): the details AfterPay decides on (domain/afterpay.ts). */
  invoice?: { birthDate?: string | undefined } | undefined;
  /** Debit brands (SEPA Direct Debit): the account debited, checked by the API layer. */
  account?: BankAccount | undefined;
  /** Further fields the API layer keeps on the record (e.g. where webhooks go). */
  extra?: Partial<PaymentRecord> | undefined;
}

const FLOW_OF_KIND: Partial<Record<Brand['kind'], RedirectFlow>> = { card: 'card', bank: 'bank', wallet: 'wallet' };

function baseRecord(sandbox: Pick<Deps, 'clock' | 'ids'>, req: BrandPaymentRequest, id: string): PaymentRecord {
  const now = sandbox.clock.now();
  return {
    ...req.extra,
    kind: 'payment',
    id,
    businessId: req.businessId,
    trackingCode: req.trackingCode,
    createdAt: now,
    updatedAt: now,
    action: req.action,
    ...RESULTS.pending,
    httpStatus: 200,
    requestCode: sandbox.ids.requestCode(),
    requestTimestamp: isoUtc(now),
    amount: req.amount,
    currencyCode: req.currencyCode,
    brandId: req.brand.id,
    ...(req.descriptor !== undefined ? { descriptor: req.descriptor } : {}),
    refundedAmount: 0,
  };
}

/** Where the customer is sent: the card form or the bank page (GET), or the wallet page (a form post). */
function redirectOf(sandbox: Pick<Deps, 'baseUrl'>, flow: RedirectFlow, id: string): PaymentRedirect {
  if (flow === 'card') return { method: 'GET', url: sandbox.baseUrl + paymentFormPath(id) };
  if (flow === 'bank') return { method: 'GET', url: sandbox.baseUrl + bankPath(id) };
  // The provider answered wallets with a form to post (its PHP client requires non-empty `fields`).
  return { method: 'POST', url: sandbox.baseUrl + walletPath(id), fields: { token: id } };
}

/**
 * A `2 Pending` payment waiting for the customer on the card form, the bank page or the wallet page, with
 * `redirect` to it; stored and returned. The brand must be a card, bank or wallet brand.
 */
export function createRedirectPayment(sandbox: BrandPaymentDeps, req: BrandPaymentRequest): PaymentRecord {
  const flow = FLOW_OF_KIND[req.brand.kind];
  if (flow === undefined) throw new Error(`${req.brand.name} is not paid by redirect`);
  const id = sandbox.ids.uuid();
  const record: PaymentRecord = { ...baseRecord(sandbox, req, id), flow, redirect: redirectOf(sandbox, flow, id) };
  if (req.returnUrl !== undefined) record.returnUrl = req.returnUrl;
  if (flow === 'card' && req.tokenize) record.tokenize = true;
  if (flow === 'bank') {
    const countryCode = req.bank?.countryCode ?? req.brand.countryCode;
    const bank: BankDetails = { name: bankName(req.brand, req.bank?.issuerId) };
    if (countryCode !== undefined) bank.countryCode = countryCode;
    if (req.bank?.issuerId !== undefined) bank.issuerId = req.bank.issuerId;
    record.bank = bank;
  }
  sandbox.payments.insert(record);
  return record;
}

/**
 * An invoice payment (AfterPay): approved at once (`0 Ok`), as the provider's synchronous brands answered;
 * an authorization can then be captured, refunded or cancelled like a card's. A customer AfterPay refuses
 * (domain/afterpay.ts) is declined at once with AfterPay's code and reason.
 */
export function createInvoicePayment(sandbox: BrandPaymentDeps, req: BrandPaymentRequest): PaymentRecord {
  const refusal = afterpayRefusal(req.invoice ?? {}, sandbox.clock.now());
  if (refusal !== undefined) {
    const { result, description } = RESULTS[refusal.kind];
    const declined: PaymentRecord = {
      ...baseRecord(sandbox, req, sandbox.ids.uuid()),
      result,
      description,
      httpStatus: httpStatusOfResult(result),
      error: { code: refusal.code, message: refusal.message },
      refundedAmount: undefined,
    };
    sandbox.payments.insert(declined);
    return declined;
  }
  const record: PaymentRecord = { ...baseRecord(sandbox, req, sandbox.ids.uuid()), ...RESULTS.ok };
  if (req.action === 'AUTHORIZE') record.capturedAmount = 0;
  sandbox.payments.insert(record);
  return record;
}

/**
 * A SEPA Direct Debit payment: the account in `body.bank` is debited at once (`0 Ok`, the account echoed in
 * `body.bank`), as the provider's synchronous brands answered; an authorization can then be captured (in
 * part), refunded or cancelled like a card's. No mandate is kept: each debit names its account again.
 */
export function createDebitPayment(sandbox: BrandPaymentDeps, req: BrandPaymentRequest): PaymentRecord {
  if (req.account === undefined) throw new Error(`${req.brand.name} needs the account to debit`);
  const { accountHolderName, iban, bic, countryCode } = req.account;
  const bank: BankDetails = { accountHolderName, iban };
  if (bic !== undefined) bank.bic = bic;
  if (countryCode !== undefined) bank.countryCode = countryCode;
  const record: PaymentRecord = { ...baseRecord(sandbox, req, sandbox.ids.uuid()), ...RESULTS.ok, bank };
  if (req.action === 'AUTHORIZE') record.capturedAmount = 0;
  sandbox.payments.insert(record);
  return record;
}
