/**
 * `paylink advise`: the integration advisor's findings (`GET /__sandbox/advice`, docs/advisor.md): what the
 * merchant's code did that would go wrong in production. `--fail-on warning|error` fails the run (exit 3,
 * "not the outcome asked for") when a finding at or above that severity exists, so CI can fail a build after
 * its end-to-end tests ran against the sandbox; `--junit` writes one test case per check.
 */
import type { Options, Run } from '../command-spec.js';
import type { advise as spec } from './advise.spec.js';
import { writeFileSync } from 'node:fs';
import { adminOk, type AdminConnection } from '../client.js';
import { ApiResponseError, UsageError } from '../errors.js';
import type { Ui } from '../ui.js';

/** Severities, mildest first. */
const SEVERITIES = ['info', 'warning', 'error'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One piece of evidence of a finding: a request of the log (`seq`) or a webhook delivery. */
export interface AdviceEvidence {
  seq?: number;
  deliveryId?: number;
  at: string;
  summary: string;
}

export interface AdviceFinding {
  check: string;
  severity: Severity;
  businessId: string | null;
  message: string;
  resource?: { kind: string; id: string };
  evidence: AdviceEvidence[];
  at: string;
  /** Where its fix is described: `docs/advisor.md#<check>`. */
  doc: string;
}

export interface AdviceCheck {
  id: string;
  title: string;
  severity: Severity;
  /** `passed`, `failed` (it has findings) or `needs-data` (see `needs`). */
  status: 'passed' | 'failed' | 'needs-data';
  findings: number;
  /** Flows still inside their window (judged on a later run). */
  pending: number;
  needs?: string;
  doc: string;
}

/** What `GET /__sandbox/advice` answers in its envelope's body, and what `--json` prints. */
export interface AdviceReport {
  generatedAt: string;
  businessId: string | null;
  since: string | null;
  from: string | null;
  summary: { errors: number; warnings: number; infos: number; pending: number };
  checks: AdviceCheck[];
  findings: AdviceFinding[];
}

/** `advise`'s flags (advise.spec.ts): by default every business, all the log holds, never failing, no report file. */
export type AdviseOptions = Options<typeof spec>;

function severityOf(value: string | undefined): Severity | undefined {
  if (value === undefined) return undefined;
  const s = value.trim().toLowerCase();
  if (s !== 'warning' && s !== 'error') throw new UsageError(`--fail-on: expected warning or error, got "${value}".`);
  return s;
}

function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) >= SEVERITIES.indexOf(threshold);
}

function xml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 cannot carry these characters, so the report drops them
  return escaped.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

