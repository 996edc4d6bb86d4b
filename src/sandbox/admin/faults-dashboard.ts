/**
 * The dashboard's Faults page (`/__sandbox/dashboard/faults`): the API fault rules with a remove button
 * each (docs/faults.md). Behind the admin token like the rest of the dashboard; no script.
 */
import { formatClockOffset } from '../domain/clock.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import type { ClockPanel, FaultRow } from '../../pages/dashboard/model.js';
import { renderFaults } from '../../pages/dashboard/faults.js';
import { faultView, removeFaultRule } from './faults.js';

const BASE = '/__sandbox/dashboard';
const PAGE = `${BASE}/faults`;

const HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

function clockPanel(sandbox: SandboxView): ClockPanel {
  const view = sandbox.services.admin.clock();
  return { now: view.now, offset: formatClockOffset(view.offsetMs), frozen: view.frozen, action: `${BASE}/clock`, back: PAGE };
}

function faultsPage(req: RouteRequest): Reply {
  const { sandbox } = req;
  const rules = sandbox.services.faults.list().map((rule): FaultRow => {
    const v = faultView(rule);
    return {
      id: v.id,
      kind: v.kind,
      matches: v.matches,
      does: v.does,
      probability: v.probability,
      times: v.times === null ? 'no limit' : v.spent ? `spent (${v.times})` : `${v.remaining} of ${v.times} left`,
      fired: v.fired,
      removeAction: `${PAGE}/${encodeURIComponent(v.id)}/remove`,
    };
  });
  const removed = req.query.get('removed');
  const notice = removed === null ? undefined : removed === 'all' ? 'Removed every fault rule.' : `Removed fault rule ${removed}.`;
  return Reply.html(
    200,
    renderFaults({ title: 'Faults', section: 'faults', clock: clockPanel(sandbox), notice, rules, clearAction: `${PAGE}/clear` }),
    HEADERS,
  );
}

async function removeFromPage(req: RouteRequest): Promise<Reply> {
  const id = req.params.id!;
  await removeFaultRule(req.sandbox, id);
  return Reply.redirect(`${PAGE}?removed=${encodeURIComponent(id)}`, 303);
}

async function clearFromPage(req: RouteRequest): Promise<Reply> {
  await req.sandbox.services.faults.clear();
  return Reply.redirect(`${PAGE}?removed=all`, 303);
}

export const faultDashboardRoutes: Route[] = [
  { route: 'dashboard.faults', handler: faultsPage },
  { route: 'dashboard.faults.clear', handler: clearFromPage },
  { route: 'dashboard.faults.remove', handler: removeFromPage },
];
