/**
 * The dashboard's Webhooks pages: endpoints and recent events (findings first, prominently), and one
 * event with every delivery attempt and its exact body.
 */
import { html } from '../html.js';
import { cell, layout, table } from './layout.js';
import type { EventDetailView, WebhooksView } from './model.js';

export function renderWebhooks(view: WebhooksView): string {
  const findings =
    view.findings.rows.length > 0
      ? html`<p class="finding" data-testid="webhook-findings">FINDING: a merchant endpoint answered 2xx to ${view.findings.rows.length === 1 ? 'an event' : `${view.findings.rows.length} events`} with a bad signature or a changed body. Its handler must verify the signature and the body's crc32 and refuse them.</p>${table(view.findings)}`
      : '';
  return layout(
    view,
    html`<h1>${view.title}</h1>
${findings}
<dl class="fields">${view.settings.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>
${table(view.endpoints)}
${table(view.events)}`,
  );
}

export function renderEventDetail(view: EventDetailView): string {
  return layout(
    view,
    html`<h1 data-testid="detail-title">${view.title}</h1>
<p class="mono muted" data-testid="detail-id">${view.id}</p>
${view.findings.map((f) => html`<p class="finding">${f}</p>`)}
<dl class="fields">${view.fields.map(([label, value]) => html`<dt>${label}</dt><dd>${cell(value)}</dd>`)}</dl>
${view.deliveries.map(table)}
<details open><summary>Body (exact bytes sent)</summary><pre class="mono">${view.body}</pre></details>`,
  );
}
