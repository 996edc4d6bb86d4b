/**
 * Response bodies built from records, exactly in the provider's field names and casing.
 */
import { isoUtc } from '../domain/clock.js';
import { hostedPageUrl } from '../domain/paths.js';
import type { CheckoutRecord, LinkRecord, LinkStatus, PaymentRecord, TransactionFields } from '../domain/records.js';

export function transactionView(t: TransactionFields): Record<string, unknown> {
  const view: Record<string, unknown> = {
    amount: t.amount,
    currencyCode: t.currencyCode,
    authorizationMode: t.authorizationMode,
  };
  if (t.trackingCode !== undefined) view.trackingCode = t.trackingCode;
  return view;
}


/** `body.link` on creation (spec 4.1). */
export function linkCreatedView(link: LinkRecord, baseUrl: string): Record<string, unknown> {
  return {
    linkId: link.id,
    redirect: { method: 'GET', url: hostedPageUrl(baseUrl, 'link', link.id) },
    brandIds: link.brandIds,
    expirationTime: isoUtc(link.expiresAt),
  };
}

/** `body.link` on retrieval (spec 4.2). */
export function linkView(link: LinkRecord, status: LinkStatus, baseUrl: string): Record<string, unknown> {
  return {
    linkId: link.id,
    status,
    redirect: { method: 'GET', url: hostedPageUrl(baseUrl, 'link', link.id) },
    brandIds: link.brandIds,
    expirationTime: isoUtc(link.expiresAt),
    tokenize: link.tokenize,
    threeDSecure: link.threeDSecure,
  };
}

/** `body.checkout` (spec 2.4). */
export function checkoutView(checkout: CheckoutRecord, baseUrl: string): Record<string, unknown> {
  return {
    checkoutId: checkout.id,
    redirect: { method: 'GET', url: hostedPageUrl(baseUrl, 'checkout', checkout.id) },
    brandIds: checkout.brandIds,
    expirationTime: isoUtc(checkout.expiresAt),
    tokenize: checkout.tokenize,
  };
}

/** `body.transaction` of a payment (entry or direct payment). */
export function paymentTransactionView(p: PaymentRecord): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: p.id,
    action: p.action.toLowerCase(),
    amount: p.amount,
    currencyCode: p.currencyCode,
    brandId: p.brandId,
  };
  if (p.trackingCode !== undefined) view.trackingCode = p.trackingCode;
  if (p.parentPaymentId !== undefined) view.parentId = p.parentPaymentId;
  return view;
}

/** The `body` of a payment: transaction, card, token when tokenized, redirect for bank payments, error on failure. */
export function paymentBody(p: PaymentRecord): Record<string, unknown> {
  const body: Record<string, unknown> = { transaction: paymentTransactionView(p) };
  if (p.card !== undefined) body.card = { ...p.card };
  if (p.token !== undefined) body.token = { ...p.token };
  if (p.redirect !== undefined) body.redirect = { ...p.redirect };
  if (p.error !== undefined) body.error = { ...p.error };
  return body;
}

/**
 * One entry of `body.payments[]` (spec 2.5): its own result, description, header and body. A direct
 * payment's answer is the same envelope around a richer body (see `api/payments.ts`).
 */
export function paymentEntry(p: PaymentRecord, body: Record<string, unknown> = paymentBody(p)): Record<string, unknown> {
  return {
    result: p.result,
    description: p.description,
    header: { requestTimestamp: p.requestTimestamp, requestCode: p.requestCode },
    body,
  };
}
