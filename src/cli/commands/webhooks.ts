/**
 * `paylink webhooks add|list|remove` and `paylink events list|show|resend`: the sandbox's webhook
 * endpoints and events over the admin API (`/__sandbox/webhooks`, `/__sandbox/events`, docs/webhooks.md).
 * Each is a typed function returning what it printed; `--json` prints it as one document.
 */
import type { Run } from '../command-spec.js';
import type { eventsList as eventsListSpec, eventsResend as eventsResendSpec, eventsShow as eventsShowSpec } from './events.spec.js';
import type { webhooksAdd as addSpec, webhooksList as listSpec, webhooksRemove as removeSpec } from './webhooks.spec.js';
import { logTime } from '../log-lines.js';
import { adminOk, type AdminConnection } from '../client.js';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { EVENT_TYPES } from '../../sandbox/domain/events.js';
import { ownTargetReason, portOf } from '../../sandbox/domain/own-address.js';
import { UnreachableError, UsageError } from '../errors.js';
import { parseHttpUrl } from '../options.js';
import type { Ui } from '../ui.js';

/** An endpoint as `GET /__sandbox/webhooks` answers it (the secret as its last four characters). */
export interface EndpointEntry {
  hookId: string;
  businessId: string;
  url: string;
  events: string[];
  secret: string;
  ownSecret: boolean;
  faults: string[];
  createdAt: string;
}

export interface AttemptEntry {
  attempt: number;
  at: string;
  status: number | null;
  latencyMs: number;
  error: string | null;
  response: string | null;
  fault: string | null;
  finding: string | null;
}

export interface DeliveryEntry {
  id: number;
  kind: 'endpoint' | 'notify';
  hookId: string;
  url: string;
  /** pending, delivered, failed, rejected (a probe refused, as it should be), finding, cancelled. */
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  faults: string[];
  note: string | null;
  log?: AttemptEntry[];
}

export interface EventEntry {
  seq: number;
  id: string;
  type: string;
  businessId: string;
  paymentId: string;
  action: string | null;
  result: number | null;
  createdAt: string;
  findings: number;
  deliveries: DeliveryEntry[];
  /** The exact body sent (`events show`). */
  body?: string;
}

export const FAULTS = ['duplicate', 'out-of-order', 'bad-signature', 'tampered-body'] as const;
/** `--events create,update` (or `--type`, named by `flag`) or the full names, to the event types. */
export function parseEventTypes(values: string[] | undefined, flag = '--events'): string[] | undefined {
  if (values === undefined || values.length === 0) return undefined;
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v) => {
      const found = EVENT_TYPES.find((t) => t.toLowerCase() === v.toLowerCase() || t.slice('Transaction.'.length).toLowerCase() === v.toLowerCase());
      if (found === undefined)
        throw new UsageError(
          `${flag}: unknown event type "${v}". Use Transaction.Create, Transaction.Update (or create, update), Tokenization.Create, Tokenization.Update.`,
        );
      return found;
    });
}

/** `--fault duplicate,bad-signature` to the fault names. */
export function parseFaults(values: string[] | undefined): string[] {
  const names = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(FAULTS as readonly string[]).includes(name)) throw new UsageError(`--fault: unknown fault "${name}". Use ${FAULTS.join(', ')}.`);
  }
  return names;
}

/** `--delay 500ms`, `2s` or milliseconds. */
export function parseDelay(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)(ms|s)?$/.exec(value.trim());
  if (!m) throw new UsageError(`--delay: expected milliseconds or a duration such as 500ms or 2s, got "${value}".`);
  const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
  if (ms > 3_600_000) throw new UsageError('--delay: at most one hour.');
  return ms;
}

export interface AddOptions {
  businessId: string;
  events?: string[] | undefined;
  secret?: string | undefined;
  faults?: string[] | undefined;
  delayMs?: number | undefined;
}

