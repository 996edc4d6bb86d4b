/**
 * API fault rules as an admin resource (docs/faults.md): `GET /__sandbox/faults`, `POST /__sandbox/faults`
 * (add one), `POST /__sandbox/faults/{id}/remove`, `POST /__sandbox/faults/clear`. Each handler parses,
 * calls the fault service once, and answers the envelope.
 */
import { isoUtcMs } from '../domain/clock.js';
import {
  describeFault,
  describeMatch,
  FAULT_KINDS,
  FAULT_STATUSES,
  GHOST_MODES,
  holdOf,
  MAX_HOLD_MS,
  MAX_LATENCY_MS,
  validPathPattern,
  type FaultKind,
  type FaultMatch,
  type FaultRule,
  type FaultStatus,
  type GhostMode,
} from '../domain/faults.js';
import { brandById } from '../domain/brands.js';
import { envelope } from '../http/envelope.js';
import { isObject, optionalBoolean, optionalNumber, optionalString, requireString, type Json, type JsonObject } from '../http/fields.js';
import { invalidValue, notFound, RESULTS } from '../errors.js';
import type { Route, RouteRequest, SandboxView } from '../http/router.js';
import type { FaultRuleInput } from '../services/faults.js';

/** A rule as the admin API, the CLI and the dashboard show it. */
export function faultView(rule: FaultRule) {
  return {
    id: rule.id,
    kind: rule.kind,
    match: { ...rule.match },
    ...(rule.status !== undefined ? { status: rule.status } : {}),
    ...(rule.latencyMinMs !== undefined ? { latencyMs: [rule.latencyMinMs, rule.latencyMaxMs ?? rule.latencyMinMs] } : {}),
    ...(rule.kind === 'timeout' || (rule.kind === 'ghost' && rule.ghostAs !== 'reset') ? { holdMs: holdOf(rule) } : {}),
    ...(rule.kind === 'ghost' ? { ghostAs: rule.ghostAs ?? 'timeout' } : {}),
    probability: rule.probability ?? 1,
    times: rule.times ?? null,
    remaining: rule.remaining ?? null,
    fired: rule.fired,
    spent: rule.remaining !== undefined && rule.remaining <= 0,
    createdAt: isoUtcMs(rule.createdAt),
    matches: describeMatch(rule.match),
    does: describeFault(rule),
  };
}

export type FaultView = ReturnType<typeof faultView>;

function oneOf<T extends string | number>(value: Json | undefined, path: string, allowed: readonly T[], parse: (v: Json) => T | undefined): T | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = parse(value);
  if (parsed === undefined || !allowed.includes(parsed)) throw invalidValue(path, `Use one of ${allowed.join(', ')}.`);
  return parsed;
}

function wholeMs(value: Json, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw invalidValue(path, `Use whole milliseconds from ${min} to ${max}.`);
  return value;
}

/** `latencyMs`: a number, or `[min, max]`. */
function parseLatency(value: Json | undefined): [number, number] {
  if (value === undefined || value === null) throw invalidValue('latencyMs', 'A latency fault needs latencyMs: milliseconds, or [min, max].');
  if (Array.isArray(value)) {
    if (value.length !== 2) throw invalidValue('latencyMs', 'Use milliseconds, or [min, max].');
    const min = wholeMs(value[0]!, 'latencyMs', 0, MAX_LATENCY_MS);
    const max = wholeMs(value[1]!, 'latencyMs', 0, MAX_LATENCY_MS);
    if (min > max) throw invalidValue('latencyMs', 'The range [min, max] must have min <= max.');
    return [min, max];
  }
  const ms = wholeMs(value, 'latencyMs', 0, MAX_LATENCY_MS);
  return [ms, ms];
}

/** `amount`: a number (that amount exactly), or `{min?, max?}`. */
function parseAmount(value: Json | undefined): Pick<FaultMatch, 'amountMin' | 'amountMax'> {
  if (value === undefined || value === null) return {};
  if (isObject(value)) {
    const min = optionalNumber(value.min, 'amount.min');
    const max = optionalNumber(value.max, 'amount.max');
    if (min === undefined && max === undefined) throw invalidValue('amount', 'Give min, max or both.');
    if (min !== undefined && max !== undefined && min > max) throw invalidValue('amount', 'min must be at most max.');
    return { ...(min !== undefined ? { amountMin: min } : {}), ...(max !== undefined ? { amountMax: max } : {}) };
  }
  const exact = optionalNumber(value, 'amount')!;
  return { amountMin: exact, amountMax: exact };
}

/** Refuses an option that means nothing for the rule's kind, instead of silently ignoring it. */
function onlyFor(json: JsonObject, field: string, kinds: readonly FaultKind[], kind: FaultKind): void {
  if (json[field] !== undefined && json[field] !== null && !kinds.includes(kind))
    throw invalidValue(field, `Only a ${kinds.join(' or ')} fault takes ${field}.`);
}

