/** `paylink clock [advance|set|reset]`: the sandbox clock. */
import { command, type Later } from '../command-spec.js';
import { flag } from '../flags.js';

export const clockAdvance = command({
  name: 'advance',
  args: ['<duration>'],
  description: 'Move the clock forward: 31m, 2h, 1d, PT31M, or milliseconds (negative to go back)',
  needs: ['connection'],
  examples: [
    'paylink clock advance 31m      # a fresh checkout now answers 4 Timeout',
    'paylink clock advance 1d --json',
    'paylink clock advance -- -2h   # back two hours',
  ],
  run: (): Later => import('./clock.js').then((m) => m.clockAdvanceCommand),
});

export const clockSet = command({
  name: 'set',
  args: ['<iso>'],
  description: 'Set the clock to an ISO 8601 date-time; it keeps running unless --freeze',
  options: { freeze: flag('--freeze', 'stop the clock at that time') },
  needs: ['connection'],
  examples: ['paylink clock set 2030-01-01T00:00:00Z', 'paylink clock set 2030-01-01T00:00:00Z --freeze'],
  run: (): Later => import('./clock.js').then((m) => m.clockSetCommand),
});

export const clockReset = command({
  name: 'reset',
  description: 'Back to the wall clock',
  needs: ['connection'],
  examples: ['paylink clock reset'],
  run: (): Later => import('./clock.js').then((m) => m.clockResetCommand),
});

/** The subcommands read `--admin-token` from here (`paylink clock --admin-token T advance 1h`). */
export const clock = command({
  name: 'clock',
  description: 'Show or move the sandbox clock (expiry of links and checkouts follows it)',
  needs: ['connection', 'admin'],
  examples: ['paylink clock', 'paylink clock advance 31m', 'paylink clock set 2030-01-01T00:00:00Z --freeze', 'paylink clock reset'],
  run: (): Later => import('./clock.js').then((m) => m.clockCommand),
  commands: [clockAdvance, clockSet, clockReset],
});