/** `paylink webhooks add <url>`: registers an endpoint; its secret is printed this once. */
export async function webhooksAdd(conn: AdminConnection, ui: Ui, url: string, options: AddOptions): Promise<EndpointEntry & { header: string }> {
  // A value the CLI can check itself is a usage error (exit 2), before anything is sent.
  parseHttpUrl(url, 'webhooks add <url>');
  const own = ownAddressReason(url, conn.baseUrl);
  if (own !== undefined) {
    throw new UsageError(
      `webhooks add ${url}: ${own}, and the sandbox never delivers webhooks to itself (its deliveries to it would fail as "not sent"). Give your webhook receiver's URL, such as http://localhost:3000/webhooks.`,
    );
  }
  const answer = await adminOk<{ body: { endpoint: EndpointEntry; header: string } }>(conn, 'POST', '/__sandbox/webhooks', {
    businessId: options.businessId,
    url,
    ...(options.events ? { events: options.events } : {}),
    ...(options.secret !== undefined ? { secret: options.secret } : {}),
    ...(options.faults && options.faults.length > 0 ? { faults: options.faults } : {}),
    ...(options.delayMs !== undefined ? { delayMs: options.delayMs } : {}),
  });
  const endpoint = { ...answer.body.endpoint, header: answer.body.header };
  if (ui.options.json) {
    ui.json(endpoint);
    return endpoint;
  }
  ui.heading('Webhook endpoint added');
  ui.field('Hook id', endpoint.hookId);
  ui.field('Business', endpoint.businessId);
  ui.field('URL', endpoint.url);
  ui.field('Events', endpoint.events.join(', '));
  ui.field('Secret', endpoint.secret);
  ui.field('Header', endpoint.header);
  if (endpoint.faults.length > 0) ui.field('Faults', endpoint.faults.join(', '));
  ui.info(
    endpoint.ownSecret
      ? 'The secret is shown this once; the sandbox shows only its last four characters from now on.'
      : 'Signed with the sandbox webhook secret (paylink sandbox prints it; --webhook-secret or PAYLINK_WEBHOOK_SECRET set it).',
  );
  return endpoint;
}

/**
 * Why `url` is the sandbox at `baseUrl` itself (the sandbox's own rule, domain/own-address.ts), as far as
 * the CLI can tell without resolving names: its origin, or, for a sandbox on this machine, any address of
 * this machine on its port (`localhost`, `127.1`, `[::1]`, `0.0.0.0`).
 */
function ownAddressReason(url: string, baseUrl: string): string | undefined {
  const target = new URL(url);
  const base = new URL(baseUrl);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const local = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/i.test(base.hostname);
  const addresses = !local ? [] : host.toLowerCase() === 'localhost' ? ['127.0.0.1', '::1'] : isIP(host) !== 0 ? [host] : [];
  const interfaces = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return ownTargetReason(target, addresses, { port: local ? portOf(base) : -1, origins: [base.origin], interfaces });
}

/** `paylink webhooks list`. */
export async function webhooksList(conn: AdminConnection, ui: Ui, options: { businessId?: string | undefined } = {}): Promise<EndpointEntry[]> {
  const query = options.businessId ? `?businessId=${encodeURIComponent(options.businessId)}` : '';
  const answer = await adminOk<{ body: { endpoints: EndpointEntry[]; header: string; secret: string } }>(conn, 'GET', `/__sandbox/webhooks${query}`);
  // Whatever answered may not be a sandbox at all: a clear error rather than a TypeError (exit 70).
  if (
    !Array.isArray(answer?.body?.endpoints) ||
    !answer.body.endpoints.every((e) => e !== null && typeof e === 'object' && Array.isArray(e.events) && Array.isArray(e.faults))
  ) {
    throw new UnreachableError(`${conn.baseUrl} answered GET /__sandbox/webhooks without the sandbox's list of endpoints: is it a paylink sandbox?`);
  }
  const { endpoints } = answer.body;
  if (ui.options.json) {
    ui.json(answer.body);
    return endpoints;
  }
  if (endpoints.length === 0) ui.info('No webhook endpoints. Add one with `paylink webhooks add <url>`, or send a notifyUrl with a payment.');
  else
    ui.table(
      ['hook id', 'business', 'url', 'events', 'secret', 'faults'],
      endpoints.map((e) => [e.hookId, e.businessId, e.url, e.events.map((t) => t.replace('Transaction.', '')).join(','), e.secret, e.faults.join(',') || '-']),
    );
  ui.info(`Signature header ${answer.body.header}; sandbox secret ${answer.body.secret}.`);
  return endpoints;
}