function findingText(f: AdviceFinding): string {
  const lines = [`[${f.severity}] ${f.businessId ?? '(no business)'}: ${f.message}`];
  if (f.resource) lines.push(`  ${f.resource.kind} ${f.resource.id}`);
  for (const e of f.evidence)
    lines.push(`  ${e.at} ${e.seq !== undefined ? `#${e.seq} ` : ''}${e.deliveryId !== undefined ? `delivery ${e.deliveryId} ` : ''}${e.summary}`);
  lines.push(`  how to fix: ${f.doc}`);
  return lines.join('\n');
}

/**
 * The JUnit XML of a report: one `<testcase>` per check; a check fails when it has a finding at or above
 * `threshold`, is skipped when it needs data the sandbox does not have, and passes otherwise (milder
 * findings go to its `<system-out>`).
 */
export function junitXml(report: AdviceReport, threshold: Severity = 'warning'): string {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const check of report.checks) {
    const findings = report.findings.filter((f) => f.check === check.id);
    const failing = findings.filter((f) => atLeast(f.severity, threshold));
    const name = `${check.id}: ${check.title}`;
    let inner = '';
    if (check.status === 'needs-data') {
      skipped += 1;
      inner = `<skipped message="${xml(check.needs ?? 'needs data the sandbox does not have')}"/>`;
    } else if (failing.length > 0) {
      failures += 1;
      const first = failing[0]!;
      inner = `<failure type="${xml(first.severity)}" message="${xml(`${failing.length} finding${failing.length > 1 ? 's' : ''}: ${first.message}`)}">${xml(failing.map(findingText).join('\n\n'))}</failure>`;
    }
    const milder = findings.filter((f) => !atLeast(f.severity, threshold));
    if (milder.length > 0) inner += `<system-out>${xml(milder.map(findingText).join('\n\n'))}</system-out>`;
    cases.push(`    <testcase classname="paylink.advise" name="${xml(name)}">${inner}</testcase>`);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="paylink advise" tests="${report.checks.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="paylink advise${report.businessId ? ` (${xml(report.businessId)})` : ''}" tests="${report.checks.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${xml(report.generatedAt)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function print(report: AdviceReport, ui: Ui): void {
  const sev = (s: Severity) => (s === 'error' ? ui.color.red(s) : s === 'warning' ? ui.color.yellow(s) : ui.color.dim(s));
  if (report.findings.length === 0)
    ui.line(ui.color.green(`No findings${report.businessId ? ` for ${report.businessId}` : ''}${report.since ? ` in the last ${report.since}` : ''}.`));
  for (const f of report.findings) {
    ui.line(`${sev(f.severity)} ${ui.color.bold(f.check)} ${ui.color.dim(f.businessId ?? '')}`);
    ui.wrapped(f.message);
    if (f.resource) ui.line(ui.color.dim(`  ${f.resource.kind} ${f.resource.id}`));
    for (const e of f.evidence) {
      const ref = e.seq !== undefined ? `#${e.seq}` : e.deliveryId !== undefined ? `delivery ${e.deliveryId}` : '';
      ui.wrapped(ui.color.dim(`${e.at.slice(11, 23)} ${ref} ${e.summary}`));
    }
    ui.wrapped(ui.color.dim(`how to fix: ${f.doc}`));
    ui.line();
  }
  // The status last: "needs data: ..." is long, and the table wraps its last column to the terminal.
  ui.table(
    ['check', 'findings', 'status'],
    report.checks.map((c) => [
      c.id,
      String(c.findings) + (c.pending > 0 ? ui.color.dim(` (${c.pending} pending)`) : ''),
      c.status === 'passed'
        ? ui.color.green('passed')
        : c.status === 'failed'
          ? ui.color.red('failed')
          : ui.color.yellow(c.needs ? `needs data: ${c.needs}` : 'needs data'),
    ]),
  );
  const { errors, warnings, pending } = report.summary;
  ui.info(
    `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${pending > 0 ? `, ${pending} flow${pending === 1 ? '' : 's'} still inside their window (run again later)` : ''}.`,
  );
}

/** Reads the advice of a sandbox (`GET /__sandbox/advice`). */
export async function fetchAdvice(conn: AdminConnection, options: { business?: string | undefined; since?: string | undefined } = {}): Promise<AdviceReport> {
  const params = new URLSearchParams();
  if (options.business) params.set('businessId', options.business);
  if (options.since) params.set('since', options.since);
  const query = params.size > 0 ? `?${params}` : '';
  const envelope = await adminOk<{ body: AdviceReport }>(conn, 'GET', `/__sandbox/advice${query}`);
  return envelope.body;
}

/**
 * Prints the findings (or, with `--json`, the report as one JSON document), writes `--junit`, and throws
 * (exit 3) when a finding at or above `--fail-on` exists. Resolves with the report otherwise.
 */
export async function advise(conn: AdminConnection, ui: Ui, options: AdviseOptions = {}): Promise<AdviceReport> {
  const failOn = severityOf(options.failOn);
  if (options.since !== undefined && !/^(\d+(ms|s|m|h|d|w))+$|^P(\d+W)?(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$/i.test(options.since.trim())) {
    throw new UsageError(`--since: expected a duration such as 10m, 2h or 1d, got "${options.since}".`);
  }
  const report = await fetchAdvice(conn, options);
  if (options.junit) {
    try {
      writeFileSync(options.junit, junitXml(report, failOn ?? 'warning'));
    } catch (error) {
      throw new UsageError(`--junit: cannot write ${options.junit} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
  }
  const failing = failOn === undefined ? [] : report.findings.filter((f) => atLeast(f.severity, failOn));
  if (failing.length > 0) {
    if (!ui.options.json) print(report, ui);
    // The one catch prints the message and, with --json, the report as the one JSON document.
    throw new ApiResponseError(
      `${failing.length} finding${failing.length > 1 ? 's' : ''} at or above ${failOn} (--fail-on ${failOn}); see docs/advisor.md.`,
      undefined,
      undefined,
      report,
    );
  }
  if (ui.options.json) ui.json(report);
  else print(report, ui);
  return report;
}

export const adviseCommand: Run<typeof spec> = (_args, flags, ctx) => advise(ctx.admin, ctx.ui, flags);
