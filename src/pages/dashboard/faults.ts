/**
 * The dashboard's Faults page: the API fault rules in the order they apply, each with a remove button, and
 * how to add one (docs/faults.md).
 */
import { html } from '../html.js';
import { layout } from './layout.js';
import type { FaultsView } from './model.js';

export function renderFaults(view: FaultsView): string {
  const rows =
    view.rules.length === 0
      ? html`<tr><td colspan="8" class="muted">No fault rules: the API answers normally.</td></tr>`
      : view.rules.map(
          (r) =>
            html`<tr data-fault="${r.id}"><td class="mono" data-label="rule">${r.id}</td><td data-label="kind">${r.kind}</td><td data-label="matches">${r.matches}</td><td data-label="does">${r.does}</td><td data-label="probability">${r.probability === 1 ? 'always' : String(r.probability)}</td><td data-label="times">${r.times}</td><td data-label="fired">${r.fired}</td><td><form method="post" action="${r.removeAction}"><button type="submit" data-testid="remove-${r.id}">Remove</button></form></td></tr>`,
        );
  return layout(
    view,
    html`<h1>${view.title}</h1>
<p class="muted">Rules that make the API slow, failing, silent, or take the payment and time out before answering. The first matching rule that fires applies; paylink's own tools and the admin API are spared unless a rule includes them. Add one with <code>paylink faults add --method POST --path payments --kind ghost --times 1</code> or <code>POST /__sandbox/faults</code> (docs/faults.md).</p>
<section id="faults" data-testid="faults">
<table><thead><tr><th>rule</th><th>kind</th><th>matches</th><th>does</th><th>probability</th><th>times</th><th>fired</th><th></th></tr></thead><tbody>${rows}</tbody></table>
${view.rules.length > 0 ? html`<form method="post" action="${view.clearAction}"><button type="submit" data-testid="clear-faults">Remove every rule</button></form>` : ''}
</section>`,
  );
}
