/**
 * trusts-the-redirect (docs/advisor.md#trusts-the-redirect): a customer sent back to the merchant's
 * `returnUrl` after which its server did not read the status in time, so its return page presumably marked
 * the order from the query string.
 */
import type { CheckMeta, CheckOutcome, Finding } from '../model.js';
import { acknowledged, evidenceOf, seconds, type TrafficReader } from '../reader.js';

/** After a redirect back to the merchant, its server must read the status within this time. */
export const REDIRECT_READ_WINDOW_MS = 60_000;

export const meta: CheckMeta = {
  id: 'trusts-the-redirect',
  title: 'Reads the status after the customer comes back',
  severity: 'error',
  docs: 'docs/advisor.md#trusts-the-redirect',
};

export function check(traffic: TrafficReader): CheckOutcome {
  const reads = traffic.statusReads();
  // Payments whose webhook the merchant acknowledged: a correctly signed webhook is as good a source as a GET.
  const told = new Set<string>();
  for (const d of traffic.webhooks ?? []) if (acknowledged(d) !== undefined) told.add(d.paymentId);
  const findings: Finding[] = [];
  let pending = 0;
  for (const redirect of traffic.redirects()) {
    const r = redirect.request;
    const deadline = r.at + REDIRECT_READ_WINDOW_MS;
    const read = (reads.get(redirect.order) ?? []).some((g) => g.seq > r.seq && g.at <= deadline);
    if (read) continue;
    if (told.size > 0 && (redirect.paymentIds.some((id) => told.has(id)) || [...traffic.paymentsOf(redirect.order)].some((id) => told.has(id)))) continue;
    if (traffic.now < deadline) {
      pending += 1;
      continue;
    }
    findings.push({
      check: meta.id,
      severity: 'error',
      businessId: traffic.businessOf(r, redirect.order),
      message: `The customer was sent back to your returnUrl and your server never read the ${redirect.resource?.kind ?? 'payment'}'s status within ${seconds(REDIRECT_READ_WINDOW_MS)}: an order marked from the query string can be forged.`,
      resource: redirect.resource,
      evidence: [evidenceOf(r, 'redirect to the merchant; no GET of its status followed')],
      at: r.at,
    });
  }
  return { findings, pending };
}
