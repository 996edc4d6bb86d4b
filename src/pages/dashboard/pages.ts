/**
 * The dashboard's pages: overview, one resource list, one resource's detail, the request log.
 */
import { html } from '../html.js';
import { actions, cell, layout, requestsPanel, stateBadge, table } from './layout.js';
import type { DetailView, ListView, OverviewView, RequestLogView } from './model.js';

export function renderOverview(view: OverviewView): string {
  return layout(view, html`<h1>${view.title}</h1>${view.tables.map(table)}${requestsPanel(view.requests)}`);
}

export function renderList(view: ListView): string {
  return layout(
    view,
    html`<h1>${view.title}</h1>
<form class="filters" method="get" action="${view.businessFilter.action}"><input name="businessId" placeholder="business id" value="${view.businessFilter.value}"><button type="submit">Filter</button></form>
${table(view.table)}`,
  );
}

export function renderDetail(view: DetailView): string {
  return layout(
    view,
    html`<h1 data-testid="detail-title">${view.title} ${view.state ? stateBadge(view.state) : ''}</h1>
<p class="mono muted" data-testid="detail-id">${view.id}</p>
<dl class="fields">${view.fields.map(([label, value]) => html`<dt>${label}</dt><dd>${cell(value)}</dd>`)}</dl>
${actions(view.actions)}
${view.tables.map(table)}
${requestsPanel(view.requests)}`,
  );
}

export function renderRequestLog(view: RequestLogView): string {
  return layout(view, html`<h1>${view.title}</h1>${requestsPanel(view.requests)}`);
}
