/**
 * tokenize-consent (docs/advisor.md#tokenize-consent): links or checkouts that save the card with no box for
 * the customer, by a business that never asks.
 */
import type { CheckMeta, CheckOutcome, Finding, TrafficRequest } from '../model.js';
import { capped, evidenceOf, obj, type TrafficReader } from '../reader.js';

export const meta: CheckMeta = {
  id: 'tokenize-consent',
  title: 'Asks the customer before saving a card',
  severity: 'warning',
  docs: 'docs/advisor.md#tokenize-consent',
};

function tokenizeOf(r: TrafficRequest, kind: 'link' | 'checkout'): string | undefined {
  const value = obj(obj(obj(r.request)?.body)?.[kind])?.tokenize;
  if (value === true) return 'true';
  if (value === false) return 'false';
  return typeof value === 'string' ? value.toLowerCase() : undefined;
}

export function check(traffic: TrafficReader): CheckOutcome {
  const byBusiness = new Map<string | null, { forced: TrafficRequest[]; asks: boolean }>();
  for (const c of traffic.creations()) {
    if (c.kind === 'payment' || c.request.status !== 200) continue;
    const mode = tokenizeOf(c.request, c.kind);
    let entry = byBusiness.get(c.businessId);
    if (!entry) {
      entry = { forced: [], asks: false };
      byBusiness.set(c.businessId, entry);
    }
    if (mode === 'true') entry.forced.push(c.request);
    if (mode === 'inquire') entry.asks = true;
  }
  const findings: Finding[] = [];
  for (const [businessId, { forced, asks }] of byBusiness) {
    if (forced.length === 0 || asks) continue;
    findings.push({
      check: meta.id,
      severity: 'warning',
      businessId,
      message: `${forced.length} link${forced.length > 1 ? 's or checkouts' : ' or checkout'} saved the card with tokenize TRUE (no box for the customer) and this business never uses INQUIRE: the spec requires the customer's consent to keep a card. The sandbox cannot see your own pages; if they ask for consent before creating these, record that.`,
      evidence: capped(forced.map((r) => evidenceOf(r))),
      at: forced[0]!.at,
    });
  }
  return { findings };
}
