/**
 * Webhook endpoints and events as admin resources (docs/webhooks.md): register, list and remove endpoints
 * per business; list, show and resend events; and the long-polled stream `paylink listen` forwards from.
 * Secrets are answered in full only when an endpoint is created; afterwards as their last four characters.
 */
import { DEFAULT_EVENT_TYPES, EVENT_TYPES, faultNames, faultsOf, FAULT_NAMES, maskSecret, type EventType, type WebhookFaults } from '../domain/events.js';
import { maskUrlPasswords } from '../domain/mask.js';
import { isoUtcMs, parseClockStep } from '../domain/clock.js';
import { envelope } from '../http/envelope.js';
import { optionalString, requireString, returnUrl, type Json, type JsonObject } from '../http/fields.js';
import { invalidValue, notFound, RESULTS } from '../errors.js';
import type { Route, RouteRequest, SandboxView } from '../http/router.js';
import type { DeliveryRow, EndpointRecord, EventRow } from '../domain/webhook-records.js';

/** Longest a `listen` poll waits for an event. */
const MAX_WAIT_SECONDS = 30;

function integerParam(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw invalidValue(name, `Use a whole number from ${min} to ${max}.`);
  return value;
}

function eventTypes(value: Json | undefined, path: string): EventType[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (list === undefined) throw invalidValue(path, `Use a list of ${EVENT_TYPES.join(', ')}.`);
  const types = list.map((t) => (typeof t === 'string' ? EVENT_TYPES.find((e) => e.toLowerCase() === t.trim().toLowerCase()) : undefined));
  if (types.some((t) => t === undefined) || types.length === 0) throw invalidValue(path, `Use ${EVENT_TYPES.join(' or ')}.`);
  return [...new Set(types as EventType[])];
}

function typeParam(query: URLSearchParams): string | undefined {
  const text = query.get('type');
  if (!text) return undefined;
  const types = eventTypes(text, 'type')!;
  if (types.length !== 1) throw invalidValue('type', 'Give one event type.');
  return types[0];
}

function parseFaults(value: Json | undefined, delay: Json | undefined): WebhookFaults | undefined {
  const names = value === undefined || value === null ? [] : Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (names === undefined || names.some((n) => typeof n !== 'string' || !(FAULT_NAMES as readonly string[]).includes(n.trim()))) {
    throw invalidValue('faults', `Use a list of ${FAULT_NAMES.join(', ')}.`);
  }
  let delayMs: number | undefined;
  if (delay !== undefined && delay !== null) {
    if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 3_600_000)
      throw invalidValue('delayMs', 'Use whole milliseconds from 0 to 3600000.');
    delayMs = delay;
  }
  const faults = faultsOf(
    (names as string[]).map((n) => n.trim()),
    delayMs,
  );
  return Object.keys(faults).length > 0 ? faults : undefined;
}

/** An endpoint as the admin API shows it: never its secret, only the last four characters; its URL's password masked. */
export function endpointView(sandbox: SandboxView, e: EndpointRecord) {
  return {
    hookId: e.hookId,
    businessId: e.businessId,
    url: maskUrlPasswords(e.url),
    events: e.events ?? [...DEFAULT_EVENT_TYPES],
    secret: maskSecret(e.secret ?? sandbox.services.webhooks.secret()),
    ownSecret: e.secret !== undefined,
    faults: faultNames(e.faults),
    createdAt: isoUtcMs(e.createdAt),
  };
}

export function deliveryView(sandbox: SandboxView, d: DeliveryRow, withAttempts: boolean) {
  return {
    id: d.id,
    kind: d.data.kind,
    hookId: d.hookId,
    url: maskUrlPasswords(d.url),
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? new Date(d.nextAt).toISOString() : null,
    faults: faultNames(d.data.faults),
    note: d.data.note ?? null,
    ...(withAttempts
      ? {
          log: sandbox.services.webhooks.attemptsOf(d.id).map((a) => ({
            attempt: a.n,
            at: new Date(a.at).toISOString(),
            status: a.status,
            latencyMs: a.latencyMs,
            error: a.error ?? null,
            response: a.response ?? null,
            fault: a.fault ?? null,
            finding: a.finding ?? null,
          })),
        }
      : {}),
  };
}

