/**
 * ignores-retry (docs/advisor.md#ignores-retry): a direct payment answered "retry" that was given up, and a
 * final decline retried at once with the same card.
 */
import type { CheckMeta, CheckOutcome, Finding, TrafficRequest } from '../model.js';
import { amountValue, descriptionOf, evidenceOf, obj, seconds, text, type Creation, type TrafficReader } from '../reader.js';

/** A `Failed, retry` or `Declined, retry` should see a new attempt within this time. */
export const RETRY_WINDOW_MS = 120_000;
/** An identical attempt this soon after a final decline is an immediate retry. */
export const IMMEDIATE_RETRY_MS = 60_000;
/** Results after which a retry is expected. */
const RETRY_RESULTS = new Set([-3, -5]);
/** Final declines: the same attempt again fails again (and can look like card testing). */
const FINAL_RESULTS = new Set([-4, -9, -11]);

export const meta: CheckMeta = {
  id: 'ignores-retry',
  title: 'Retries what may be retried, and only that',
  severity: 'warning',
  docs: 'docs/advisor.md#ignores-retry',
};

/** What makes two direct payment attempts the same: amount, currency, and the same card or token. */
function attemptKey(r: TrafficRequest): string | undefined {
  const body = obj(obj(r.request)?.body);
  const t = obj(body?.transaction);
  const card = obj(body?.card);
  const instrument = card
    ? `card:${text(card.number)}:${text(card.expiryMonth)}:${text(card.expiryYear)}`
    : t?.token !== undefined
      ? `token:${text(t.token)}`
      : undefined;
  if (!instrument) return undefined;
  return `${amountValue(t?.amount)}:${text(t?.currencyCode)?.toUpperCase()}:${instrument}`;
}

/** The attempts of the same business after `i` (in log order) within `windowMs` of it that satisfy `match`. */
function laterWithin(list: readonly Creation[], i: number, windowMs: number, match: (n: Creation) => boolean): Creation | undefined {
  const c = list[i]!;
  for (let j = i + 1; j < list.length; j++) {
    const n = list[j]!;
    if (n.request.at - c.request.at > windowMs) return undefined;
    if (match(n)) return n;
  }
  return undefined;
}

export function check(traffic: TrafficReader): CheckOutcome {
  const findings: Finding[] = [];
  let pending = 0;
  const byBusiness = new Map<string | null, Creation[]>();
  for (const c of traffic.creations()) {
    if (c.kind !== 'payment') continue;
    const list = byBusiness.get(c.businessId);
    if (list) list.push(c);
    else byBusiness.set(c.businessId, [c]);
  }
  for (const payments of byBusiness.values()) {
    payments.forEach((c, i) => {
      if (c.result !== undefined && RETRY_RESULTS.has(c.result)) {
        const deadline = c.request.at + RETRY_WINDOW_MS;
        const retried = laterWithin(
          payments,
          i,
          RETRY_WINDOW_MS,
          (n) => (c.trackingCode !== undefined && n.trackingCode === c.trackingCode) || (n.amount === c.amount && n.currencyCode === c.currencyCode),
        );
        if (retried) return;
        if (traffic.now < deadline) {
          pending += 1;
          return;
        }
        findings.push({
          check: meta.id,
          severity: 'warning',
          businessId: c.businessId,
          message: `A payment answered ${c.result} ${descriptionOf(c.request) ?? ''} (a retry may succeed) and no new attempt followed within ${seconds(RETRY_WINDOW_MS)}: the sale was given up.`,
          evidence: [evidenceOf(c.request)],
          at: c.request.at,
        });
      }
      if (c.result !== undefined && FINAL_RESULTS.has(c.result)) {
        const key = attemptKey(c.request);
        if (key === undefined) return;
        const again = laterWithin(payments, i, IMMEDIATE_RETRY_MS, (n) => attemptKey(n.request) === key);
        if (!again) return;
        findings.push({
          check: meta.id,
          severity: 'warning',
          businessId: c.businessId,
          message: `A final ${c.result} ${descriptionOf(c.request) ?? 'decline'} was retried at once with the same card and amount: it will be declined again, and repeated declines look like card testing to issuers.`,
          evidence: [evidenceOf(c.request), evidenceOf(again.request, 'identical retry')],
          at: c.request.at,
        });
      }
    });
  }
  findings.sort((a, b) => a.at - b.at);
  return { findings, pending };
}
