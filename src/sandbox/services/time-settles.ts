/**
 * What time settles (docs/test-cards.md, "What time settles"): the waiting payments whose window has passed
 * end at once, each with its `Transaction.Update` (the payments repository's write hook makes it), in the
 * order their windows closed, in one write. Run when the clock is moved (services/admin-clock.ts), and
 * every second as real time passes (`startSandbox`). A settled payment is no longer waiting, so it is
 * settled exactly once, across restarts too.
 */
import { simulatorFlow, timeSettlementOf, type TimeSettlement } from '../domain/time-settles.js';
import type { PaymentRecord } from '../domain/records.js';
import type { DueCursor } from '../store/pending-payments.js';
import { settleBankPayment, settlementByAmount } from './bank.js';
import type { Deps } from './deps.js';
import { abandonChallenge, type SubmissionDeps } from './submission.js';
import { settleCredit } from '../domain/lifecycle.js';

export type TimeSettleDeps = SubmissionDeps & Pick<Deps, 'pendingPayments'>;

/** One payment time settled. */
export interface Settled {
  paymentId: string;
  kind: TimeSettlement['kind'];
  dueAt: number;
  result: number;
}

/** Payments read at a time by the sweep; it reads page after page until none is due. */
const SWEEP_PAGE = 500;

/**
 * The payments due at the sandbox's now, in the order their windows closed, a page at a time (`after`: where
 * the last page ended). Call inside a write.
 */
export function dueSettlements(
  deps: Pick<Deps, 'pendingPayments' | 'payments' | 'clock'>,
  after?: DueCursor,
): { due: Array<{ payment: PaymentRecord; settlement: TimeSettlement }>; next: DueCursor | undefined } {
  const now = deps.clock.now();
  const refs = deps.pendingPayments.due(now, after, SWEEP_PAGE);
  const due: Array<{ payment: PaymentRecord; settlement: TimeSettlement }> = [];
  for (const { id } of refs) {
    const payment = deps.payments.get(id);
    if (payment === undefined) continue;
    const settlement = timeSettlementOf(payment, simulatorFlow(payment));
    if (settlement !== undefined && settlement.dueAt <= now) due.push({ payment, settlement });
  }
  return { due, next: refs.length === SWEEP_PAGE ? refs.at(-1) : undefined };
}

/**
 * Settles every payment due now, page after page until none is due. Call inside a write. A bank or wallet
 * payment of the amount convention ends as a read would have ended it (1.xx approved...); any other expires
 * as 4 Timeout. An open 3-D Secure challenge is abandoned (-10, 3014). A SEPA credit whose settlement day
 * came settles 0 Ok.
 */
export function settleDue(deps: TimeSettleDeps): Settled[] {
  const settled: Settled[] = [];
  let after: DueCursor | undefined;
  do {
    const page = dueSettlements(deps, after);
    for (const { payment, settlement } of page.due) settled.push(settleOne(deps, payment, settlement));
    after = page.next;
  } while (after !== undefined);
  return settled;
}

function settleOne(deps: TimeSettleDeps, payment: PaymentRecord, settlement: TimeSettlement): Settled {
  let after: PaymentRecord;
  if (settlement.kind === 'challenge-abandoned') after = abandonChallenge(deps, payment);
  else if (settlement.kind === 'credit-settled') {
    after = settleCredit(payment, deps.clock.now());
    deps.payments.update(after);
  } else after = settleBankPayment(deps, payment, settlementByAmount(payment.amount) ?? 'timeout');
  return { paymentId: payment.id, kind: settlement.kind, dueAt: settlement.dueAt, result: after.result };
}

/** Runs {@link settleDue} in its own write when anything is due; resolves with what it settled. */
export async function settleDueNow(deps: TimeSettleDeps): Promise<Settled[]> {
  if (!deps.pendingPayments.anyDue(deps.clock.now())) return [];
  return deps.store.write(() => settleDue(deps));
}
