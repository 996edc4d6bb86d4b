/** `paylink wait`: until a sandbox answers. */
import { command, type Later } from '../command-spec.js';

export const wait = command({
  name: 'wait',
  description: "Wait until a sandbox answers (this folder's, or --base-url): exit 0 then, 4 after --timeout (default 30s)",
  // Not `connection`: waiting for the sandbox to appear is the command itself.
  needs: ['admin'],
  help: 'Here --timeout is the whole wait: 30s, 500ms, 2m or seconds.',
  examples: ['paylink sandbox --db :memory: & paylink wait', 'paylink wait --timeout 60s --base-url http://127.0.0.1:19000'],
  run: (): Later => import('./wait.js').then((m) => m.waitCommand),
});
