/**
 * What time settles (docs/test-cards.md, "What time settles"): the waiting payments whose window has passed
 * end at once, each with its `Transaction.Update` (the payments repository's write hook makes it), in the
 * order their windows closed, in one write. Run when the clock is moved (services/admin-clock.ts), and
 * every second as real time passes (`startSandbox`). A settled payment is no longer waiting, so it is
 * settled exactly once, across restarts too.
 */
import { SHORTEST_WINDOW_MS, timeSettlementOf, type TimeSettlement } from '../domain/time-settles.js';
import type { PaymentRecord } from '../domain/records.js';
import { settleBankPayment, settlementByAmount, simulatorFlow } from './bank.js';
import type { Deps } from './deps.js';
import { abandonChallenge, type SubmissionDeps } from './submission.js';
import { settleCredit } from '../domain/lifecycle.js';

export type TimeSettleDeps = SubmissionDeps & Pick<Deps, 'pendingPayments' | 'waitingCredits'>;

/** One payment time settled. */
export interface Settled {
  paymentId: string;
  kind: TimeSettlement['kind'];
  dueAt: number;
  result: number;
}

/** The waiting payments due at the sandbox's now, in the order their windows closed. Call inside a write. */
export function dueSettlements(deps: Pick<Deps, 'pendingPayments' | 'waitingCredits' | 'payments' | 'clock'>): Array<{ payment: PaymentRecord; settlement: TimeSettlement }> {
  const now = deps.clock.now();
  const due: Array<{ payment: PaymentRecord; settlement: TimeSettlement }> = [];
  for (const id of [...deps.pendingPayments.createdBy(now - SHORTEST_WINDOW_MS), ...deps.waitingCredits.dueIds(now)]) {
    const payment = deps.payments.get(id);
    if (payment === undefined) continue;
    const settlement = timeSettlementOf(payment, simulatorFlow(payment));
    if (settlement !== undefined && settlement.dueAt <= now) due.push({ payment, settlement });
  }
  return due.sort((a, b) => a.settlement.dueAt - b.settlement.dueAt || a.payment.createdAt - b.payment.createdAt);
}

/**
 * Settles every payment due now. Call inside a write. A bank or wallet payment of the amount convention
 * ends as a read would have ended it (1.xx approved...); any other expires as 4 Timeout. An open 3-D Secure
 * challenge is abandoned (-10, 3014). A SEPA credit whose settlement day came settles 0 Ok.
 */
export function settleDue(deps: TimeSettleDeps): Settled[] {
  const settled: Settled[] = [];
  for (const { payment, settlement } of dueSettlements(deps)) {
    let after: PaymentRecord;
    if (settlement.kind === 'challenge-abandoned') after = abandonChallenge(deps, payment);
    else if (settlement.kind === 'credit-settled') {
      after = settleCredit(payment, deps.clock.now());
      deps.payments.update(after);
    } else after = settleBankPayment(deps, payment, settlementByAmount(payment.amount) ?? 'timeout');
    settled.push({ paymentId: payment.id, kind: settlement.kind, dueAt: settlement.dueAt, result: after.result });
  }
  return settled;
}

/** Runs {@link settleDue} in its own write when anything is due; resolves with what it settled. */
export async function settleDueNow(deps: TimeSettleDeps): Promise<Settled[]> {
  if (dueSettlements(deps).length === 0) return [];
  return deps.store.write(() => settleDue(deps));
}
