/**
 * The dashboard's page shell: navigation, the clock panel, styles. Server-rendered HTML with no script;
 * every value goes through the escaping `html` template.
 */
import { html, raw, type SafeHtml } from '../html.js';
import type { ActionView, Cell, ClockPanel, DashboardPage, RequestsPanel, TableView } from './model.js';

const STYLES = `
:root { color-scheme: light; --fg: #1d2330; --muted: #667085; --line: #e4e7ec; --bg: #f7f8fa; --accent: #3b5bdb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 16px; padding: 10px 20px; background: #111827; color: #fff; }
header a { color: #cbd5e1; text-decoration: none; padding: 4px 8px; border-radius: 4px; }
header a[aria-current="page"] { background: #374151; color: #fff; }
header .brand { font-weight: 700; color: #fff; margin-right: 8px; }
header .muted { color: #b8c1cf; }
main { padding: 16px 20px 40px; max-width: 1280px; }
header nav { display: flex; flex-wrap: wrap; gap: 2px; }
section { max-width: 100%; overflow-x: auto; }
td.mono, td .mono, td code, td time { white-space: nowrap; }
@media (max-width: 640px) {
  header { padding: 8px 12px; gap: 8px; } main { padding: 12px 12px 32px; }
  .clock { margin-left: 0; }
  .fields { grid-template-columns: 1fr; } .fields dd { margin-bottom: 6px; }
  th, td { padding: 5px 6px; }
  .filters input { flex: 1 1 140px; min-width: 0; }
  /* Tables become one card per row, each cell under its column's name (data-label), so the id and the
     status of a row are on screen instead of scrolled off to the right. */
  section { overflow-x: visible; }
  table, table > tbody, table > tbody > tr, table > tbody > tr > td { display: block; width: 100%; }
  table > thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  table > tbody > tr { border-bottom: 1px solid var(--line); padding: 4px 0; }
  table > tbody > tr > td { border: 0; padding: 3px 10px; overflow-wrap: anywhere; }
  table > tbody > tr > td[data-label] { display: flow-root; padding-left: 122px; }
  table > tbody > tr > td[data-label]::before { content: attr(data-label); float: left; box-sizing: border-box; width: 112px; margin-left: -112px; padding-right: 8px; font: 600 12px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); overflow-wrap: normal; }
  td.mono, td .mono, td code, td time { white-space: normal; }
}
h1 { font-size: 20px; margin: 8px 0 12px; } h2 { font-size: 16px; margin: 20px 0 8px; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f2f4f7; font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
a { color: var(--accent); }
.mono, code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.state { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; background: #e4e7ec; }
.state-paid, .state-ok, .state-completed, .state-approved, .status-2 { background: #d3f9d8; color: #1b5e20; }
.state-ready, .state-pending { background: #dbe4ff; color: #1e3a8a; }
.state-declined, .state-declinedbycustomer, .state-failed, .state-cancelled, .status-5 { background: #ffe3e3; color: #8a1c1c; }
.state-expired, .state-timeout, .status-4 { background: #fff3bf; color: #7a5b00; }
.clock { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-left: auto; font-size: 13px; }
.clock form { display: inline; margin: 0; }
button, select, input { font: inherit; padding: 4px 10px; border-radius: 4px; border: 1px solid #98a2b3; background: #fff; }
button { cursor: pointer; } button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
header button { background: #374151; color: #fff; border-color: #4b5563; }
.fields { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; background: #fff; border: 1px solid var(--line); padding: 12px; }
/* Long ids and URLs wrap where they must; words are never cut at the line's end. */
.fields dt { color: var(--muted); } .fields dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin: 12px 0; }
.actions form { display: flex; gap: 6px; align-items: center; margin: 0; }
.notice { background: #fff9db; border: 1px solid #ffe066; padding: 8px 12px; margin-bottom: 12px; }
.muted { color: var(--muted); }
.pager { display: flex; gap: 12px; align-items: center; margin: 8px 0; }
details pre { white-space: pre-wrap; word-break: break-all; background: #f8f9fa; padding: 8px; margin: 4px 0; max-height: 320px; overflow: auto; }
.finding { background: #ffe3e3; border: 2px solid #c92a2a; color: #8a1c1c; padding: 8px 12px; margin: 8px 0; font-weight: 600; }
.state-finding { background: #c92a2a; color: #fff; } .state-fault { background: #fff3bf; color: #5c3c00; } .state-delivered, .state-rejected { background: #d3f9d8; color: #1b5e20; }
.filters { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 8px; }
`;

