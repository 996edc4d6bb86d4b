/**
 * The movable sandbox clock as an admin resource: read it, advance it, set it, reset it. Every expiry and
 * timestamp rule already reads `sandbox.clock`, so moving it here moves the whole sandbox.
 */
import type { Deps } from './deps.js';
import { isCalendarDate, isoUtcMs, parseClockStep } from '../domain/clock.js';
/** The body of `POST /__sandbox/clock` (or the dashboard's form as the same fields). */
export interface ClockChange {
  reset?: unknown;
  advance?: unknown;
  set?: unknown;
  freeze?: unknown;
}
import { invalidValue, missingProperty } from '../errors.js';
import { settleDue, type Settled, type TimeSettleDeps } from './time-settles.js';

export { parseClockStep };

/** What `GET /__sandbox/clock` answers. */
export interface ClockView {
  /** Sandbox time, ISO 8601 UTC. */
  now: string;
  /** Distance from the wall clock in milliseconds (while running). */
  offsetMs: number;
  /** Whether the clock stands still at `now`. */
  frozen: boolean;
}

export function clockView(sandbox: Pick<Deps, 'clock'>): ClockView {
  const now = sandbox.clock.now();
  const state = sandbox.clock.state();
  const frozen = state.frozenAt !== undefined;
  return { now: isoUtcMs(now), offsetMs: frozen ? now - Date.now() : state.offsetMs, frozen };
}

/**
 * Latest sandbox time: 9999-01-01, so that a time plus the longest duration (365 days) still has a
 * four-digit year. Beyond about year 275760 a date cannot be written at all, and a clock moved there made
 * every answer, the error envelope included, fail (found by fuzzing).
 */
const LATEST_CLOCK_MS = Date.UTC(9999, 0, 1);
const OUT_OF_RANGE = 'The sandbox time must stay between 1970-01-01T00:00:00Z and 9999-01-01T00:00:00Z.';

function withinClockRange(epochMs: number): boolean {
  return Number.isFinite(epochMs) && epochMs >= 0 && epochMs <= LATEST_CLOCK_MS;
}

/**
 * Applies one clock change, `{advance}`, `{set, freeze?}`, `{reset: true}` or `{freeze: boolean}`, and
 * persists it so a restarted sandbox keeps the moved time. Throws the input error naming the field.
 */
export async function changeClock(
  sandbox: Pick<Deps, 'clock' | 'store' | 'meta' | 'waitingCredits'> & TimeSettleDeps,
  body: ClockChange,
): Promise<ClockView & { settled: Array<Omit<Settled, 'dueAt'> & { dueAt: string }> }> {
  const freeze = body.freeze;
  if (freeze !== undefined && typeof freeze !== 'boolean') throw invalidValue('freeze', 'Use true or false.');
  if (body.reset === true) {
    sandbox.clock.reset();
  } else if (body.advance !== undefined) {
    const ms = parseClockStep(body.advance);
    if (ms === undefined) throw invalidValue('advance', 'Use milliseconds or a duration such as "31m", "2h", "1d" or "PT31M".');
    if (!withinClockRange(sandbox.clock.now() + ms)) throw invalidValue('advance', OUT_OF_RANGE);
    sandbox.clock.advance(ms);
    if (freeze !== undefined) setFrozen(sandbox, freeze);
  } else if (body.set !== undefined) {
    const at = typeof body.set === 'string' && /^\d{4}-\d{2}-\d{2}/.test(body.set) ? Date.parse(body.set) : typeof body.set === 'number' ? body.set : NaN;
    if (!Number.isFinite(at)) throw invalidValue('set', 'Use an ISO 8601 date-time such as "2030-01-01T00:00:00Z".');
    // Date.parse rolls a day past the month's end over (2030-02-31 is March 3): refuse it instead.
    if (typeof body.set === 'string' && !isCalendarDate(body.set)) {
      throw invalidValue('set', `${body.set.slice(0, 10)} is not a day of the calendar. Use an ISO 8601 date-time such as "2030-01-01T00:00:00Z".`);
    }
    if (!withinClockRange(at)) throw invalidValue('set', OUT_OF_RANGE);
    sandbox.clock.set(at, freeze === true);
  } else if (freeze !== undefined) {
    setFrozen(sandbox, freeze);
  } else {
    throw missingProperty('advance');
  }
  // Saved, so a moved clock survives a restart; what the new time settles commits with it (services/time-settles.ts).
  const settled = await sandbox.store.write(() => {
    sandbox.meta.set('clock', sandbox.clock.state());
    // SEPA credits due by the new time settle in the same sweep, in order with the rest.
    return settleDue(sandbox);
  });
  return { ...clockView(sandbox), settled: settled.map((x) => ({ ...x, dueAt: isoUtcMs(x.dueAt) })) };
}

function setFrozen(sandbox: Pick<Deps, 'clock'>, freeze: boolean): void {
  sandbox.clock.set(sandbox.clock.now(), freeze);
}
