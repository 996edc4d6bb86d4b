/**
 * Credits (payouts to a card, or to a bank account by SEPA): payment records with the action `CREDIT`,
 * created inside one write after the tracking-code rule (domain/tracking-codes.ts) let the code through,
 * and read only by their own business (another business's credit, or a payment, is a 404).
 *
 * A SEPA credit is created `1 Waiting` and settles `0 Ok` at its `settlesAt` (the next business day, by the
 * sandbox clock: domain/lifecycle.ts). {@link settleDueCredits} makes every due credit settle; it runs when
 * the admin clock moves and whenever a credit is read, and is the function a general time sweep calls.
 */
import { isoUtc } from '../domain/clock.js';
import { SEPA_CREDIT } from '../domain/brands.js';
import { creditDue, creditSettlesAt, settleCredit } from '../domain/lifecycle.js';
import type { BankAccount, PaymentRecord } from '../domain/records.js';
import { notFound, RESULTS } from '../errors.js';
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

/** The account a SEPA credit is paid to (`body.bank`), checked by the API layer. */
export type CreditAccount = BankAccount;

export interface NewBankCredit {
  businessId: string;
  amount: number;
  currencyCode: string;
  trackingCode: string;
  descriptor?: string | undefined;
  bank: CreditAccount;
  notifyUrl?: string | undefined;
}

/**
 * Stores a new SEPA credit to a bank account: `1 Waiting`, brand 6010, `body.bank` echoing the account,
 * settling at the next business day (a `Transaction.Create` now, a `Transaction.Update` when it settles).
 */
export function createBankCredit(deps: Pick<Deps, 'store' | 'payments' | 'clock' | 'ids'>, credit: NewBankCredit): Promise<PaymentRecord> {
  const { businessId, trackingCode } = credit;
  return deps.store.write(() => {
    checkTrackingCodeFree(deps, 'credit', businessId, trackingCode);
    const now = deps.clock.now();
    const record: PaymentRecord = {
      kind: 'payment',
      id: deps.ids.uuid(),
      businessId,
      trackingCode,
      createdAt: now,
      updatedAt: now,
      action: 'CREDIT',
      ...RESULTS.waiting,
      httpStatus: 200,
      requestCode: deps.ids.requestCode(),
      requestTimestamp: isoUtc(now),
      amount: credit.amount,
      currencyCode: credit.currencyCode,
      brandId: SEPA_CREDIT.id,
      bank: {
        ...(credit.bank.countryCode !== undefined ? { countryCode: credit.bank.countryCode } : {}),
        accountHolderName: credit.bank.accountHolderName,
        iban: credit.bank.iban,
        ...(credit.bank.bic !== undefined ? { bic: credit.bank.bic } : {}),
      },
      settlesAt: creditSettlesAt(now),
      ...(credit.descriptor !== undefined ? { descriptor: credit.descriptor } : {}),
      ...(credit.notifyUrl !== undefined ? { notifyUrl: credit.notifyUrl } : {}),
    };
    deps.payments.insert(record);
    return record;
  });
}

/**
 * Settles, inside the caller's `store.write`, every SEPA credit due at `now` (1 Waiting -> 0 Ok through the
 * lifecycle; each update goes through the payments repository, whose write hook makes its
 * `Transaction.Update` event). Returns the settled credits, earliest due first.
 */
export function settleDueCreditsNow(deps: Pick<Deps, 'payments' | 'waitingCredits'>, now: number): PaymentRecord[] {
  const settled: PaymentRecord[] = [];
  for (const id of deps.waitingCredits.dueIds(now)) {
    const credit = deps.payments.get(id);
    if (credit === undefined || !creditDue(credit, now)) continue;
    const after = settleCredit(credit, now);
    deps.payments.update(after);
    settled.push(after);
  }
  return settled;
}

/**
 * Settles every SEPA credit whose settlement time has come by the sandbox clock (or at `now`), in one
 * write; returns them. Time moving (the admin clock, a general sweep of what time settles) calls this.
 */
export function settleDueCredits(
  deps: Pick<Deps, 'store' | 'payments' | 'waitingCredits' | 'clock'>,
  now: number = deps.clock.now(),
): Promise<PaymentRecord[]> {
  return deps.store.write(() => settleDueCreditsNow(deps, now));
}

/** A credit as it is now: a SEPA credit whose time came settles on read, like a clock move would. */
async function current(deps: Pick<Deps, 'store' | 'payments' | 'waitingCredits' | 'clock'>, credit: PaymentRecord): Promise<PaymentRecord> {
  if (!creditDue(credit, deps.clock.now())) return credit;
  await settleDueCredits(deps);
  return deps.payments.get(credit.id) ?? credit;
}

/** Every SEPA credit still waiting, earliest settlement first (the dashboard's list). */
export function waitingCredits(deps: Pick<Deps, 'payments' | 'waitingCredits' | 'store'>): Promise<PaymentRecord[]> {
  return deps.store.write(() => deps.waitingCredits.allIds().flatMap((id) => deps.payments.get(id) ?? []));
}

/** The business's credit; 404 for anything else. */
export async function getCredit(
  deps: Pick<Deps, 'store' | 'payments' | 'waitingCredits' | 'clock'>,
  businessId: string,
  creditId: string,
): Promise<PaymentRecord> {
  const credit = deps.payments.getOwned(creditId, businessId);
  if (credit?.action !== 'CREDIT') throw notFound('Credit');
  return current(deps, credit);
}

/**
 * The business's credit with the tracking code, as ONE answer (the provider's clients read credits by
 * tracking code as a single credit): the one holding the code (succeeded or waiting) if any, else the
 * latest attempt; 404 when the business has none.
 */
export async function findCredit(
  deps: Pick<Deps, 'store' | 'payments' | 'waitingCredits' | 'clock'>,
  businessId: string,
  trackingCode: string,
): Promise<PaymentRecord> {
  const credits = deps.payments.byTrackingCode(businessId, trackingCode).filter((p) => p.action === 'CREDIT');
  const chosen = credits.find((p) => p.result === 0 || p.result === RESULTS.waiting.result) ?? credits[credits.length - 1];
  if (chosen === undefined) throw notFound('Credit');
  return current(deps, chosen);
}