const NAV: Array<[DashboardPage['section'], string, string]> = [
  ['overview', 'Overview', '/'],
  ['links', 'Links', '/__sandbox/dashboard/links'],
  ['checkouts', 'Checkouts', '/__sandbox/dashboard/checkouts'],
  ['payments', 'Payments', '/__sandbox/dashboard/payments'],
  ['tokens', 'Tokens', '/__sandbox/dashboard/tokens'],
  ['requests', 'Request log', '/__sandbox/dashboard/requests'],
  ['webhooks', 'Webhooks', '/__sandbox/dashboard/webhooks'],
  ['faults', 'Faults', '/__sandbox/dashboard/faults'],
  ['advisor', 'Advisor', '/__sandbox/dashboard/advisor'],
  ['snapshots', 'Snapshots', '/__sandbox/dashboard/snapshots'],
];

function stateClass(state: string): string {
  return `state state-${state.toLowerCase().replace(/[^a-z]/g, '')}`;
}

export function stateBadge(state: string): SafeHtml {
  return html`<span class="${stateClass(state)}" data-state="${state}">${state}</span>`;
}

export function cell(value: Cell): SafeHtml {
  if (typeof value === 'string' || typeof value === 'number') return html`${value}`;
  const inner =
    value.state !== undefined
      ? stateBadge(value.state)
      : value.title !== undefined
        ? html`<span class="${value.mono ? 'mono' : ''}" title="${value.title}">${value.text}</span>`
        : value.mono
          ? html`<span class="mono">${value.text}</span>`
          : html`${value.text}`;
  return value.href !== undefined ? html`<a href="${value.href}">${inner}</a>` : inner;
}

export function table(view: TableView): SafeHtml {
  const body =
    view.rows.length === 0
      ? html`<tr><td colspan="${view.columns.length}" class="muted">${view.empty}</td></tr>`
      : view.rows.map((row) => html`<tr>${row.map((c, i) => html`<td data-label="${view.columns[i] ?? ''}">${cell(c)}</td>`)}</tr>`);
  const pager = view.pager
    ? html`<div class="pager">${view.pager.prevHref ? html`<a href="${view.pager.prevHref}" rel="prev">Newer</a>` : ''}<span class="muted">page ${view.pager.page} of ${view.pager.pages} (${view.pager.total})</span>${view.pager.nextHref ? html`<a href="${view.pager.nextHref}" rel="next">Older</a>` : ''}</div>`
    : '';
  return html`<section id="${view.id}" data-testid="${view.id}">
<h2>${view.title}</h2>
<table><thead><tr>${view.columns.map((c) => html`<th>${c}</th>`)}</tr></thead><tbody>${body}</tbody></table>
${pager}${view.more ? html`<p><a href="${view.more.href}">${view.more.label}</a></p>` : ''}
</section>`;
}

/** `14:19:52.552` of an ISO time (the date is in the title): a request log row stays on one line. */
function shortTime(iso: string): string {
  return /T(\d{2}:\d{2}:\d{2}(\.\d+)?)/.exec(iso)?.[1] ?? iso;
}

