/**
 * What time settles (docs/test-cards.md, "What time settles"): a payment left waiting by a customer who
 * never comes back ends when its window passes, whether the sandbox clock is moved past it or real time
 * passes. Pure: the windows, and when (and how) a waiting payment is due to settle. SEPA credits wait for
 * their settlement day instead (domain/lifecycle.ts), and are settled by the same sweep.
 */
import { brandSessionMs } from './brands.js';
import type { PaymentRecord } from './records.js';

/**
 * A bank payment (Sofort, EPS: brands whose sheet gives no session timeout; iDEAL and Giropay use theirs,
 * `sessionTimeoutSeconds` in domain/brands.ts) whose customer never finishes on the bank page: 15 minutes,
 * as the provider's pending iDEAL payments expired (iDEAL sessions last at most 15 minutes).
 */
export const BANK_PENDING_MS = 15 * 60_000;
/** A wallet payment (PayPal) whose customer never comes back: 3 hours, as PayPal's approval links expire. */
export const WALLET_PENDING_MS = 3 * 60 * 60_000;
/** An open 3-D Secure challenge nobody answers: abandoned after 10 minutes, as issuers' ACS sessions end. */
export const CHALLENGE_OPEN_MS = 10 * 60_000;

/** How a waiting payment ends when its window passes (a SEPA credit: when its settlement day comes). */
export type TimeSettlement = { kind: 'bank-expired' | 'wallet-expired' | 'challenge-abandoned' | 'credit-settled'; dueAt: number };

/**
 * The simulator page a payment is completed on: `wallet` for PayPal, `bank` for the bank brands (payments
 * stored before `flow` existed are recognised by their `bank`), none for any other payment.
 */
export function simulatorFlow(p: PaymentRecord): 'bank' | 'wallet' | undefined {
  if (p.flow === 'wallet') return 'wallet';
  if (p.flow === 'bank' || (p.flow === undefined && p.bank !== undefined)) return 'bank';
  return undefined;
}

/**
 * When and how time settles `p`, or undefined when it does not: it is not waiting (result 2), or it is a
 * bank or wallet payment of the amount convention's 4.xx, which stays pending on purpose.
 */
export function timeSettlementOf(p: PaymentRecord, flow: 'bank' | 'wallet' | undefined): TimeSettlement | undefined {
  // A SEPA credit waits (1) until the next business day (domain/lifecycle.ts creditSettlesAt), then settles 0 Ok.
  if (p.action === 'CREDIT' && p.result === 1 && p.settlesAt !== undefined) return { kind: 'credit-settled', dueAt: p.settlesAt };
  if (p.result !== 2) return undefined;
  if (p.challenge !== undefined) return { kind: 'challenge-abandoned', dueAt: p.createdAt + CHALLENGE_OPEN_MS };
  if (flow === undefined || Math.trunc(p.amount) === 4) return undefined;
  const window = brandSessionMs(p.brandId);
  return flow === 'bank'
    ? { kind: 'bank-expired', dueAt: p.createdAt + (window ?? BANK_PENDING_MS) }
    : { kind: 'wallet-expired', dueAt: p.createdAt + (window ?? WALLET_PENDING_MS) };
}

/**
 * The moment time settles `p` (epoch ms of the sandbox clock), or undefined when it never does. Stored beside
 * each payment (the payments table's `time_due_at`, migration 13), so the sweep reads only what is due, in
 * the order it falls due, however many payments wait for good (4.xx).
 */
export function timeDueAt(p: PaymentRecord): number | undefined {
  return timeSettlementOf(p, simulatorFlow(p))?.dueAt;
}
