/** `paylink env` and `paylink doctor`: the sandbox at the provider's own addresses (docs/drop-in.md). */
import { command, type Later } from '../command-spec.js';

export const env = command({
  name: 'env',
  description:
    "Print the shell lines that send a process through this folder's sandbox proxy as the provider's hosts (proxy, CA bundle, PHP ini, Chromium options)",
  // Not `connection`: the proxy of the sandbox started in this folder, found by itself (discovery.ts), not a base URL.
  needs: [],
  examples: ['eval "$(paylink env)"', 'paylink env --json | jq -r .chromium.args[]'],
  run: (): Later => import('./env.js').then((m) => m.envCommand),
});

export const doctor = command({
  name: 'doctor',
  description:
    'Check the drop-in setup from this shell: sandbox, proxy, the authority trusted by curl, PHP and Node, provider hosts in the hosts file; says what to fix',
  // Not `connection`: it finds this folder's sandbox itself and reports what is missing instead of failing.
  needs: [],
  examples: ['paylink doctor', 'eval "$(paylink env)" && paylink doctor --json'],
  run: (): Later => import('./doctor.js').then((m) => m.doctorCommand),
});