export function eventView(sandbox: SandboxView, e: EventRow, options: { withAttempts?: boolean; withBody?: boolean } = {}) {
  const deliveries = sandbox.services.webhooks.deliveriesOf(e.seq);
  const payload = (JSON.parse(e.body) as { Payload?: { result?: number; body?: { transaction?: { action?: string } } } }).Payload;
  return {
    seq: e.seq,
    id: e.id,
    type: e.type,
    businessId: e.businessId,
    paymentId: e.paymentId,
    action: payload?.body?.transaction?.action ?? null,
    result: payload?.result ?? null,
    createdAt: isoUtcMs(e.createdAt),
    findings: deliveries.filter((d) => d.status === 'finding').length,
    deliveries: deliveries.map((d) => deliveryView(sandbox, d, options.withAttempts === true)),
    ...(options.withBody ? { body: e.body } : {}),
  };
}

function settings(sandbox: SandboxView) {
  return {
    header: sandbox.services.webhooks.header(),
    secret: maskSecret(sandbox.services.webhooks.secret()),
    hookId: sandbox.services.webhooks.hookId(),
  };
}

/**
 * The sandbox's webhook secret in full, for `paylink listen` to print as the Stripe CLI prints its signing
 * secret. Admin only (loopback or the admin token), like the start banner that shows it too.
 */
function showSecret({ sandbox }: RouteRequest) {
  const { header, hookId } = settings(sandbox);
  return envelope(sandbox, RESULTS.ok, { secret: sandbox.services.webhooks.secret(), header, hookId });
}

function listEndpoints({ sandbox, query }: RouteRequest) {
  const businessId = query.get('businessId') || undefined;
  return envelope(sandbox, RESULTS.ok, {
    ...settings(sandbox),
    endpoints: sandbox.services.webhooks.endpoints(businessId).map((e) => endpointView(sandbox, e)),
  });
}

async function addEndpoint(req: RouteRequest) {
  const { sandbox } = req;
  const json: JsonObject = await req.json();
  const businessId = requireString(json.businessId, 'businessId', { max: 100 });
  const url = returnUrl(json.url, 'url');
  const secret = optionalString(json.secret, 'secret', { max: 200 });
  if (secret !== undefined && secret.length < 8) throw invalidValue('secret', 'Use at least 8 characters.');
  const events = eventTypes(json.events, 'events');
  const faults = parseFaults(json.faults, json.delayMs);
  const endpoint = await sandbox.services.webhooks.addEndpoint({ businessId, url, secret, events, faults });
  // The one answer that carries an endpoint's own secret in full (the sandbox's was shown when it started).
  return envelope(sandbox, RESULTS.ok, {
    endpoint: { ...endpointView(sandbox, endpoint), ...(endpoint.secret !== undefined ? { secret: endpoint.secret } : {}) },
    header: settings(sandbox).header,
  });
}

async function removeEndpoint(req: RouteRequest) {
  const { sandbox } = req;
  const hookId = req.params.hookId!;
  const removed = await sandbox.services.webhooks.removeEndpoint(hookId);
  if (!removed) throw notFound('Webhook endpoint');
  return envelope(sandbox, RESULTS.ok, { removed: hookId });
}

function listEvents({ sandbox, query }: RouteRequest) {
  const events = sandbox.services.webhooks.list({
    businessId: query.get('businessId') || undefined,
    paymentId: query.get('paymentId') || undefined,
    type: typeParam(query),
    limit: integerParam(query, 'limit', 1, 1000),
  });
  return envelope(sandbox, RESULTS.ok, { events: events.map((e) => eventView(sandbox, e)), lastSeq: sandbox.services.webhooks.committedSeq() });
}

