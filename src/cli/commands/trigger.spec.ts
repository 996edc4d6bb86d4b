/** `paylink trigger [scenario]`: make the sandbox produce a situation and its webhooks. */
import { command, type Later } from '../command-spec.js';
import { CREATE_FLAGS, flag } from '../flags.js';
import { SCENARIO_PAYMENT_DEFAULTS } from '../defaults.js';
import { collect } from '../flag-parsers.js';

export const trigger = command({
  name: 'trigger',
  args: ['[scenario]'],
  description: 'Make the sandbox produce a situation and its webhooks through the API, as a merchant and its customer would (--list for the scenarios)',
  options: {
    list: flag('--list', 'describe every scenario'),
    // Not BUSINESS_FILTER_FLAG: the business acted as, --business-id by default, not a filter.
    business: flag('--business <id>', 'the business to act as (default: --business-id)'),
    notifyUrl: flag('--notify-url <url>', "where the scenario's webhooks go (body.transaction.notifyUrl of every creation)"),
    amount: CREATE_FLAGS.amount,
    currency: CREATE_FLAGS.currency,
    // Its own --brand: a card brand or a bank or wallet one, by the kind of scenario.
    brand: flag('--brand <id|name>', 'card brand of card scenarios, or the bank or wallet brand of bank ones (ideal, sofort, paypal...)'),
    set: flag('--set <path=value>', 'set any field of every request sent: body.transaction.description="Order 7" (repeatable)', { parse: collect }),
  },
  needs: ['connection', 'admin'],
  help: `A scenario's payments are of ${SCENARIO_PAYMENT_DEFAULTS.amount} ${SCENARIO_PAYMENT_DEFAULTS.currency} unless --amount or --currency say otherwise.`,
  examples: [
    'paylink trigger --list',
    'paylink trigger payment.approved --notify-url http://localhost:3000/webhooks',
    'paylink trigger refund.partial --amount 25 --currency USD --json',
    'paylink trigger bank.approved --brand sofort',
    'paylink trigger 3ds.approved --brand mastercard --set body.transaction.descriptor=SHOP',
  ],
  run: (): Later => import('./trigger.js').then((m) => m.trigger),
});
