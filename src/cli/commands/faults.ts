/**
 * `paylink faults add|list|remove|clear`: the sandbox's API fault rules over the admin API
 * (`/__sandbox/faults`, docs/faults.md). Each is a typed function returning what it printed; `--json`
 * prints it as one document.
 */
import type { Options, Run } from '../command-spec.js';
import type { faultsAdd as addSpec, faultsClear as clearSpec, faultsList as listSpec, faultsRemove as removeSpec } from './faults.spec.js';
import { adminOk, type AdminConnection } from '../client.js';
import { UsageError } from '../errors.js';
import { parseBrand } from '../options.js';
import { FAULT_KINDS, FAULT_STATUSES, GHOST_MODES } from '../../sandbox/domain/faults.js';
import type { Ui } from '../ui.js';

/** A rule as `GET /__sandbox/faults` answers it. */
export interface FaultEntry {
  id: string;
  kind: string;
  match: { method?: string; path: string; businessId?: string; brandId?: number; amountMin?: number; amountMax?: number; includePaylink?: boolean };
  status?: number;
  latencyMs?: [number, number];
  holdMs?: number;
  ghostAs?: string;
  probability: number;
  times: number | null;
  remaining: number | null;
  fired: number;
  spent: boolean;
  createdAt: string;
  matches: string;
  does: string;
}

export type FaultAddFlags = Options<typeof addSpec>;

/** `300`, `300ms`, `2s`, `1.5s` to milliseconds. */
export function parseMs(value: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value.trim());
  if (!m) throw new UsageError(`${flag}: expected milliseconds or a duration such as 300ms or 2s, got "${value}".`);
  const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
  if (!Number.isInteger(ms)) throw new UsageError(`${flag}: use whole milliseconds, got "${value}".`);
  return ms;
}

/** `--latency 300`, `300ms`, `2s`, or a range `200-800` / `200ms-1s`. */
export function parseLatency(value: string): number | [number, number] {
  const range = /^([^-]+)-([^-]+)$/.exec(value.trim());
  if (!range) return parseMs(value, '--latency');
  return [parseMs(range[1]!, '--latency'), parseMs(range[2]!, '--latency')];
}

/** `--amount 13.37` (that amount) or `--amount 10..20`, `--amount 10..`, `--amount ..20`. */
export function parseAmountMatch(value: string): number | { min?: number; max?: number } {
  const number = (text: string): number => {
    if (!/^\d+(\.\d+)?$/.test(text)) throw new UsageError(`--amount: expected an amount (13.37) or a range (10..20), got "${value}".`);
    return Number(text);
  };
  const text = value.trim();
  const dots = text.indexOf('..');
  if (dots < 0) return number(text);
  const min = text.slice(0, dots);
  const max = text.slice(dots + 2);
  if (min === '' && max === '') throw new UsageError('--amount: give at least one end of the range (10.., ..20, 10..20).');
  return { ...(min !== '' ? { min: number(min) } : {}), ...(max !== '' ? { max: number(max) } : {}) };
}

/** The `POST /__sandbox/faults` body for the flags of `paylink faults add`. */
export function faultRequestOf(flags: FaultAddFlags): Record<string, unknown> {
  if (flags.kind === undefined) throw new UsageError(`--kind is required: ${FAULT_KINDS.join(', ')}.`);
  // What the CLI can check is a usage error (exit 2) here, not the sandbox's refusal (exit 3).
  if (!(FAULT_KINDS as readonly string[]).includes(flags.kind)) throw new UsageError(`--kind: expected one of ${FAULT_KINDS.join(', ')}, got "${flags.kind}".`);
  const body: Record<string, unknown> = { kind: flags.kind };
  if (flags.method !== undefined) body.method = flags.method;
  if (flags.path !== undefined) body.path = flags.path;
  if (flags.business !== undefined) body.businessId = flags.business;
  if (flags.brand !== undefined) body.brandId = parseBrand(flags.brand);
  if (flags.amount !== undefined) body.amount = parseAmountMatch(flags.amount);
  if (flags.status !== undefined) {
    if (!(FAULT_STATUSES as readonly number[]).includes(Number(flags.status)) || !/^\d{3}$/.test(flags.status)) {
      throw new UsageError(`--status: expected one of ${FAULT_STATUSES.join(', ')}, got "${flags.status}".`);
    }
    body.status = Number(flags.status);
  }
  if (flags.latency !== undefined) body.latencyMs = parseLatency(flags.latency);
  if (flags.hold !== undefined) body.holdMs = parseMs(flags.hold, '--hold');
  if (flags.as !== undefined) {
    if (!(GHOST_MODES as readonly string[]).includes(flags.as)) throw new UsageError(`--as: expected one of ${GHOST_MODES.join(', ')}, got "${flags.as}".`);
    body.ghostAs = flags.as;
  }
  if (flags.probability !== undefined) {
    const p = Number(flags.probability);
    if (!Number.isFinite(p) || flags.probability.trim() === '' || p <= 0 || p > 1)
      throw new UsageError(`--probability: expected a number above 0 and at most 1 (0.3 faults about 3 requests in 10), got "${flags.probability}".`);
    body.probability = p;
  }
  if (flags.times !== undefined) {
    if (!/^\d+$/.test(flags.times)) throw new UsageError(`--times: expected a whole number, got "${flags.times}".`);
    body.times = Number(flags.times);
  }
  if (flags.includePaylink) body.includePaylink = true;
  return body;
}

