/**
 * `paylink clock`: reads and moves the sandbox clock (`GET/POST /__sandbox/clock`). Every expiry and
 * timestamp in the sandbox follows it: `paylink clock advance 31m` times out a fresh checkout.
 */
import type { Command } from 'commander';
import { formatClockOffset } from '../../sandbox/domain/clock.js';
import { UsageError } from '../errors.js';
import { adminConnectionOf, adminOk, type AdminConnection, type AdminFlags } from '../fixtures/admin-api.js';
import type { Ui } from '../ui.js';

/** What the sandbox answers about its clock. */
export interface ClockState {
  now: string;
  offsetMs: number;
  frozen: boolean;
}

export type ClockChange = { advance: string } | { set: string; freeze?: boolean } | { reset: true };

/** Reads the clock, or applies `change` first; prints it and returns it. */
export async function runClock(conn: AdminConnection, ui: Ui, change?: ClockChange): Promise<ClockState> {
  const envelope = change === undefined ? await adminOk(conn, 'GET', '/__sandbox/clock') : await adminOk(conn, 'POST', '/__sandbox/clock', change);
  const clock = envelope.body as ClockState;
  if (ui.options.json) ui.json(clock);
  else ui.line(`${clock.now}  ${formatOffset(clock.offsetMs)}${clock.frozen ? '  (frozen)' : ''}`);
  return clock;
}

/** `+31m from the wall clock`, `wall clock` for people. */
export function formatOffset(ms: number): string {
  const offset = formatClockOffset(ms);
  return offset === 'wall clock' ? offset : `${offset} from the wall clock`;
}

function isoOrThrow(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !Number.isFinite(Date.parse(value))) throw new UsageError(`clock set: expected an ISO 8601 date-time such as 2030-01-01T00:00:00Z, got "${value}".`);
  return value;
}

export function registerClock(program: Command, ui: () => Ui): void {
  const clock = program
    .command('clock')
    .description('Show or move the sandbox clock (expiry of links and checkouts follows it)')
    .option('--admin-token <token>', 'admin token of a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)')
    .addHelpText('after', '\nExamples:\n  $ paylink clock\n  $ paylink clock advance 31m\n  $ paylink clock set 2030-01-01T00:00:00Z --freeze\n  $ paylink clock reset')
    .action(async (_options, command: Command) => {
      await runClock(adminConnectionOf(command.optsWithGlobals<AdminFlags>()), ui());
    });
  clock
    .command('advance <duration>')
    .description('Move the clock forward: 31m, 2h, 1d, PT31M, or milliseconds (negative to go back)')
    .addHelpText('after', '\nExamples:\n  $ paylink clock advance 31m      # a fresh checkout now answers 4 Timeout\n  $ paylink clock advance 1d --json\n  $ paylink clock advance -- -2h   # back two hours')
    .action(async (duration: string, _options, command: Command) => {
      await runClock(adminConnectionOf(command.optsWithGlobals<AdminFlags>()), ui(), { advance: duration });
    });
  clock
    .command('set <iso>')
    .description('Set the clock to an ISO 8601 date-time; it keeps running unless --freeze')
    .option('--freeze', 'stop the clock at that time')
    .addHelpText('after', '\nExamples:\n  $ paylink clock set 2030-01-01T00:00:00Z\n  $ paylink clock set 2030-01-01T00:00:00Z --freeze')
    .action(async (iso: string, options: { freeze?: boolean }, command: Command) => {
      await runClock(adminConnectionOf(command.optsWithGlobals<AdminFlags>()), ui(), { set: isoOrThrow(iso), freeze: options.freeze === true });
    });
  clock
    .command('reset')
    .description('Back to the wall clock')
    .addHelpText('after', '\nExamples:\n  $ paylink clock reset')
    .action(async (_options, command: Command) => {
      await runClock(adminConnectionOf(command.optsWithGlobals<AdminFlags>()), ui(), { reset: true });
    });
}
