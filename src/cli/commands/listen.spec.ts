/** `paylink listen`: forward the sandbox's webhook events to a local URL. */
import { command, type Later } from '../command-spec.js';
import { DELIVERY_FLAGS, flag } from '../flags.js';

export const listen = command({
  name: 'listen',
  description: "Forward the sandbox's webhook events, signed, to a local URL; one line per delivery (Ctrl-C stops)",
  options: {
    forwardTo: flag('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks', { required: true }),
    events: DELIVERY_FLAGS.events,
    // Not BUSINESS_FILTER_FLAG: without it, the --business-id given (when one is) decides.
    business: flag('--business <id>', 'only events of this business id (default: the --business-id given, else every business)'),
    fault: DELIVERY_FLAGS.fault,
    delay: DELIVERY_FLAGS.delay,
    header: flag('--header <name>', "signature header name (default: the sandbox's)"),
    since: flag(
      '--since <time|eventId>',
      'replay from an event (it and every later one) or a time (10m, 2030-01-01T12:00:00Z) instead of resuming from the saved cursor',
    ),
  },
  needs: ['connection', 'admin'],
  help: `Resumes where the last run for the same --forward-to stopped (its cursor is kept in .paylink/listen/),
retries a failed forward (0.25, 0.5, 1, 2, 4, 8 s) before moving on, and reconnects when the sandbox
goes away. At least once, in order: make your handler idempotent on the event's Id. Prints the signing
secret the forwarded deliveries are signed with when it starts (on stderr with --json).`,
  examples: [
    'paylink listen --forward-to http://localhost:3000/webhooks',
    'paylink listen --forward-to http://localhost:3000/webhooks --since 10m',
    'paylink listen --forward-to http://localhost:3000/webhooks --events update --json',
    'paylink listen --forward-to http://localhost:3000/webhooks --fault bad-signature',
    'paylink listen --base-url https://sandbox.team.example --admin-token $TOKEN --forward-to http://localhost:3000/webhooks',
  ],
  run: (): Later => import('./listen.js').then((m) => m.listenCommand),
});
