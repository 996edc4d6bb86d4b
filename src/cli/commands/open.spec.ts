/** `paylink open <id>`: an id's page in the browser. */
import { command, type Later } from '../command-spec.js';
import { flag } from '../flags.js';

export const open = command({
  name: 'open',
  args: ['<id>'],
  description:
    "Open an id's page in the default browser (or print its URL): a link's or checkout's hosted page, the page a pending payment waits on (card form, bank, wallet, 3-D Secure) else its dashboard page, a token's dashboard page, or the dashboard (`open dashboard`)",
  options: { print: flag('--print', 'only print the URL') },
  needs: ['connection', 'admin'],
  examples: ['paylink open 3f1c...', 'paylink open 3f1c... --print', 'paylink open dashboard'],
  run: (): Later => import('./open.js').then((m) => m.openPage),
});
