/**
 * webhook-signature (docs/advisor.md#webhook-signature): an endpoint that accepts deliveries it had to refuse
 * (forged signature, changed body), or never accepts a correctly signed one.
 */
import type { CheckMeta, CheckOutcome, Finding, WebhookAttempt, WebhookDelivery } from '../model.js';
import { capped, deliveryEvidence, isProbeFault, NEEDS_WEBHOOKS, type TrafficReader } from '../reader.js';

export const meta: CheckMeta = {
  id: 'webhook-signature',
  title: 'Verifies webhook signatures',
  severity: 'error',
  docs: 'docs/advisor.md#webhook-signature',
};

export function check(traffic: TrafficReader): CheckOutcome {
  const deliveries = traffic.webhooks;
  if (deliveries === undefined || deliveries.length === 0) return { findings: [], needs: NEEDS_WEBHOOKS };
  const findings: Finding[] = [];
  for (const d of deliveries) {
    for (const a of d.attempts) {
      if (!isProbeFault(a.fault) || a.status === null || a.status < 200 || a.status > 299) continue;
      findings.push({
        check: meta.id,
        severity: 'error',
        businessId: d.businessId,
        message: `Your webhook endpoint ${d.url} answered ${a.status} to an event with a ${a.fault === 'bad-signature' ? 'forged signature' : 'body changed after signing'}: verify the signature (and the crc32 of the exact body) and answer 4xx when it does not match.`,
        resource: { kind: 'payment', id: d.paymentId },
        evidence: [deliveryEvidence(d, a, a.fault!)],
        at: a.at,
      });
    }
  }
  // Valid deliveries an endpoint never acknowledged: a check that refuses good signatures, or no handler.
  const byUrl = new Map<string, WebhookDelivery[]>();
  for (const d of deliveries) {
    const list = byUrl.get(d.url);
    if (list) list.push(d);
    else byUrl.set(d.url, [d]);
  }
  for (const [url, list] of byUrl) {
    const valid: Array<{ d: WebhookDelivery; a: WebhookAttempt }> = list.flatMap((d) =>
      d.attempts.filter((a) => !isProbeFault(a.fault)).map((a) => ({ d, a })),
    );
    if (valid.length === 0 || valid.some(({ a }) => a.status !== null && a.status >= 200 && a.status < 300)) continue;
    findings.push({
      check: meta.id,
      severity: 'error',
      businessId: list[0]!.businessId,
      message: `Your webhook endpoint ${url} never answered 2xx to a correctly signed event (${valid.length} attempt${valid.length > 1 ? 's' : ''}): it refuses good signatures or does not handle the events, so every event is retried and finally lost.`,
      evidence: capped(valid.map(({ d, a }) => deliveryEvidence(d, a, 'valid signature'))),
      at: valid[0]!.a.at,
    });
  }
  return { findings };
}