/** `paylink webhooks remove <hookId>`: pending deliveries to it are cancelled. */
export async function webhooksRemove(conn: AdminConnection, ui: Ui, hookId: string): Promise<{ removed: string }> {
  const answer = await adminOk<{ body: { removed: string } }>(conn, 'POST', `/__sandbox/webhooks/${encodeURIComponent(hookId)}/remove`, {});
  if (ui.options.json) ui.json(answer.body);
  else ui.info(`Removed webhook endpoint ${hookId}.`);
  return answer.body;
}

function deliverySummary(ui: Ui, d: DeliveryEntry): string {
  const colour = d.status === 'delivered' || d.status === 'rejected' ? ui.color.green : d.status === 'pending' ? ui.color.yellow : ui.color.red;
  const text = d.status === 'finding' ? 'FINDING' : d.status;
  // "failed (9 attempts)": "failedx9" read as a word.
  return colour(`${text}${d.attempts > 1 ? ` (${d.attempts} attempts)` : ''}`);
}

export interface EventsListOptions {
  businessId?: string | undefined;
  paymentId?: string | undefined;
  type?: string | undefined;
  /** @default 20 */
  limit?: number | undefined;
}

/** `paylink events list`: the newest events, each with its deliveries' states. */
export async function eventsList(conn: AdminConnection, ui: Ui, options: EventsListOptions = {}): Promise<EventEntry[]> {
  const params = new URLSearchParams();
  if (options.businessId) params.set('businessId', options.businessId);
  if (options.paymentId) params.set('paymentId', options.paymentId);
  if (options.type) params.set('type', options.type);
  params.set('limit', String(options.limit ?? 20));
  const answer = await adminOk<{ body: { events: EventEntry[] } }>(conn, 'GET', `/__sandbox/events?${params}`);
  const { events } = answer.body;
  if (ui.options.json) {
    ui.json(events);
    return events;
  }
  if (events.length === 0) {
    ui.info('No events yet: every payment the sandbox creates or changes makes one.');
    return events;
  }
  // Columns padded to their widest cell, under a header; times with their date once the clock left today.
  const rows = events.map((e) => ({ e, time: logTime(e.createdAt) }));
  const width = (cells: string[]) => Math.max(...cells.map((c) => c.length));
  const w = {
    time: width(['TIME', ...rows.map((r) => r.time)]),
    id: width(['EVENT', ...events.map((e) => e.id)]),
    payment: width(['PAYMENT', ...events.map((e) => e.paymentId)]),
  };
  ui.line(
    ui.color.dim(
      `${'TIME'.padEnd(w.time)} ${'EVENT'.padEnd(w.id)}  ${'TYPE'.padEnd(18)} ${'ACTION'.padEnd(9)} ${'RESULT'.padStart(6)}  ${'PAYMENT'.padEnd(w.payment)}  DELIVERIES`,
    ),
  );
  for (const { e, time } of rows) {
    const deliveries = e.deliveries.length === 0 ? ui.color.dim('no destination') : e.deliveries.map((d) => deliverySummary(ui, d)).join(' ');
    ui.line(
      `${ui.color.dim(time.padEnd(w.time))} ${e.id.padEnd(w.id)}  ${e.type.padEnd(18)} ${(e.action ?? '').padEnd(9)} ${String(e.result ?? '').padStart(6)}  ${e.paymentId.padEnd(w.payment)}  ${deliveries}`,
    );
  }
  const findings = events.reduce((n, e) => n + e.findings, 0);
  if (findings > 0) ui.warn(`${findings} FINDING(S): an endpoint accepted an event it had to refuse. See \`paylink events show <id>\`.`);
  return events;
}

