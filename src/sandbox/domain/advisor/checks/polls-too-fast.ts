/**
 * polls-too-fast (docs/advisor.md#polls-too-fast): more status reads of one resource in a short time than the
 * documented rate allows.
 */
import type { CheckMeta, CheckOutcome, Finding, TrafficRequest } from '../model.js';
import { capped, evidenceOf, seconds, type TrafficReader } from '../reader.js';

/** At most this many status reads of one resource in {@link POLL_WINDOW_MS} (one every 2 s). */
export const POLL_MAX_READS = 5;
export const POLL_WINDOW_MS = 10_000;

export const meta: CheckMeta = {
  id: 'polls-too-fast',
  title: `Polls a status at most ${POLL_MAX_READS} times in ${seconds(POLL_WINDOW_MS)}`,
  severity: 'warning',
  docs: 'docs/advisor.md#polls-too-fast',
};

export function check(traffic: TrafficReader): CheckOutcome {
  const findings: Finding[] = [];
  for (const [order, list] of traffic.statusReads()) {
    if (list.length <= POLL_MAX_READS) continue;
    // The busiest window: a sliding window over the reads, its bounds kept and copied once at the end.
    let best: [number, number] | undefined;
    let start = 0;
    for (let end = 0; end < list.length; end++) {
      while (list[end]!.at - list[start]!.at > POLL_WINDOW_MS) start += 1;
      const count = end - start + 1;
      if (count > POLL_MAX_READS && (!best || count > best[1] - best[0])) best = [start, end + 1];
    }
    if (!best) continue;
    const worst: TrafficRequest[] = list.slice(best[0], best[1]);
    const info = traffic.resources.get(order);
    const span = Math.max(worst.at(-1)!.at - worst[0]!.at, 1);
    findings.push({
      check: meta.id,
      severity: 'warning',
      businessId: traffic.businessOf(worst[0]!, order),
      message: `${worst.length} status reads of one ${info?.kind ?? 'resource'} within ${(span / 1000).toFixed(1)} s; the documented rate is at most ${POLL_MAX_READS} in ${seconds(POLL_WINDOW_MS)} (one every 2 s), better a webhook.`,
      resource: info ? { kind: info.kind, id: info.id } : undefined,
      evidence: capped(worst.map((r) => evidenceOf(r))),
      at: worst[0]!.at,
    });
  }
  return { findings };
}
