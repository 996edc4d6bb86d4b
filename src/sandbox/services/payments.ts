/**
 * Direct payments as the API's handlers ask for them: created inside one write after the tracking-code
 * rule (domain/tracking-codes.ts) let the code through, read only by their own business (another
 * business's payment is a 404, like one that does not exist; a credit is not a payment), and a pending
 * bank or wallet payment settled on read by its amount (services/bank.ts).
 */
import type { Brand } from '../domain/brands.js';
import type { PaymentRecord } from '../domain/records.js';
import { trackingCodeTaken } from '../domain/tracking-codes.js';
import { duplicateTrackingCode, notFound } from '../errors.js';
import { settleOnRead } from './bank.js';
import { createDebitPayment, createInvoicePayment, createRedirectPayment, type BrandPaymentDeps, type BrandPaymentRequest } from './brand-payments.js';
import { chargeCard, type ChargeDeps, type ChargeRequest } from './charge.js';
import type { Deps } from './deps.js';

/** What creating a payment uses. */
export type PaymentDeps = Pick<Deps, 'store'> & ChargeDeps & BrandPaymentDeps;

/**
 * A new direct payment: charged now with a card or a token, or by brand without card data (a redirect to
 * the card form, a bank or wallet page, or an invoice brand answered at once).
 */
export type NewPayment =
  | { via: 'card'; charge: Omit<ChargeRequest, 'attemptKey' | 'trackingCode' | 'parent' | 'into'> & { trackingCode: string } }
  | { via: 'brand'; request: BrandPaymentRequest & { brand: Brand } };

/** Throws -8 (2001) when a stored payment or credit of the business holds the code for a new `kind`. */
export function checkTrackingCodeFree(deps: Pick<Deps, 'payments'>, kind: 'payment' | 'credit', businessId: string, trackingCode: string): void {
  if (trackingCodeTaken(kind, deps.payments.byTrackingCode(businessId, trackingCode))) throw duplicateTrackingCode('body.transaction.trackingCode');
}

/** Stores a new direct payment (one write: the tracking-code check and the payment commit together). */
export function createPayment(deps: PaymentDeps, payment: NewPayment): Promise<PaymentRecord> {
  return deps.store.write(() => {
    if (payment.via === 'card') {
      const { businessId, trackingCode } = payment.charge;
      checkTrackingCodeFree(deps, 'payment', businessId, trackingCode);
      // Retry cards count the attempts made under one tracking code.
      return chargeCard(deps, { ...payment.charge, attemptKey: `tc:${businessId}:${trackingCode}` });
    }
    const req = payment.request;
    checkTrackingCodeFree(deps, 'payment', req.businessId, req.trackingCode);
    if (req.brand.kind === 'invoice') return createInvoicePayment(deps, req);
    if (req.brand.kind === 'debit') return createDebitPayment(deps, req);
    return createRedirectPayment(deps, req);
  });
}

/** What reading payments uses: a pending bank or wallet payment may settle on read. */
export type PaymentReadDeps = Pick<Deps, 'store' | 'payments' | 'clock'>;

/**
 * The business's payment (not a credit), settled on read; anything else is a 404 with no body, as the
 * provider answered a GET of an unknown payment id (a client takes an envelope's `result` as the payment's).
 */
export async function getPayment(deps: PaymentReadDeps, businessId: string, paymentId: string): Promise<PaymentRecord> {
  const payment = deps.payments.getOwned(paymentId, businessId);
  if (!payment || payment.action === 'CREDIT') throw notFound('Payment', { bare: true });
  return settleOnRead(deps, payment);
}

/** Every payment of the business with the code (follow-ups too, credits not), oldest first, settled on read. */
export async function findPayments(deps: PaymentReadDeps, businessId: string, trackingCode: string): Promise<PaymentRecord[]> {
  const found = deps.payments.byTrackingCode(businessId, trackingCode).filter((p) => p.action !== 'CREDIT');
  const settled: PaymentRecord[] = [];
  for (const p of found) settled.push(await settleOnRead(deps, p));
  return settled;
}

/** The stored payments with these ids, in that order (the attempts of a link or checkout); unknown ids are skipped. */
export function paymentsByIds(deps: Pick<Deps, 'payments'>, paymentIds: readonly string[]): PaymentRecord[] {
  const found: PaymentRecord[] = [];
  for (const id of paymentIds) {
    const payment = deps.payments.get(id);
    if (payment) found.push(payment);
  }
  return found;
}
