/**
 * What AfterPay decides on an invoice payment's details (docs/api.md, "AfterPay declines"): a customer under
 * 18 on the sandbox clock's day is declined with the provider's AfterPay code 300400800 and its reason
 * "Age is under 18". Pure: the caller gives the birth date as sent and the time.
 */
import { FAILURES, type Failure } from '../errors.js';

/** The failure AfterPay answers for these details at `nowMs`, or undefined when it approves. */
export function afterpayRefusal(details: { birthDate?: string | undefined }, nowMs: number): Failure | undefined {
  const born = /^(\d{4})-(\d{2})-(\d{2})/.exec(details.birthDate ?? '');
  if (born === null) return undefined;
  const [year, month, day] = [Number(born[1]), Number(born[2]), Number(born[3])];
  const now = new Date(nowMs);
  const [y, m, d] = [now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()];
  const age = y - year - (m < month || (m === month && d < day) ? 1 : 0);
  return age < 18 ? FAILURES.afterpayUnderAge : undefined;
}
