/** `paylink status <id>`: one view of a link, checkout or payment. */
import { command, type Later } from '../command-spec.js';
import { ID_KIND_FLAGS } from '../flags.js';

export const status = command({
  name: 'status',
  args: ['<id>'],
  description: 'One view of a link, checkout or payment: lifecycle, attempts, amounts, token',
  options: ID_KIND_FLAGS,
  needs: ['connection'],
  examples: ['paylink status 3f1c...', 'paylink status 9b2e... --json | jq -r .token'],
  run: (): Later => import('./status.js').then((m) => m.status),
});
