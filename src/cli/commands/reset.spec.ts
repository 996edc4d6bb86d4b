/** `paylink reset`: empty the sandbox, or one business's data. */
import { command, type Later } from '../command-spec.js';
import { flag } from '../flags.js';

export const reset = command({
  name: 'reset',
  description: "Delete everything in the sandbox (links, checkouts, payments, tokens, request log), or one business's data",
  options: {
    yes: flag('-y, --yes', 'do not ask (for scripts and CI)'),
    // Not BUSINESS_FILTER_FLAG: what is deleted, said so plainly since nothing can bring it back.
    business: flag('--business <id>', "delete only this business's data; other businesses stay as they are"),
  },
  needs: ['connection', 'admin'],
  examples: ['paylink reset', 'paylink reset --yes', "paylink reset --business worker-3 --yes   # one test worker's data only"],
  run: (): Later => import('./reset.js').then((m) => m.resetCommand),
});
