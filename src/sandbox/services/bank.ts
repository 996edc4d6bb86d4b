/**
 * Bank redirect payments (SANDBOX.md, "Bank redirect payments"): created Pending, resolved by the
 * customer on the sandbox bank page, or, for API-only tests, by the provider's staging convention on the
 * amount's integer part when the payment is read. Call the writers inside `sandbox.store.write`.
 */
import { errorOf, FAILURES, RESULTS, httpStatusOfResult } from '../errors.js';
import type { PaymentRecord } from '../domain/records.js';
import type { Sandbox } from '../context.js';

/** True for a bank payment still waiting for the customer. */
export function bankPending(p: PaymentRecord): boolean {
  return p.bank !== undefined && p.result === 2;
}

type Settlement = 'approved' | 'cancelled' | 'timeout' | 'failed';

/**
 * The staging convention: the amount's integer part 1 approves, 2 is cancelled by the customer (-10),
 * 3 times out (4), 5 fails (-2); 4 and every other amount stay pending until the bank page is used.
 */
export function settlementByAmount(amount: number): Settlement | undefined {
  switch (Math.trunc(amount)) {
    case 1:
      return 'approved';
    case 2:
      return 'cancelled';
    case 3:
      return 'timeout';
    case 5:
      return 'failed';
    default:
      return undefined;
  }
}

const OUTCOMES: Record<Settlement, { kind: keyof typeof RESULTS; error?: { code: number; message: string } }> = {
  approved: { kind: 'ok' },
  cancelled: { kind: 'customerProcessing', error: errorOf(FAILURES.bankCancelled) },
  timeout: { kind: 'timeout' },
  failed: { kind: 'failed', error: errorOf(FAILURES.bankFailed) },
};

/** Resolves a pending bank payment and stores it; a payment that is no longer pending is returned as it is. */
export function settleBankPayment(sandbox: Sandbox, p: PaymentRecord, how: Settlement): PaymentRecord {
  if (!bankPending(p)) return p;
  const { kind, error } = OUTCOMES[how];
  const { result, description } = RESULTS[kind];
  const updated: PaymentRecord = {
    ...p,
    result,
    description,
    httpStatus: httpStatusOfResult(result),
    error,
    redirect: undefined,
    refundedAmount: result === 0 ? 0 : undefined,
    updatedAt: sandbox.clock.now(),
  };
  sandbox.payments.update(updated);
  return updated;
}

/** Applies the amount convention to a pending bank payment being read, storing the outcome. */
export async function settleOnRead(sandbox: Sandbox, p: PaymentRecord): Promise<PaymentRecord> {
  if (!bankPending(p)) return p;
  const how = settlementByAmount(p.amount);
  if (how === undefined) return p;
  return sandbox.store.write(() => {
    // Re-read inside the write: a concurrent request may have settled it already.
    const current = sandbox.payments.get(p.id) ?? p;
    return settleBankPayment(sandbox, current, how);
  });
}
