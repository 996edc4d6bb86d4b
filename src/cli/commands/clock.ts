/**
 * `paylink clock`: reads and moves the sandbox clock (`GET/POST /__sandbox/clock`). Every expiry and
 * timestamp in the sandbox follows it: `paylink clock advance 31m` times out a fresh checkout.
 */
import type { Run } from '../command-spec.js';
import type { clock as showSpec, clockAdvance as advanceSpec, clockReset as resetSpec, clockSet as setSpec } from './clock.spec.js';
import { formatClockOffset, isCalendarDate, parseClockStep } from '../../sandbox/domain/clock.js';
import { UsageError } from '../errors.js';
import { adminOk, type AdminConnection } from '../client.js';
import type { Ui } from '../ui.js';

/** What the sandbox answers about its clock. */
export interface ClockState {
  now: string;
  offsetMs: number;
  frozen: boolean;
  /** After a move: the waiting payments it settled (docs/test-cards.md, "What time settles"). */
  settled?: Array<{ paymentId: string; kind: string; dueAt: string; result: number }>;
}

export type ClockChange = { advance: string } | { set: string; freeze?: boolean } | { reset: true };

/** Reads the clock, or applies `change` first; prints it and returns it. */
export async function runClock(conn: AdminConnection, ui: Ui, change?: ClockChange): Promise<ClockState> {
  const envelope = change === undefined ? await adminOk(conn, 'GET', '/__sandbox/clock') : await adminOk(conn, 'POST', '/__sandbox/clock', change);
  const clock = envelope.body as ClockState;
  if (ui.options.json) ui.json(clock);
  else {
    ui.line(`${clock.now}  ${formatOffset(clock.offsetMs)}${clock.frozen ? '  (frozen)' : ''}`);
    for (const s of clock.settled ?? []) ui.line(`  settled ${s.paymentId}: ${s.kind.replace('-', ' ')} at ${s.dueAt}, result ${s.result}`);
  }
  return clock;
}

/** `+31m from the wall clock`, `wall clock` for people. */
export function formatOffset(ms: number): string {
  const offset = formatClockOffset(ms);
  return offset === 'wall clock' ? offset : `${offset} from the wall clock`;
}

/**
 * `paylink clock advance <duration>`: checked with the sandbox's own parser before anything is sent, so a
 * typo is a usage error (exit 2) rather than the API's refusal (exit 3).
 */
export function parseClockAdvance(value: string): string {
  if (parseClockStep(value) === undefined)
    throw new UsageError(`clock advance: expected a duration such as 31m, 2h, 1d, 1h30m, PT31M or milliseconds, got "${value}".`);
  return value;
}

/** `paylink clock set <iso>`: an ISO 8601 date-time, checked before anything is sent. */
export function parseClockTime(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !Number.isFinite(Date.parse(value)))
    throw new UsageError(`clock set: expected an ISO 8601 date-time such as 2030-01-01T00:00:00Z, got "${value}".`);
  if (!isCalendarDate(value))
    throw new UsageError(
      `clock set: ${value.slice(0, 10)} is not a day of the calendar; expected an ISO 8601 date-time such as 2030-01-01T00:00:00Z, got "${value}".`,
    );
  return value;
}

/** `paylink clock`: shows it. */
export const clockCommand: Run<typeof showSpec> = (_args, _flags, ctx) => runClock(ctx.admin, ctx.ui);
export const clockAdvanceCommand: Run<typeof advanceSpec> = ({ duration }, _flags, ctx) =>
  runClock(ctx.admin, ctx.ui, { advance: parseClockAdvance(duration) });
export const clockSetCommand: Run<typeof setSpec> = ({ iso }, flags, ctx) =>
  runClock(ctx.admin, ctx.ui, { set: parseClockTime(iso), freeze: flags.freeze === true });
export const clockResetCommand: Run<typeof resetSpec> = (_args, _flags, ctx) => runClock(ctx.admin, ctx.ui, { reset: true });
