/**
 * The dashboard's Webhooks page (`/__sandbox/dashboard/webhooks`) and event detail
 * (`/__sandbox/dashboard/events/:id`): endpoints with masked secrets, findings first, the newest events
 * with how each delivery went, and every attempt of one event. Behind the admin token like the rest of the
 * dashboard; no script.
 */
import { formatClockOffset } from '../domain/clock.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import { notFound } from '../errors.js';
import type { ClockPanel, TableView } from '../../pages/dashboard/model.js';
import { renderEventDetail, renderWebhooks } from '../../pages/dashboard/webhooks.js';
import { deliveryView, endpointView, eventView } from './webhooks.js';

const BASE = '/__sandbox/dashboard';

const HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

function clockPanel(sandbox: SandboxView, back: string): ClockPanel {
  const view = sandbox.services.admin.clock();
  return { now: view.now, offset: formatClockOffset(view.offsetMs), frozen: view.frozen, action: `${BASE}/clock`, back };
}

const eventHref = (id: string) => `${BASE}/events/${encodeURIComponent(id)}`;
const paymentHref = (id: string) => `${BASE}/payments/${encodeURIComponent(id)}`;

function webhooksPage(req: RouteRequest): Reply {
  const { sandbox } = req;
  const events = sandbox.services.webhooks.list({ limit: 50 }).reverse();
  const findings = sandbox.services.webhooks.recentFindings(20);
  const findingsTable: TableView = {
    id: 'webhook-findings-table',
    title: 'Findings',
    columns: ['event', 'endpoint', 'what happened'],
    rows: findings.map((d) => {
      const event = sandbox.services.webhooks.eventBySeq(d.eventSeq);
      return [event ? { text: event.id, href: eventHref(event.id), mono: true } : String(d.eventSeq), d.url, d.data.note ?? ''];
    }),
    empty: 'None.',
  };
  const endpoints: TableView = {
    id: 'webhook-endpoints',
    title: 'Endpoints',
    columns: ['hook id', 'business', 'url', 'events', 'secret', 'faults'],
    rows: sandbox.services.webhooks.endpoints().map((e) => {
      const v = endpointView(sandbox, e);
      return [{ text: v.hookId, mono: true }, v.businessId, v.url, v.events.join(', '), { text: v.secret, mono: true }, v.faults.join(', ') || '-'];
    }),
    empty: 'No endpoints. Add one with `paylink webhooks add <url>` or POST /__sandbox/webhooks; payments with a notifyUrl are delivered there too.',
  };
  const eventsTable: TableView = {
    id: 'webhook-events',
    title: 'Newest events',
    columns: ['event', 'type', 'payment', 'action', 'result', 'created', 'deliveries'],
    rows: events.map((e) => {
      const v = eventView(sandbox, e);
      const summary =
        v.deliveries.length === 0
          ? 'no destination'
          : v.deliveries.map((d) => `${d.status === 'finding' ? 'FINDING' : d.status}${d.attempts > 1 ? ` x${d.attempts}` : ''}`).join(', ');
      return [
        { text: v.id, href: eventHref(v.id), mono: true },
        v.type,
        { text: `…${v.paymentId.slice(-12)}`, href: paymentHref(v.paymentId) },
        v.action ?? '',
        v.result ?? '',
        v.createdAt,
        v.findings > 0 ? { text: summary, state: 'finding' } : summary,
      ];
    }),
    empty: 'No events yet: every payment the sandbox creates or changes makes one.',
  };
  const settings: Array<[string, string]> = [
    ['Signature header', sandbox.services.webhooks.header()],
    ['Sandbox secret', `${endpointView(sandbox, { hookId: '', businessId: '', url: '', createdAt: 0 }).secret} (paylink sandbox prints it at start-up)`],
    ['Hook id of notifyUrl deliveries', sandbox.services.webhooks.hookId()],
  ];
  return Reply.html(
    200,
    renderWebhooks({
      title: 'Webhooks',
      section: 'webhooks',
      clock: clockPanel(sandbox, `${BASE}/webhooks`),
      settings,
      findings: findingsTable,
      endpoints,
      events: eventsTable,
    }),
    HEADERS,
  );
}

function eventPage(req: RouteRequest): Reply {
  const { sandbox } = req;
  const event = sandbox.services.webhooks.committedEvent(req.params.id!);
  if (event === undefined) throw notFound('Event');
  const v = eventView(sandbox, event);
  const deliveries = sandbox.services.webhooks.deliveriesOf(event.seq).map((d): TableView => {
    const dv = deliveryView(sandbox, d, true);
    return {
      id: `delivery-${dv.id}`,
      title: `${dv.kind === 'notify' ? 'notifyUrl' : `Endpoint ${dv.hookId}`} → ${dv.url}: ${dv.status === 'finding' ? 'FINDING' : dv.status}${dv.faults.length > 0 ? ` (faults: ${dv.faults.join(', ')})` : ''}`,
      columns: ['attempt', 'time', 'status', 'latency', 'fault', 'answer (first KB)'],
      rows: (dv.log ?? []).map((a) => [
        a.attempt,
        a.at,
        a.status === null
          ? { text: a.error ?? 'no answer', state: 'failed' }
          : { text: String(a.status), state: a.finding ? 'finding' : a.status < 300 ? 'delivered' : 'failed' },
        `${a.latencyMs} ms`,
        a.fault ?? '',
        a.finding ?? a.response ?? '',
      ]),
      empty: dv.status === 'pending' ? `Not attempted yet${dv.nextAttemptAt ? ` (next at ${dv.nextAttemptAt})` : ''}.` : 'No attempt.',
    };
  });
  const findings = sandbox.services.webhooks
    .deliveriesOf(event.seq)
    .filter((d) => d.status === 'finding')
    .map((d) => `FINDING: ${d.url} accepted this event with ${d.data.faults?.tamperedBody ? 'a changed body' : 'a bad signature'}. ${d.data.note ?? ''}`);
  return Reply.html(
    200,
    renderEventDetail({
      title: `${v.type} event`,
      section: 'webhooks',
      clock: clockPanel(sandbox, eventHref(v.id)),
      id: v.id,
      findings,
      fields: [
        ['Type', v.type],
        ['Payment', { text: v.paymentId, href: paymentHref(v.paymentId), mono: true }],
        ['Action and result', `${v.action ?? '?'} ${v.result ?? '?'}`],
        ['Business', v.businessId],
        ['Created', v.createdAt],
      ],
      deliveries,
      body: event.body,
    }),
    HEADERS,
  );
}

export const webhookDashboardRoutes: Route[] = [
  { route: 'dashboard.webhooks', handler: webhooksPage },
  { route: 'dashboard.event', handler: eventPage },
];
