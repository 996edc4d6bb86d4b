/**
 * sends-no-credentials (docs/advisor.md#sends-no-credentials): API calls sent without an `Authorization`
 * header. The provider required HTTP Basic on every call (its "Security, identification and
 * authentication" page); the sandbox takes such calls by default, so an integration that never sends
 * credentials passes here and fails against the provider.
 */
import type { CheckMeta, CheckOutcome, Finding, TrafficRequest } from '../model.js';
import { capped, evidenceOf, type TrafficReader } from '../reader.js';

export const meta: CheckMeta = {
  id: 'sends-no-credentials',
  title: 'Sends HTTP Basic credentials on every API call',
  severity: 'error',
  docs: 'docs/advisor.md#sends-no-credentials',
};

export function check(traffic: TrafficReader): CheckOutcome {
  const byBusiness = new Map<string | null, { without: TrafficRequest[]; calls: number }>();
  for (const r of traffic.requests) {
    // API calls only: hosted pages are the customer's browser, which sends no credentials. A row logged
    // before the header was recorded (`authorization` undefined) says nothing either way.
    if (r.kind !== 'api' || r.authorization === undefined) continue;
    let entry = byBusiness.get(r.businessId);
    if (!entry) {
      entry = { without: [], calls: 0 };
      byBusiness.set(r.businessId, entry);
    }
    entry.calls += 1;
    if (!r.authorization) entry.without.push(r);
  }
  const findings: Finding[] = [];
  for (const [businessId, { without, calls }] of byBusiness) {
    if (without.length === 0) continue;
    findings.push({
      check: meta.id,
      severity: 'error',
      businessId,
      message: `${without.length} of ${calls} API call${calls > 1 ? 's' : ''} sent no Authorization header. The provider required HTTP Basic credentials on every call and refused a call without them (401, -6 Security error); the sandbox takes them only because its credentials are off by default. Send them (paylink sandbox --credentials user:password=<businessId> checks them as the provider did).`,
      evidence: capped(without.map((r) => evidenceOf(r))),
      at: without[0]!.at,
    });
  }
  return { findings };
}
