/**
 * reuses-tracking-code (docs/advisor.md#reuses-tracking-code): creations refused as duplicates of a tracking
 * code, and one tracking code used for different kinds of resource with different amounts.
 */
import type { CheckMeta, CheckOutcome, Finding } from '../model.js';
import { capped, ERROR_CODES, errorOf, evidenceOf, type Creation, type TrafficReader } from '../reader.js';

export const meta: CheckMeta = {
  id: 'reuses-tracking-code',
  title: 'One tracking code per order',
  severity: 'warning',
  docs: 'docs/advisor.md#reuses-tracking-code',
};

function groupBy(list: readonly Creation[], keep: (c: Creation) => boolean): Map<string, Creation[]> {
  const groups = new Map<string, Creation[]>();
  for (const c of list) {
    if (!keep(c)) continue;
    const key = `${c.businessId}\u0000${c.trackingCode}`;
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return groups;
}

export function check(traffic: TrafficReader): CheckOutcome {
  const findings: Finding[] = [];
  const creations = traffic.creations();
  const refused = groupBy(creations, (c) => c.result === -8 && errorOf(c.request)?.code === ERROR_CODES.duplicateTrackingCode);
  for (const list of refused.values()) {
    const first = list[0]!;
    findings.push({
      check: meta.id,
      severity: 'warning',
      businessId: first.businessId,
      message: `${list.length} ${first.kind} creation${list.length > 1 ? 's were' : ' was'} refused as a duplicate of tracking code "${first.trackingCode}": your order numbering collides (after a restart, across shops, on retry).`,
      evidence: capped(list.map((c) => evidenceOf(c.request))),
      at: first.request.at,
    });
  }
  // Accepted creations of different kinds with one tracking code and different amounts: different orders.
  const accepted = groupBy(
    creations,
    (c) => c.trackingCode !== undefined && c.request.status < 500 && c.request.status !== 404 && c.result !== -1 && c.result !== -6 && c.result !== -8,
  );
  for (const list of accepted.values()) {
    if (list.length < 2) continue;
    const kinds = new Set(list.map((c) => c.kind));
    const orders = new Set(list.map((c) => `${c.amount} ${c.currencyCode}`));
    if (kinds.size < 2 || orders.size < 2) continue;
    const first = list[0]!;
    findings.push({
      check: meta.id,
      severity: 'warning',
      businessId: first.businessId,
      message: `Tracking code "${first.trackingCode}" was used for a ${[...kinds].join(' and a ')} with different amounts (${[...orders].join(', ')}): one tracking code must name one order, or lookups by it mix orders up.`,
      evidence: capped(list.map((c) => evidenceOf(c.request))),
      at: first.request.at,
    });
  }
  return { findings };
}
