/**
 * Credits (payouts to a card): payment records with the action `CREDIT`, created inside one write after
 * the tracking-code rule (domain/tracking-codes.ts) let the code through, and read only by their own
 * business (another business's credit, or a payment, is a 404).
 */
import type { PaymentRecord } from '../domain/records.js';
import { notFound } from '../errors.js';
import { chargeCard, type CardInput, type ChargeDeps } from './charge.js';
import type { Deps } from './deps.js';
import { checkTrackingCodeFree } from './payments.js';

export interface NewCredit {
  businessId: string;
  amount: number;
  currencyCode: string;
  trackingCode: string;
  descriptor?: string | undefined;
  card: CardInput;
  brandId?: number | undefined;
  /** `body.transaction.notifyUrl`: where the credit's webhook events go. */
  notifyUrl?: string | undefined;
}

/** Stores a new credit: charged like a card payment, without 3-D Secure (it does not apply to a payout). */
export function createCredit(deps: Pick<Deps, 'store'> & ChargeDeps, credit: NewCredit): Promise<PaymentRecord> {
  const { businessId, trackingCode } = credit;
  return deps.store.write(() => {
    checkTrackingCodeFree(deps, 'credit', businessId, trackingCode);
    return chargeCard(deps, {
      businessId,
      action: 'CREDIT',
      amount: credit.amount,
      currencyCode: credit.currencyCode,
      trackingCode,
      descriptor: credit.descriptor,
      source: { card: credit.card },
      ...(credit.brandId !== undefined ? { brandId: credit.brandId } : {}),
      tokenize: false,
      attemptKey: `credit:${businessId}:${trackingCode}`,
      skipThreeDSecure: true,
      ...(credit.notifyUrl !== undefined ? { notifyUrl: credit.notifyUrl } : {}),
    });
  });
}

/** The business's credit; 404 for anything else. */
export function getCredit(deps: Pick<Deps, 'payments'>, businessId: string, creditId: string): PaymentRecord {
  const credit = deps.payments.getOwned(creditId, businessId);
  if (credit?.action !== 'CREDIT') throw notFound('Credit');
  return credit;
}

/** Every credit of the business with the code, oldest first. */
export function findCredits(deps: Pick<Deps, 'payments'>, businessId: string, trackingCode: string): PaymentRecord[] {
  return deps.payments.byTrackingCode(businessId, trackingCode).filter((p) => p.action === 'CREDIT');
}
