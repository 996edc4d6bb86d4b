/** `paylink webhooks add|list|remove`: a business's webhook endpoints. */
import { command, type Later } from '../command-spec.js';
import { BUSINESS_FILTER_FLAG, DELIVERY_FLAGS, flag } from '../flags.js';

export const webhooksAdd = command({
  name: 'add',
  args: ['<url>'],
  description: 'Register an endpoint for the business (--business-id): every payment event is POSTed to it, signed',
  options: {
    events: DELIVERY_FLAGS.events,
    secret: flag('--secret <secret>', "the endpoint's own signing secret (default: the sandbox webhook secret)"),
    fault: DELIVERY_FLAGS.fault,
    delay: DELIVERY_FLAGS.delay,
  },
  needs: ['connection', 'admin'],
  examples: [
    'paylink webhooks add http://localhost:3000/webhooks',
    'paylink --business-id shop-1 webhooks add https://shop.example/hooks --events update',
    'paylink webhooks add http://localhost:3000/webhooks --fault bad-signature   # your app must refuse these',
  ],
  run: (): Later => import('./webhooks.js').then((m) => m.webhooksAddCommand),
});

export const webhooksList = command({
  name: 'list',
  description: 'List the endpoints (secrets as their last four characters)',
  options: { business: BUSINESS_FILTER_FLAG },
  needs: ['connection', 'admin'],
  examples: ['paylink webhooks list', 'paylink webhooks list --business shop-1 --json'],
  run: (): Later => import('./webhooks.js').then((m) => m.webhooksListCommand),
});

export const webhooksRemove = command({
  name: 'remove',
  args: ['<hookId>'],
  description: 'Remove an endpoint; its pending deliveries are cancelled',
  needs: ['connection', 'admin'],
  examples: ['paylink webhooks remove 2fcc232f-fa1d-4c23-97aa-e099dc6409d6'],
  run: (): Later => import('./webhooks.js').then((m) => m.webhooksRemoveCommand),
});

export const webhooks = command({
  name: 'webhooks',
  description: 'Webhook endpoints of a business: add, list, remove (docs/webhooks.md)',
  examples: ['paylink webhooks add http://localhost:3000/webhooks', 'paylink webhooks list', 'paylink webhooks remove <hookId>'],
  commands: [webhooksAdd, webhooksList, webhooksRemove],
});
