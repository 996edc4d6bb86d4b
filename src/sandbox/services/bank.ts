/**
 * Bank and wallet redirect payments (docs/api.md, "Redirect payments"; docs/api.md "Redirect
 * payments"): created Pending, resolved by the customer on the sandbox's bank or wallet page, or, for
 * API-only tests, by the provider's staging convention on the amount's integer part when the payment is
 * read. Call the writers inside `sandbox.store.write`.
 */
import { errorOf, FAILURES, RESULTS, httpStatusOfResult } from '../errors.js';
import { sandboxAccount } from '../domain/bank-accounts.js';
import { brandById, type Brand } from '../domain/brands.js';
import { idealAccount, idealBankOf } from '../domain/ideal-banks.js';
import type { PaymentRecord } from '../domain/records.js';
import { simulatorFlow } from '../domain/time-settles.js';
import type { Deps } from './deps.js';

export { simulatorFlow };

/** True for a bank or wallet payment still waiting for the customer. */
export function bankPending(p: PaymentRecord): boolean {
  return p.result === 2 && simulatorFlow(p) !== undefined;
}

export type Settlement = 'approved' | 'cancelled' | 'timeout' | 'failed' | 'declined';

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

type Outcome = { kind: keyof typeof RESULTS; error?: { code: number; message: string } };

const OUTCOMES: Record<'bank' | 'wallet', Record<Settlement, Outcome>> = {
  bank: {
    approved: { kind: 'ok' },
    cancelled: { kind: 'customerProcessing', error: errorOf(FAILURES.bankCancelled) },
    timeout: { kind: 'timeout' },
    failed: { kind: 'failed', error: errorOf(FAILURES.bankFailed) },
    declined: { kind: 'declined', error: errorOf(FAILURES.bankDeclined) },
  },
  wallet: {
    approved: { kind: 'ok' },
    cancelled: { kind: 'customerProcessing', error: errorOf(FAILURES.walletCancelled) },
    timeout: { kind: 'timeout' },
    failed: { kind: 'failed', error: errorOf(FAILURES.walletFailed) },
    declined: { kind: 'declined', error: errorOf(FAILURES.walletDeclined) },
  },
};

/** iDEAL's brand id: its answers name the customer's bank. */
const IDEAL = 3010;

/**
 * `body.bank.name` of a bank payment: for iDEAL the bank the issuer id names, in the provider's form
 * (`ABN_AMRO`); the brand's name for the other bank brands, and for iDEAL until the customer's bank is known.
 */
export function bankName(brand: Brand, issuerId: string | undefined): string {
  return (brand.id === IDEAL ? idealBankOf(issuerId)?.name : undefined) ?? brand.name;
}

/** The account that paid an approved bank payment: at the iDEAL bank chosen, else the country's example account. */
function payerAccount(p: PaymentRecord, bank: NonNullable<PaymentRecord['bank']>) {
  const ideal = p.brandId === IDEAL ? idealBankOf(bank.issuerId) : undefined;
  return ideal !== undefined ? { ...sandboxAccount(bank.countryCode), ...idealAccount(ideal) } : sandboxAccount(bank.countryCode);
}

/**
 * Resolves a pending bank or wallet payment and stores it; a payment that is no longer pending is returned
 * as it is. An approved bank payment gets the account that paid it (`body.bank` iban, bic, holder).
 * `chosenIssuerId` is the bank the customer picked on the bank page (iDEAL without an issuer sent).
 */
export function settleBankPayment(sandbox: Pick<Deps, 'payments' | 'clock'>, p: PaymentRecord, how: Settlement, chosenIssuerId?: string): PaymentRecord {
  const flow = simulatorFlow(p);
  if (flow === undefined || p.result !== 2) return p;
  const { kind, error } = OUTCOMES[flow][how];
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
  if (p.bank !== undefined) {
    let bank = p.bank;
    if (p.brandId === IDEAL && bank.issuerId === undefined && idealBankOf(chosenIssuerId) !== undefined) {
      const brand = brandById(p.brandId);
      bank = { ...bank, issuerId: chosenIssuerId, ...(brand !== undefined ? { name: bankName(brand, chosenIssuerId) } : {}) };
    }
    updated.bank = result === 0 ? { ...bank, ...payerAccount(p, bank) } : bank;
  }
  sandbox.payments.update(updated);
  return updated;
}

/** Applies the amount convention to a pending bank or wallet payment being read, storing the outcome. */
export async function settleOnRead(sandbox: Pick<Deps, 'store' | 'payments' | 'clock'>, p: PaymentRecord): Promise<PaymentRecord> {
  if (!bankPending(p)) return p;
  const how = settlementByAmount(p.amount);
  if (how === undefined) return p;
  return sandbox.store.write(() => {
    // Re-read inside the write: a concurrent request may have settled it already.
    const current = sandbox.payments.get(p.id) ?? p;
    return settleBankPayment(sandbox, current, how);
  });
}
