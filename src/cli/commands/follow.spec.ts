/** `paylink follow <id>`: the returnUrl redirect of a completed link or checkout, again. */
import { command, type Later } from '../command-spec.js';
import { flag } from '../flags.js';

export const follow = command({
  name: 'follow',
  args: ['<id>'],
  description: "Follow the returnUrl redirect of a completed link or checkout again (GET the merchant's page)",
  // Not HOSTED_CREATE_FLAGS.returnUrl: the one a link or checkout was created with, for when this folder has no record of it.
  options: { returnUrl: flag('--return-url <url>', 'the returnUrl given at creation (needed when it was created from another folder or tool)') },
  needs: ['connection'],
  examples: ['paylink follow 3f1c...', 'paylink follow 9b2e... --return-url http://localhost:3000/done --json'],
  run: (): Later => import('./follow.js').then((m) => m.follow),
});