/** `from`: an ISO 8601 date-time, epoch milliseconds, or a duration back from the sandbox's now (`10m`). */
function fromTime(sandbox: SandboxView, query: URLSearchParams): number | undefined {
  const text = query.get('from')?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(Date.parse(text))) return Date.parse(text);
  const back = parseClockStep(text);
  if (back === undefined || back < 0)
    throw invalidValue('from', 'Use an ISO 8601 date-time, epoch milliseconds, or a duration back from now such as "10m" or "2h".');
  return sandbox.clock.now() - back;
}

/** The stream `paylink listen` polls: committed events after `since`, each with its exact body and signature. */
async function streamEvents(req: RouteRequest) {
  const { sandbox, query } = req;
  // `from` (a time: `10m` back on the sandbox clock, or an ISO date-time) starts before the first event
  // created then, for `paylink listen --since <time>`; `fromSeq` in the answer says where that was.
  const from = fromTime(sandbox, query);
  const fromSeq = from === undefined ? undefined : sandbox.services.webhooks.seqBefore(from);
  const since = fromSeq ?? integerParam(query, 'since', 0, Number.MAX_SAFE_INTEGER) ?? sandbox.services.webhooks.committedSeq();
  const wait = integerParam(query, 'wait', 0, MAX_WAIT_SECONDS) ?? 0;
  const filter = { businessId: query.get('businessId') || undefined, type: typeParam(query) };
  const gone = new AbortController();
  const onClose = () => gone.abort();
  req.event.node.req.once('close', onClose);
  try {
    const events = await sandbox.services.webhooks.follow(since, filter, wait * 1000, gone.signal);
    const lastSeq = events.length > 0 ? events.at(-1)!.seq : Math.max(since, sandbox.services.webhooks.committedSeq());
    return envelope(sandbox, RESULTS.ok, { ...settings(sandbox), events, lastSeq, ...(fromSeq !== undefined ? { fromSeq } : {}) });
  } finally {
    req.event.node.req.off('close', onClose);
  }
}

function eventOf(sandbox: SandboxView, id: string): EventRow {
  const event = sandbox.services.webhooks.committedEvent(id);
  if (event === undefined) throw notFound('Event');
  return event;
}

function showEvent({ sandbox, params }: RouteRequest) {
  return envelope(sandbox, RESULTS.ok, { event: eventView(sandbox, eventOf(sandbox, params.id!), { withAttempts: true, withBody: true }) });
}

async function resendEvent(req: RouteRequest) {
  const { sandbox } = req;
  const event = eventOf(sandbox, req.params.id!);
  const json = await req.json().catch(() => ({}) as JsonObject);
  const hookId = optionalString(json.hookId, 'hookId', { max: 100 });
  const ids = await sandbox.services.webhooks.resend(event, hookId);
  if (ids.length === 0) {
    throw invalidValue(
      hookId ? 'hookId' : 'id',
      hookId
        ? 'No endpoint or notifyUrl of this event has that hookId.'
        : 'The event has no destination: register an endpoint (paylink webhooks add) or send a notifyUrl.',
    );
  }
  return envelope(sandbox, RESULTS.ok, { event: eventView(sandbox, event), resent: ids });
}

export const webhookRoutes: Route[] = [
  { route: 'admin.webhooks', handler: listEndpoints },
  { route: 'admin.webhooks.add', handler: addEndpoint },
  { route: 'admin.webhooks.secret', handler: showSecret },
  { route: 'admin.webhooks.remove', handler: removeEndpoint },
  { route: 'admin.events', handler: listEvents },
  { route: 'admin.events.stream', handler: streamEvents },
  { route: 'admin.events.get', handler: showEvent },
  { route: 'admin.events.resend', handler: resendEvent },
];