export function requestsPanel(panel: RequestsPanel): SafeHtml {
  const filters = panel.filters
    ? html`<form class="filters" method="get" action="${panel.filters.action}">
<input name="path" placeholder="path contains" value="${panel.filters.path}">
<input name="status" placeholder="status (402, 4xx)" value="${panel.filters.status}" size="12">
<input name="businessId" placeholder="business id" value="${panel.filters.businessId}">
<button type="submit">Filter</button></form>`
    : '';
  const rows =
    panel.rows.length === 0
      ? html`<tr><td colspan="6" class="muted">${panel.empty}</td></tr>`
      : panel.rows.map(
          (
            r,
          ) => html`<tr data-seq="${r.seq}"><td class="mono" data-label="time" title="${r.at}">${shortTime(r.at)}</td><td data-label="method">${r.method}</td><td class="mono" data-label="path">${r.path}</td><td data-label="status"><span class="state status-${String(r.status).charAt(0)}">${r.status === 0 ? 'none' : r.status}</span>${r.fault !== undefined ? html` <span class="state state-fault" data-testid="request-fault">${r.fault}</span>` : ''}</td><td data-label="duration">${Math.round(r.durationMs)} ms</td><td data-label="business">${r.businessId}</td></tr>
${r.request !== undefined || r.response !== undefined ? html`<tr><td colspan="6"><details><summary>bodies</summary>${r.request !== undefined ? html`<div class="muted">request</div><pre>${r.request}</pre>` : ''}${r.response !== undefined ? html`<div class="muted">response</div><pre>${r.response}</pre>` : ''}</details></td></tr>` : ''}`,
        );
  const pager = panel.pager
    ? html`<div class="pager">${panel.pager.newerHref ? html`<a href="${panel.pager.newerHref}">Newer</a>` : ''}${panel.pager.olderHref ? html`<a href="${panel.pager.olderHref}">Older</a>` : ''}</div>`
    : '';
  return html`<section id="requests" data-testid="requests">
<h2>${panel.title}</h2>${filters}
<table><thead><tr><th>time</th><th>method</th><th>path</th><th>status</th><th>duration</th><th>business</th></tr></thead><tbody>${rows}</tbody></table>
${pager}${panel.more ? html`<p><a href="${panel.more.href}">${panel.more.label}</a></p>` : ''}
</section>`;
}

export function actions(list: ActionView[]): SafeHtml {
  if (list.length === 0) return html``;
  return html`<div class="actions">${list.map((a) => {
    if (a.kind === 'open') return html`<a class="button" href="${a.href}" target="_blank" rel="noopener" data-testid="${a.id ?? 'open-hosted'}">${a.label}</a>`;
    if (a.kind === 'post') return html`<form method="post" action="${a.action}"><button type="submit" data-testid="${a.id}">${a.label}</button></form>`;
    return html`<form method="post" action="${a.action}" data-testid="pay-form"><label>Outcome <select name="outcome" data-testid="outcome">${a.outcomes.map(
      (o) => html`<option value="${o}"${o === a.selected ? raw(' selected') : ''}>${o}</option>`,
    )}</select></label><button type="submit" class="primary" data-testid="pay">${a.label}</button></form>`;
  })}</div>`;
}

function clockPanel(clock: ClockPanel): SafeHtml {
  return html`<div class="clock" data-testid="clock"><span>Sandbox time <code data-testid="clock-now">${clock.now}</code> <span class="muted">${clock.offset}${clock.frozen ? ' (frozen)' : ''}</span></span>
<form method="post" action="${clock.action}"><input type="hidden" name="back" value="${clock.back}"><input type="hidden" name="advance" value="31m"><button type="submit" data-testid="clock-31m">+31 min</button></form>
<form method="post" action="${clock.action}"><input type="hidden" name="back" value="${clock.back}"><input type="hidden" name="advance" value="1d"><button type="submit" data-testid="clock-1d">+1 day</button></form>
<form method="post" action="${clock.action}"><input type="hidden" name="back" value="${clock.back}"><input type="hidden" name="reset" value="1"><button type="submit" data-testid="clock-reset" title="Undo every move: the sandbox follows the wall clock again">Back to wall clock</button></form></div>`;
}

/** The whole document around `content`. */
export function layout(page: DashboardPage, content: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · paylink sandbox</title><style>${raw(STYLES)}</style></head>
<body data-dashboard="${page.section}">
<header><span class="brand">paylink sandbox</span><nav>${NAV.map(([id, label, href]) => html`<a href="${href}"${id === page.section ? raw(' aria-current="page"') : ''}>${label}</a>`)}</nav>${clockPanel(page.clock)}</header>
<main>${page.notice ? html`<p class="notice" role="status">${page.notice}</p>` : ''}${content}</main>
</body></html>`.value;
}
