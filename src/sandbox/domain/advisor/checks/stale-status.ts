/**
 * stale-status (docs/advisor.md#stale-status): a change refused because the merchant acted on a state a
 * webhook it had acknowledged already said was over.
 */
import type { CheckMeta, CheckOutcome, Finding, WebhookAttempt, WebhookDelivery } from '../model.js';
import { acknowledged, deliveryEvidence, ERROR_CODES, errorOf, evidenceOf, NEEDS_WEBHOOKS, resultOf, type TrafficReader } from '../reader.js';

export const meta: CheckMeta = {
  id: 'stale-status',
  title: 'Acts on the status webhooks report',
  severity: 'warning',
  docs: 'docs/advisor.md#stale-status',
};

export function check(traffic: TrafficReader): CheckOutcome {
  const deliveries = traffic.webhooks;
  if (deliveries === undefined || deliveries.length === 0) return { findings: [], needs: NEEDS_WEBHOOKS };
  // Per order: the earliest acknowledged Transaction.Update.
  const told = new Map<string, { d: WebhookDelivery; a: WebhookAttempt }>();
  for (const d of deliveries) {
    if (d.eventType !== 'Transaction.Update') continue;
    const a = acknowledged(d);
    if (!a) continue;
    const order = traffic.orderOf(d.paymentId);
    const known = told.get(order);
    if (!known || a.at < known.a.at) told.set(order, { d, a });
  }
  const findings: Finding[] = [];
  if (told.size === 0) return { findings };
  for (const r of traffic.requests) {
    if (r.kind !== 'api' || r.method !== 'POST' || resultOf(r) !== -8 || errorOf(r)?.code !== ERROR_CODES.invalidTransition) continue;
    const target = traffic.target(r);
    if (!target || (target.op !== 'follow-up' && target.op !== 'cancel-link')) continue;
    const update = told.get(traffic.orderOf(target.id));
    if (!update || update.a.at > r.at) continue;
    const info = traffic.resources.get(target.id);
    findings.push({
      check: meta.id,
      severity: 'warning',
      businessId: traffic.businessOf(r, target.id),
      message: `Your server acknowledged a Transaction.Update about this ${info?.kind ?? 'payment'} and then asked for a change its old state allowed (${target.op === 'cancel-link' ? 'cancel' : target.action}), which was refused: update the order from the webhook before acting on it.`,
      resource: info ? { kind: info.kind, id: info.id } : undefined,
      evidence: [deliveryEvidence(update.d, update.a, 'acknowledged'), evidenceOf(r, errorOf(r)?.message)],
      at: r.at,
    });
  }
  return { findings };
}
