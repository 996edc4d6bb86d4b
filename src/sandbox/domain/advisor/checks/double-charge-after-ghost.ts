/**
 * double-charge-after-ghost (docs/advisor.md#double-charge-after-ghost): a payment made behind a lost answer
 * (an API fault of kind `ghost`, docs/faults.md) that the merchant paid again under a new tracking code
 * without first looking the first one up by its tracking code: the customer was charged twice.
 */
import type { CheckMeta, CheckOutcome, Finding } from '../model.js';
import { evidenceOf, queryParam, type Creation, type TrafficReader } from '../reader.js';

/** A new payment this soon after a lost answer, for the same amount, is taken as its retry. */
export const GHOST_RETRY_WINDOW_MS = 30 * 60_000;
/** Results of a retry that took (or may take) the customer's money. */
const CHARGED = new Set([0, 2]);

export const meta: CheckMeta = {
  id: 'double-charge-after-ghost',
  title: 'Looks a payment up by its tracking code before paying again after a lost answer',
  severity: 'error',
  docs: 'docs/advisor.md#double-charge-after-ghost',
};

export function check(traffic: TrafficReader): CheckOutcome {
  const findings: Finding[] = [];
  const payments = traffic.creations().filter((c) => c.kind === 'payment');
  for (let i = 0; i < payments.length; i++) {
    const ghost = payments[i]!;
    if (ghost.request.fault?.kind !== 'ghost' || ghost.trackingCode === undefined) continue;
    const retry = payments.slice(i + 1).find((c) => isRetry(ghost, c) && c.result !== undefined && CHARGED.has(c.result));
    if (retry === undefined) continue;
    // Looking the first attempt up by its tracking code, before the retry, is what finds the ghost payment.
    const looked = traffic.requests.some(
      (r) =>
        r.seq > ghost.request.seq &&
        r.seq < retry.request.seq &&
        r.businessId === ghost.businessId &&
        traffic.target(r)?.op === 'lookup' &&
        queryParam(r, 'trackingCode') === ghost.trackingCode,
    );
    if (looked) continue;
    findings.push({
      check: meta.id,
      severity: 'error',
      businessId: ghost.businessId,
      message:
        `The payment with tracking code "${ghost.trackingCode}" got no answer, yet it was made; ${Math.max(1, Math.round((retry.request.at - ghost.request.at) / 1000))} s later ` +
        `the same ${ghost.amount ?? ''} ${ghost.currencyCode ?? ''} was paid again as "${retry.trackingCode ?? '(none)'}" without looking the first up: the customer was charged twice.`.replace(
          / {2,}/g,
          ' ',
        ),
      evidence: [evidenceOf(ghost.request, 'no answer: the payment was made'), evidenceOf(retry.request, 'paid again under a new tracking code')],
      at: ghost.request.at,
    });
  }
  return { findings };
}

/** A later payment of the same business, for the same amount and currency, under another tracking code. */
function isRetry(ghost: Creation, later: Creation): boolean {
  return (
    later.businessId === ghost.businessId &&
    later.trackingCode !== ghost.trackingCode &&
    later.amount === ghost.amount &&
    later.currencyCode === ghost.currencyCode &&
    later.request.at - ghost.request.at <= GHOST_RETRY_WINDOW_MS
  );
}