/** A new rule from `POST /__sandbox/faults`, checked field by field. */
export function parseFaultRule(json: JsonObject): FaultRuleInput {
  const kind = oneOf(json.kind, 'kind', FAULT_KINDS, (v) => (typeof v === 'string' ? (v.toLowerCase() as FaultKind) : undefined));
  if (kind === undefined) throw invalidValue('kind', `A fault needs a kind: ${FAULT_KINDS.join(', ')}.`);
  onlyFor(json, 'status', ['status'], kind);
  onlyFor(json, 'latencyMs', ['latency'], kind);
  onlyFor(json, 'holdMs', ['timeout', 'ghost'], kind);
  onlyFor(json, 'ghostAs', ['ghost'], kind);

  const method = oneOf(json.method, 'method', ['GET', 'POST'], (v) => (typeof v === 'string' ? v.toUpperCase() : undefined));
  const path = optionalString(json.path, 'path', { max: 200 }) ?? '**';
  if (!validPathPattern(path)) throw invalidValue('path', 'Use path segments (payments, payments/*/refund), * for one segment, ** for any number.');
  const businessId = optionalString(json.businessId, 'businessId', { max: 100 });
  const brandId = optionalNumber(json.brandId, 'brandId');
  if (brandId !== undefined && brandById(brandId) === undefined)
    throw invalidValue('brandId', 'Unknown brand id; see docs/api.md for the brands the sandbox knows.');
  const includePaylink = optionalBoolean(json.includePaylink, 'includePaylink');
  const match: FaultMatch = {
    path,
    ...(method !== undefined ? { method } : {}),
    ...(businessId !== undefined ? { businessId } : {}),
    ...(brandId !== undefined ? { brandId } : {}),
    ...parseAmount(json.amount),
    ...(includePaylink === true ? { includePaylink: true } : {}),
  };

  const probability = optionalNumber(json.probability, 'probability');
  if (probability !== undefined && !(probability > 0 && probability <= 1))
    throw invalidValue('probability', 'Use a number above 0 and at most 1 (0.3 faults about 3 requests in 10).');
  let times: number | undefined;
  if (json.times !== undefined && json.times !== null) {
    if (typeof json.times !== 'number' || !Number.isInteger(json.times) || json.times < 1 || json.times > 1_000_000)
      throw invalidValue('times', 'Use a whole number from 1 to 1000000.');
    times = json.times;
  }

  const input: FaultRuleInput = {
    kind,
    match,
    ...(probability !== undefined && probability < 1 ? { probability } : {}),
    ...(times !== undefined ? { times } : {}),
  };
  if (kind === 'status') {
    input.status =
      oneOf(json.status, 'status', FAULT_STATUSES, (v) =>
        typeof v === 'number' ? (v as FaultStatus) : typeof v === 'string' ? (Number(v) as FaultStatus) : undefined,
      ) ?? 503;
  }
  if (kind === 'latency') [input.latencyMinMs, input.latencyMaxMs] = parseLatency(json.latencyMs);
  if ((kind === 'timeout' || kind === 'ghost') && json.holdMs !== undefined && json.holdMs !== null)
    input.holdMs = wholeMs(json.holdMs, 'holdMs', 1, MAX_HOLD_MS);
  if (kind === 'ghost') {
    input.ghostAs = oneOf(json.ghostAs, 'ghostAs', GHOST_MODES, (v) => (typeof v === 'string' ? (v.toLowerCase() as GhostMode) : undefined)) ?? 'timeout';
    if (input.ghostAs === 'reset' && input.holdMs !== undefined)
      throw invalidValue('holdMs', 'A ghost answered as a reset holds nothing; leave holdMs out or use ghostAs timeout.');
  }
  return input;
}

function listFaults({ sandbox }: RouteRequest) {
  return envelope(sandbox, RESULTS.ok, { faults: sandbox.services.faults.list().map(faultView) });
}

async function addFault(req: RouteRequest) {
  const input = parseFaultRule(await req.json());
  const rule = await req.sandbox.services.faults.add(input);
  return envelope(req.sandbox, RESULTS.ok, { fault: faultView(rule) });
}

/** Removes a rule; shared by the admin API and the dashboard's remove button. */
export async function removeFaultRule(sandbox: SandboxView, id: string): Promise<void> {
  if (!(await sandbox.services.faults.remove(id))) throw notFound('Fault rule');
}

async function removeFault(req: RouteRequest) {
  const id = requireString(req.params.id, 'id', { max: 100 });
  await removeFaultRule(req.sandbox, id);
  return envelope(req.sandbox, RESULTS.ok, { removed: id });
}

async function clearFaults(req: RouteRequest) {
  return envelope(req.sandbox, RESULTS.ok, { removed: await req.sandbox.services.faults.clear() });
}

export const faultRoutes: Route[] = [
  { route: 'admin.faults', handler: listFaults },
  { route: 'admin.faults.add', handler: addFault },
  { route: 'admin.faults.clear', handler: clearFaults },
  { route: 'admin.faults.remove', handler: removeFault },
];