function timesText(f: FaultEntry): string {
  return f.times === null ? 'no limit' : f.spent ? `spent (${f.times})` : `${f.remaining} of ${f.times} left`;
}

/** `paylink faults add`: adds a rule; it applies from the next request on. */
export async function faultsAdd(conn: AdminConnection, ui: Ui, flags: FaultAddFlags): Promise<FaultEntry> {
  const answer = await adminOk<{ body: { fault: FaultEntry } }>(conn, 'POST', '/__sandbox/faults', faultRequestOf(flags));
  const fault = answer.body.fault;
  if (ui.options.json) {
    ui.json(fault);
    return fault;
  }
  ui.heading(`Fault rule ${fault.id} added`);
  ui.field('Matches', fault.matches);
  ui.field('Does', fault.does);
  ui.field(
    'Fires',
    `${fault.probability === 1 ? 'always' : `with probability ${fault.probability}`}, ${fault.times === null ? 'no limit' : `${fault.times} time${fault.times === 1 ? '' : 's'}`}`,
  );
  ui.info(`Remove it with \`paylink faults remove ${fault.id}\`; faulted requests are marked in \`paylink logs\`.`);
  return fault;
}

/** `paylink faults list`: the rules in the order they apply. */
export async function faultsList(conn: AdminConnection, ui: Ui): Promise<FaultEntry[]> {
  const answer = await adminOk<{ body: { faults: FaultEntry[] } }>(conn, 'GET', '/__sandbox/faults');
  const { faults } = answer.body;
  if (ui.options.json) {
    ui.json(faults);
    return faults;
  }
  if (faults.length === 0) ui.info('No fault rules: the API answers normally. Add one with `paylink faults add --kind status --status 503`.');
  else
    ui.table(
      ['id', 'kind', 'matches', 'does', 'probability', 'times', 'fired'],
      faults.map((f) => [f.id, f.kind, f.matches, f.does, f.probability === 1 ? 'always' : String(f.probability), timesText(f), String(f.fired)]),
    );
  return faults;
}

/** `paylink faults remove <id>`. */
export async function faultsRemove(conn: AdminConnection, ui: Ui, id: string): Promise<{ removed: string }> {
  const answer = await adminOk<{ body: { removed: string } }>(conn, 'POST', `/__sandbox/faults/${encodeURIComponent(id)}/remove`, {});
  if (ui.options.json) ui.json(answer.body);
  else ui.info(`Removed fault rule ${id}.`);
  return answer.body;
}

/** `paylink faults clear`: removes every rule. */
export async function faultsClear(conn: AdminConnection, ui: Ui): Promise<{ removed: number }> {
  const answer = await adminOk<{ body: { removed: number } }>(conn, 'POST', '/__sandbox/faults/clear', {});
  if (ui.options.json) ui.json(answer.body);
  else ui.info(`Removed ${answer.body.removed} fault rule${answer.body.removed === 1 ? '' : 's'}.`);
  return answer.body;
}

export const faultsAddCommand: Run<typeof addSpec> = (_args, flags, ctx) => faultsAdd(ctx.admin, ctx.ui, flags);
export const faultsListCommand: Run<typeof listSpec> = (_args, _flags, ctx) => faultsList(ctx.admin, ctx.ui);
export const faultsRemoveCommand: Run<typeof removeSpec> = ({ id }, _flags, ctx) => faultsRemove(ctx.admin, ctx.ui, id);
export const faultsClearCommand: Run<typeof clearSpec> = (_args, _flags, ctx) => faultsClear(ctx.admin, ctx.ui);
