/** `paylink events list|show|send|resend`: webhook events and their deliveries. */
import { command, type Later } from '../command-spec.js';
import { parseLimit } from '../flag-parsers.js';
import { BUSINESS_FILTER_FLAG, EVENT_TYPE_FLAG, flag } from '../flags.js';

export const eventsList = command({
  name: 'list',
  description: 'The newest events, each with how its deliveries went (FINDING: an endpoint accepted a forged event)',
  options: {
    // Not ID_KIND_FLAGS.payment (a switch saying what an id is): the payment whose events to show.
    payment: flag('--payment <id>', 'only events of this payment'),
    business: BUSINESS_FILTER_FLAG,
    type: EVENT_TYPE_FLAG,
    // Not LIST_FLAGS.limit: no pages here, so no upper bound of a page either.
    limit: flag('-n, --limit <n>', 'how many of the newest', { parse: parseLimit, default: 20 }),
  },
  needs: ['connection', 'admin'],
  examples: ['paylink events list', 'paylink events list --payment 7a9d... --json'],
  run: (): Later => import('./webhooks.js').then((m) => m.eventsListCommand),
});

export const eventsShow = command({
  name: 'show',
  args: ['<eventId>'],
  description: 'An event: its exact body and every attempt of every delivery (time, status, latency, answer)',
  needs: ['connection', 'admin'],
  examples: ['paylink events show 738c171c-d901-4712-8acc-898afc4d7d33'],
  run: (): Later => import('./webhooks.js').then((m) => m.eventsShowCommand),
});

export const eventsSend = command({
  name: 'send',
  description: 'Sign an arbitrary payload exactly as real events are signed and deliver it through the same outbox (recorded, retried, visible)',
  options: {
    type: EVENT_TYPE_FLAG,
    payload: flag('--payload <file>', "JSON file with the event's Payload (a payment envelope), or - for standard input"),
    to: flag('--to <url>', 'deliver to this URL only (signed with the sandbox webhook secret)'),
    // Not BUSINESS_FILTER_FLAG: the business delivered to, --business-id by default, not a filter.
    business: flag('--business <id>', "deliver to this business's endpoints (default: --business-id)"),
  },
  needs: ['connection', 'admin'],
  examples: [
    'paylink events send --type Transaction.Update --payload payload.json --to http://localhost:3000/webhooks',
    'paylink events send --type update --payload payload.json --business shop-1',
    'paylink events show <eventId>        # how each attempt went',
  ],
  run: (): Later => import('./events-send.js').then((m) => m.eventsSendCommand),
});

export const eventsResend = command({
  name: 'resend',
  args: ['<eventId>'],
  description: 'Deliver an event again, to every destination or to one endpoint',
  options: { hook: flag('--hook <hookId>', 'only to this endpoint') },
  needs: ['connection', 'admin'],
  examples: ['paylink events resend 738c171c-...', 'paylink events resend 738c171c-... --hook 2fcc232f-...'],
  run: (): Later => import('./webhooks.js').then((m) => m.eventsResendCommand),
});

export const events = command({
  name: 'events',
  description: 'Webhook events and their deliveries: list, show, resend (docs/webhooks.md)',
  examples: ['paylink events list', 'paylink events show <eventId>', 'paylink events resend <eventId>'],
  commands: [eventsList, eventsShow, eventsSend, eventsResend],
});
