/**
 * The dashboard's Advisor page: the integration advisor's checks and current findings per business, each
 * finding linking to its evidence (the request in the log, the resource's detail page) and to its fix in
 * docs/advisor.md.
 */
import type { AdviceView, FindingView } from '../../sandbox/domain/advisor.js';
import { html, type SafeHtml } from '../html.js';
import { layout } from './layout.js';
import type { DashboardPage } from './model.js';

export interface AdvisorView extends DashboardPage {
  advice: AdviceView;
  filters: { businessId: string; since: string; action: string };
  titles: Record<string, string>;
}

const RESOURCE_PAGES: Record<string, string> = { link: 'links', checkout: 'checkouts', payment: 'payments' };

/** The request log page that shows request `seq` first. */
function requestHref(seq: number): string {
  return `/__sandbox/dashboard/requests?before=${seq + 1}`;
}

function finding(f: FindingView): SafeHtml {
  const resource = f.resource
    ? html`<a href="/__sandbox/dashboard/${RESOURCE_PAGES[f.resource.kind] ?? 'payments'}/${encodeURIComponent(f.resource.id)}" class="mono">${f.resource.kind} ${f.resource.id}</a>`
    : '';
  return html`<tr data-check="${f.check}" data-severity="${f.severity}"><td data-label="severity"><span class="state sev-${f.severity}">${f.severity}</span></td><td data-label="check"><code>${f.check}</code></td><td data-label="business">${f.businessId ?? ''}</td>
<td data-label="finding">${f.message}<div class="muted">${resource}</div>
<details><summary>evidence (${f.evidence.length})</summary><ul>${f.evidence.map(
    (e) =>
      html`<li><span class="mono">${e.at}</span> ${e.seq !== undefined ? html`<a href="${requestHref(e.seq)}" data-seq="${e.seq}">request #${e.seq}</a> ` : ''}${e.deliveryId !== undefined ? html`delivery #${e.deliveryId} ` : ''}<span class="mono">${e.summary}</span></li>`,
  )}</ul><p class="muted">How to fix: ${f.doc}</p></details></td></tr>`;
}

export function renderAdvisor(view: AdvisorView): string {
  const a = view.advice;
  const byBusiness = new Map<string, FindingView[]>();
  for (const f of a.findings) {
    const key = f.businessId ?? '(no business)';
    byBusiness.set(key, [...(byBusiness.get(key) ?? []), f]);
  }
  const checks = html`<section id="checks" data-testid="advisor-checks"><h2>Checks</h2>
<table><thead><tr><th>check</th><th>what it asks</th><th>severity</th><th>status</th><th>findings</th></tr></thead><tbody>${a.checks.map(
    (c) =>
      html`<tr data-check="${c.id}" data-status="${c.status}"><td data-label="check"><code>${c.id}</code></td><td data-label="what it asks">${c.title}</td><td data-label="severity">${c.severity}</td><td data-label="status"><span class="state state-${c.status === 'passed' ? 'ok' : c.status === 'failed' ? 'failed' : 'pending'}">${c.status}</span>${c.needs ? html`<div class="muted">${c.needs}</div>` : ''}${c.pending > 0 ? html`<div class="muted">${c.pending} still inside their window</div>` : ''}</td><td data-label="findings">${c.findings}</td></tr>`,
  )}</tbody></table></section>`;
  const findings =
    a.findings.length === 0
      ? html`<p class="muted" data-testid="advisor-empty">No findings${a.businessId ? html` for ${a.businessId}` : ''}${a.since ? html` in the last ${a.since}` : ''}.</p>`
      : [...byBusiness].map(
          ([business, list]) => html`<section data-business="${business}"><h2>${business}: ${list.length} finding${list.length === 1 ? '' : 's'}</h2>
<table><thead><tr><th>severity</th><th>check</th><th>business</th><th>finding</th></tr></thead><tbody>${list.map(finding)}</tbody></table></section>`,
        );
  const filters = html`<form class="filters" method="get" action="${view.filters.action}"><input name="businessId" placeholder="business id" value="${view.filters.businessId}"><input name="since" placeholder="since (10m, 2h)" value="${view.filters.since}" size="12"><button type="submit">Filter</button></form>`;
  const summary = html`<p data-testid="advisor-summary">${a.summary.errors} error${a.summary.errors === 1 ? '' : 's'}, ${a.summary.warnings} warning${a.summary.warnings === 1 ? '' : 's'}${a.summary.pending > 0 ? html`, ${a.summary.pending} flow${a.summary.pending === 1 ? '' : 's'} still inside their window` : ''}. <span class="muted">What each check means and how to fix it: docs/advisor.md.</span></p>`;
  return layout(view, html`<h1>${view.title}</h1>${filters}${summary}<div data-testid="advisor-findings">${findings}</div>${checks}`);
}
