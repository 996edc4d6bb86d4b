/**
 * The integration advisor (docs/advisor.md): named checks that read how a merchant's code used the sandbox
 * (its API requests, the hosted pages' redirects back to it, the webhook deliveries it answered) and say
 * what would go wrong in production. Pure: a {@link Traffic} in, {@link Finding}s out. services/advisor.ts
 * gathers the traffic from the request log, the records and the webhook deliveries.
 *
 * Laid out like eslint's rules: `advisor/model.ts` (the traffic and findings), `advisor/reader.ts` (the one
 * traffic reader every check shares), one module per check under `advisor/checks/` (its `meta` and one
 * function) and `advisor/registry.ts` listing them. This file runs them and shapes the report.
 *
 * A check never guesses at what it cannot see: where it needs data the sandbox does not have (webhook
 * deliveries, a merchant's own pages) it says so in its report instead of passing or failing.
 */
import type { CheckId, CheckMeta, CheckOutcome, Finding, Severity, Traffic } from './advisor/model.js';
import { TrafficReader } from './advisor/reader.js';
import { CHECKS } from './advisor/registry.js';

export * from './advisor/model.js';
export { isJudged, targetOf, targetOfRequest, TrafficReader, type CheckModule, type Target } from './advisor/reader.js';
export { CHECKS } from './advisor/registry.js';

export const CHECK_IDS: readonly CheckId[] = CHECKS.map((c) => c.meta.id);

/** Where a check's "how to fix" lives: its meta's `docs`, else its anchor in docs/advisor.md. */
export function docOf(check: CheckId): string {
  return CHECKS.find((c) => c.meta.id === check)?.meta.docs ?? `docs/advisor.md#${check}`;
}

/** One check's line of the report. */
export interface CheckReport {
  id: CheckId;
  title: string;
  severity: Severity;
  /** `failed`: it has findings; `passed`: none; `needs-data`: it could not run (see `needs`). */
  status: 'passed' | 'failed' | 'needs-data';
  findings: number;
  /** Flows still inside their window, judged on a later run. */
  pending: number;
  needs?: string | undefined;
}

export interface Advice {
  checks: CheckReport[];
  /** Oldest first. */
  findings: Finding[];
}

/** One check's line of the report from its outcome; `businessId` keeps only that business's findings. */
function reportOf(meta: CheckMeta, outcome: CheckOutcome, businessId: string | undefined): { report: CheckReport; findings: Finding[] } {
  const mine = businessId === undefined ? outcome.findings : outcome.findings.filter((f) => f.businessId === businessId);
  return {
    findings: mine,
    report: {
      id: meta.id,
      title: meta.title,
      severity: meta.severity,
      status: outcome.needs !== undefined ? 'needs-data' : mine.length > 0 ? 'failed' : 'passed',
      findings: mine.length,
      pending: outcome.pending ?? 0,
      needs: outcome.needs,
    },
  };
}

/**
 * Runs the checks one at a time, yielding after each (the caller may let other work run in between, as
 * services/advisor.ts does), and returns the advice; `businessId` keeps only that business's findings.
 */
export function* adviseStepwise(traffic: Traffic, businessId?: string): Generator<CheckId, Advice, void> {
  const reader = new TrafficReader(traffic);
  const checks: CheckReport[] = [];
  const findings: Finding[] = [];
  for (const { meta, check } of CHECKS) {
    const { report, findings: mine } = reportOf(meta, check(reader), businessId);
    checks.push(report);
    for (const f of mine) findings.push(f);
    yield meta.id;
  }
  findings.sort((a, b) => a.at - b.at);
  return { checks, findings };
}

/** Runs every check over `traffic` at once; `businessId` keeps only that business's findings. */
export function advise(traffic: Traffic, businessId?: string): Advice {
  const steps = adviseStepwise(traffic, businessId);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Request-log sequence numbers named by findings, with the checks that named them (for `paylink logs`). */
export function flaggedRequests(findings: readonly Finding[]): Map<number, CheckId[]> {
  const flagged = new Map<number, CheckId[]>();
  for (const f of findings) {
    for (const e of f.evidence) {
      if (e.seq === undefined) continue;
      const list = flagged.get(e.seq) ?? [];
      if (!list.includes(f.check)) list.push(f.check);
      flagged.set(e.seq, list);
    }
  }
  return flagged;
}

// ---- The answer of `GET /__sandbox/advice` (times as ISO 8601), also what the dashboard renders ----

export interface EvidenceView {
  seq?: number | undefined;
  deliveryId?: number | undefined;
  at: string;
  summary: string;
}

export interface FindingView {
  check: string;
  severity: string;
  businessId: string | null;
  message: string;
  resource?: { kind: string; id: string } | undefined;
  evidence: EvidenceView[];
  at: string;
  doc: string;
}

/** What `GET /__sandbox/advice` answers in its envelope's body. */
export interface AdviceView {
  generatedAt: string;
  businessId: string | null;
  /** The window asked for (`10m`), null for everything the request log holds. */
  since: string | null;
  from: string | null;
  summary: { errors: number; warnings: number; infos: number; pending: number };
  checks: Array<{ id: string; title: string; severity: string; status: string; findings: number; pending: number; needs?: string | undefined; doc: string }>;
  findings: FindingView[];
}
