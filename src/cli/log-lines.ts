/**
 * How the sandbox's request log reads for people: one line per request or webhook delivery, as `paylink logs`
 * and the live console of `paylink sandbox` print it. Apart from the commands, so that the sandbox's console
 * loads these lines without `paylink logs` and the API client it reaches the log with.
 */
import type { Ui } from './ui.js';
import { describeFiredFault } from '../sandbox/domain/faults.js';
import type { LoggedRequestAnswer } from '../sandbox/domain/observed.js';

/**
 * One request of the log as `GET /__sandbox/requests` answers it (docs/cli.md, "paylink logs"): the wire
 * type the sandbox answers with (domain/observed.ts). Card data in `request` and `response` is masked by
 * the sandbox.
 */
export type LogEntry = LoggedRequestAnswer;

/**
 * A log time for people: the time of day (`14:09:02.655`) while it is today's (UTC, by the wall clock),
 * with its date in front (`2026-11-30 14:09:02.655`) once the sandbox clock moved off today, so that
 * requests days apart never read as minutes apart.
 */
export function logTime(isoText: string, now = Date.now()): string {
  const time = isoText.slice(11, 23);
  return isoText.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? time : `${isoText.slice(0, 10)} ${time}`;
}

/** What the log holds for a webhook delivery attempt (kind `webhook`). */
interface DeliveryAttempt {
  event?: string;
  type?: string;
  attempt?: number;
  fault?: string;
  error?: string;
  finding?: string;
}

/** One line for a webhook delivery the sandbox sent: arrow, event type, receiver, its answer (or why none). */
function formatDelivery(entry: LogEntry, ui: Ui): string {
  const time = logTime(entry.at);
  const d = (entry.request ?? {}) as DeliveryAttempt;
  const answer =
    entry.status === 0
      ? ui.color.red(`no answer${d.error ? ` (${d.error})` : ''}`)
      : entry.status >= 200 && entry.status < 300
        ? ui.color.green(String(entry.status))
        : ui.color.yellow(String(entry.status));
  const fault = d.fault ? ui.color.dim(` [${d.fault}]`) : '';
  const finding = d.finding ? `  ${ui.color.red(d.finding)}` : '';
  const business = entry.businessId ? ui.color.dim(` ${entry.businessId}`) : '';
  return `${ui.color.dim(time)} -> webhook ${d.type ?? ''} #${d.attempt ?? '?'} ${entry.path} ${answer} ${ui.color.dim(`${Math.round(entry.durationMs)}ms`)}${business}${fault}${finding}`;
}

/** One line for people: time, method, path, status, duration, business, the error message when failing. */
export function formatEntry(entry: LogEntry, ui: Ui): string {
  if (entry.kind === 'webhook') return formatDelivery(entry, ui);
  const time = logTime(entry.at);
  const status =
    entry.status === 0
      ? ui.color.red('---')
      : entry.status >= 500
        ? ui.color.red(String(entry.status))
        : entry.status >= 400
          ? ui.color.yellow(String(entry.status))
          : ui.color.green(String(entry.status));
  const path = entry.query ? `${entry.path}?${entry.query}` : entry.path;
  const error = (entry.response as { body?: { error?: { message?: string } } } | undefined)?.body?.error?.message;
  const business = entry.businessId ? ui.color.dim(` ${entry.businessId}`) : '';
  const flag = entry.findings && entry.findings.length > 0 ? `  ${ui.color.red(`! ${entry.findings.join(', ')}`)}` : '';
  const fault = entry.fault ? `  ${ui.color.yellow(`[${describeFiredFault(entry.fault)}]`)}` : '';
  return `${ui.color.dim(time)} ${entry.method.padEnd(4)} ${path} ${status} ${ui.color.dim(`${Math.round(entry.durationMs)}ms`)}${business}${fault}${error ? `  ${error}` : ''}${flag}`;
}
