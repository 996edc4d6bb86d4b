/**
 * The integration advisor's surfaces (docs/advisor.md): `GET /__sandbox/advice?businessId=&since=` for the
 * CLI (`paylink advise`, `paylink logs`) and the dashboard's Advisor page. Both answer the same view of
 * services/advisor.ts's findings, times as ISO 8601. The checks and the page are imported when first asked
 * for: a sandbox's start and its API need neither (docs/benchmarks.md, "Start-up").
 */
import type { Advice, AdviceView, Evidence, EvidenceView, Finding, FindingView } from '../domain/advisor.js';
import { isoUtcMs } from '../domain/clock.js';
import { envelope } from '../http/envelope.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import { invalidValue, RESULTS } from '../errors.js';
import { formatClockOffset } from '../domain/clock.js';
import { parseClockStep } from '../services/admin-clock.js';
import type { AdvisorView } from '../../pages/dashboard/advisor.js';

type DocOf = (check: string) => string;

function evidenceView(e: Evidence): EvidenceView {
  const view: EvidenceView = { at: isoUtcMs(e.at), summary: e.summary };
  if (e.seq !== undefined) view.seq = e.seq;
  if (e.deliveryId !== undefined) view.deliveryId = e.deliveryId;
  return view;
}

function findingView(f: Finding, docOf: DocOf): FindingView {
  return {
    check: f.check,
    severity: f.severity,
    businessId: f.businessId,
    message: f.message,
    ...(f.resource ? { resource: f.resource } : {}),
    evidence: f.evidence.map(evidenceView),
    at: isoUtcMs(f.at),
    doc: docOf(f.check),
  };
}

function adviceView(
  sandbox: SandboxView,
  advice: Advice,
  options: { businessId?: string | undefined; since?: string | undefined; from?: number | undefined },
  docOf: DocOf,
): AdviceView {
  const count = (severity: string) => advice.findings.filter((f) => f.severity === severity).length;
  return {
    generatedAt: isoUtcMs(sandbox.clock.now()),
    businessId: options.businessId ?? null,
    since: options.since ?? null,
    from: options.from === undefined ? null : isoUtcMs(options.from),
    summary: { errors: count('error'), warnings: count('warning'), infos: count('info'), pending: advice.checks.reduce((n, c) => n + c.pending, 0) },
    checks: advice.checks.map((c) => ({ ...c, doc: docOf(c.id) })),
    findings: advice.findings.map((f) => findingView(f, docOf)),
  };
}

/** The query of the advice endpoint and page, validated: `businessId`, `since` (`10m`, `2h`, `PT30M`). */
function adviceQuery(sandbox: SandboxView, query: URLSearchParams): { businessId?: string | undefined; since?: string | undefined; from?: number | undefined } {
  const businessId = query.get('businessId') || undefined;
  const since = query.get('since') || undefined;
  if (since === undefined) return { businessId };
  const ms = parseClockStep(since);
  if (ms === undefined || ms <= 0) throw invalidValue('since', 'Use a duration such as "10m", "2h", "1d" or "PT30M".');
  return { businessId, since, from: sandbox.clock.now() - ms };
}

/** The advice for a query: the request log's buffered rows are written first, so the newest count. */
export async function currentAdvice(sandbox: SandboxView, query: URLSearchParams): Promise<AdviceView> {
  const options = adviceQuery(sandbox, query);
  sandbox.services.admin.requestLog().flush();
  const advice = await sandbox.services.admin.advice(options);
  const { docOf } = await import('../domain/advisor.js');
  return adviceView(sandbox, advice, options, docOf);
}

const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

async function advisorPage(req: RouteRequest): Promise<Reply> {
  const { sandbox, query } = req;
  const advice = await currentAdvice(sandbox, query);
  const [{ CHECKS }, { renderAdvisor }] = await Promise.all([import('../domain/advisor.js'), import('../../pages/dashboard/advisor.js')]);
  const clock = sandbox.services.admin.clock();
  const view: AdvisorView = {
    title: 'Advisor',
    section: 'advisor',
    clock: {
      now: clock.now,
      offset: formatClockOffset(clock.offsetMs),
      frozen: clock.frozen,
      action: '/__sandbox/dashboard/clock',
      back: '/__sandbox/dashboard/advisor',
    },
    advice,
    filters: { businessId: advice.businessId ?? '', since: advice.since ?? '', action: '/__sandbox/dashboard/advisor' },
    titles: Object.fromEntries(CHECKS.map((c) => [c.meta.id, c.meta.title])),
  };
  return Reply.html(200, renderAdvisor(view), PAGE_HEADERS);
}

export const advisorRoutes: Route[] = [
  { route: 'admin.advice', handler: async ({ sandbox, query }) => envelope(sandbox, RESULTS.ok, await currentAdvice(sandbox, query)) },
  { route: 'dashboard.advisor', handler: advisorPage },
];