/** `paylink events show <id>`: the event, its body, and every attempt of every delivery. */
export async function eventsShow(conn: AdminConnection, ui: Ui, id: string): Promise<EventEntry> {
  const answer = await adminOk<{ body: { event: EventEntry } }>(conn, 'GET', `/__sandbox/events/${encodeURIComponent(id)}`);
  const e = answer.body.event;
  if (ui.options.json) {
    ui.json(e);
    return e;
  }
  ui.heading(`${e.type} ${e.id}`);
  ui.field('Payment', `${e.paymentId} (${e.action ?? '?'}, result ${e.result ?? '?'})`);
  ui.field('Business', e.businessId);
  ui.field('Created', e.createdAt);
  if (e.deliveries.length === 0) ui.info('No destination: no endpoint of this business and no notifyUrl.');
  for (const d of e.deliveries) {
    ui.line();
    ui.line(
      `${deliverySummary(ui, d)}  ${d.kind === 'notify' ? 'notifyUrl' : `hook ${d.hookId}`}  ${d.url}${d.faults.length > 0 ? `  faults: ${d.faults.join(', ')}` : ''}`,
    );
    if (d.nextAttemptAt) ui.line(ui.color.dim(`  next attempt ${d.nextAttemptAt}`));
    for (const a of d.log ?? []) {
      const status =
        a.status === null ? ui.color.red(a.error ?? 'no answer') : a.status < 300 ? ui.color.green(String(a.status)) : ui.color.yellow(String(a.status));
      ui.line(
        `  #${a.attempt} ${a.at}  ${status}  ${a.latencyMs} ms${a.fault ? `  [${a.fault}]` : ''}${a.response ? ui.color.dim(`  ${a.response.slice(0, 80).replace(/\s+/g, ' ')}`) : ''}`,
      );
      if (a.finding) ui.line(ui.color.red(`  ${a.finding}`));
    }
  }
  if (e.body !== undefined) {
    ui.line();
    ui.line(ui.color.dim(e.body));
  }
  return e;
}

/** `paylink events resend <id>`: delivers the event again (to one hook with `hookId`). */
export async function eventsResend(conn: AdminConnection, ui: Ui, id: string, options: { hookId?: string | undefined } = {}): Promise<{ resent: number[] }> {
  const answer = await adminOk<{ body: { resent: number[] } }>(
    conn,
    'POST',
    `/__sandbox/events/${encodeURIComponent(id)}/resend`,
    options.hookId ? { hookId: options.hookId } : {},
  );
  if (ui.options.json) ui.json(answer.body);
  else
    ui.info(
      `Queued ${answer.body.resent.length} deliver${answer.body.resent.length === 1 ? 'y' : 'ies'} of ${id}; \`paylink events show ${id}\` shows how they went.`,
    );
  return answer.body;
}

/** `paylink webhooks add <url>`: for the business of `--business-id`. */
export const webhooksAddCommand: Run<typeof addSpec> = ({ url }, flags, ctx) =>
  webhooksAdd(ctx.admin, ctx.ui, url, {
    businessId: ctx.connection.businessId,
    events: parseEventTypes(flags.events),
    secret: flags.secret,
    faults: parseFaults(flags.fault),
    delayMs: parseDelay(flags.delay),
  });

export const webhooksListCommand: Run<typeof listSpec> = (_args, flags, ctx) => webhooksList(ctx.admin, ctx.ui, { businessId: flags.business });

export const webhooksRemoveCommand: Run<typeof removeSpec> = ({ hookId }, _flags, ctx) => webhooksRemove(ctx.admin, ctx.ui, hookId);

export const eventsListCommand: Run<typeof eventsListSpec> = (_args, flags, ctx) =>
  eventsList(ctx.admin, ctx.ui, {
    paymentId: flags.payment,
    businessId: flags.business,
    type: parseEventTypes(flags.type ? [flags.type] : undefined, '--type')?.[0],
    limit: flags.limit,
  });

export const eventsShowCommand: Run<typeof eventsShowSpec> = ({ eventId }, _flags, ctx) => eventsShow(ctx.admin, ctx.ui, eventId);

export const eventsResendCommand: Run<typeof eventsResendSpec> = ({ eventId }, flags, ctx) => eventsResend(ctx.admin, ctx.ui, eventId, { hookId: flags.hook });
