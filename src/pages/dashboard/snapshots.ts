/**
 * The dashboard's Snapshots page: the saved snapshots with a restore and a delete button each, and a form
 * to save the state now under a name. Forms post to the dashboard (no script).
 */
import { html } from '../html.js';
import { layout } from './layout.js';
import type { DashboardPage } from './model.js';

export interface SnapshotsView extends DashboardPage {
  /** Where snapshots are kept: a folder, or `memory`. */
  location: string;
  snapshots: Array<{ name: string; size: string; savedAt: string }>;
  /** Where the forms post: `<action>` to save, `<action>/<name>/restore|delete`. */
  action: string;
}

export function renderSnapshots(view: SnapshotsView): string {
  const rows =
    view.snapshots.length === 0
      ? html`<tr><td colspan="4" class="muted">No snapshots yet. Save one below, or with <code>paylink snapshot save &lt;name&gt;</code>.</td></tr>`
      : view.snapshots.map(
          (
            s,
          ) => html`<tr data-snapshot="${s.name}"><td data-label="name"><code>${s.name}</code></td><td data-label="size">${s.size}</td><td data-label="saved"><time>${s.savedAt}</time></td><td class="actions">
<form method="post" action="${view.action}/${encodeURIComponent(s.name)}/restore"><button type="submit" class="primary" data-testid="snapshot-restore">Restore</button></form>
<form method="post" action="${view.action}/${encodeURIComponent(s.name)}/delete"><button type="submit" data-testid="snapshot-delete">Delete</button></form></td></tr>`,
        );
  return layout(
    view,
    html`<h1>${view.title}</h1>
<p class="muted">A snapshot holds the whole state: links, checkouts, payments, tokens, events and their deliveries, webhook endpoints, the request log and the clock. Restoring one puts all of it back; what was written since is gone. Kept in <code data-testid="snapshot-location">${view.location}</code>.</p>
<section id="snapshots" data-testid="snapshots"><table><thead><tr><th>name</th><th>size</th><th>saved</th><th></th></tr></thead><tbody>${rows}</tbody></table></section>
<form class="actions" method="post" action="${view.action}" data-testid="snapshot-save-form"><label>Name <input name="name" required pattern="[A-Za-z0-9_][A-Za-z0-9._\\-]{0,63}" maxlength="64" data-testid="snapshot-name"></label><button type="submit" class="primary" data-testid="snapshot-save">Save the state now</button></form>`,
  );
}
