/** `paylink config`: the settings from here and where each came from. */
import { command, type Later } from '../command-spec.js';

export const config = command({
  name: 'config',
  description: 'Show the settings commands use from here and where each came from (flag, environment, config file, the sandbox found, default)',
  // Not `connection`: config shows a connection that cannot be resolved, and why, instead of failing.
  needs: ['admin'],
  examples: ['paylink config', 'paylink --business-id shop-1 config --json'],
  run: (): Later => import('./config.js').then((m) => m.configCommand),
});
