/** `paylink version`: the versions of everything, and whether a sandbox answers. */
import { command, type Later } from '../command-spec.js';

export const version = command({
  name: 'version',
  description: 'Print the versions of the CLI, the API, the browser library and Node, and whether a sandbox answers',
  needs: ['connection'],
  examples: ['paylink version', 'paylink version --json'],
  run: (): Later => import('./version.js').then((m) => m.version),
});
