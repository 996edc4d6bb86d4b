/** `paylink trigger [scenario]`: make the sandbox produce a situation and its webhooks. */
import { command, type Later } from '../command-spec.js';
import { flag } from '../flags.js';
import { collect } from '../flag-parsers.js';

export const trigger = command({
  name: 'trigger',
  args: ['[scenario]'],
  description: 'Make the sandbox produce a situation and its webhooks through the API, as a merchant and its customer would (--list for the scenarios)',
  options: {
    list: flag('--list', 'describe every scenario'),
    business: flag('--business <id>', 'the business to act as (default: --business-id)'),
    notifyUrl: flag('--notify-url <url>', "where the scenario's webhooks go (body.transaction.notifyUrl of every creation)"),
    amount: flag('--amount <amount>', 'amount of the payment (default 10)'),
    currency: flag('--currency <code>', 'currency (default EUR)'),
    brand: flag('--brand <id|name>', 'card brand of card scenarios, or the bank or wallet brand of bank ones (ideal, sofort, paypal...)'),
    set: flag('--set <path=value>', 'set any field of every request sent: body.transaction.description="Order 7" (repeatable)', { parse: collect }),
  },
  needs: ['connection', 'admin'],
  examples: [
    'paylink trigger --list',
    'paylink trigger payment.approved --notify-url http://localhost:3000/webhooks',
    'paylink trigger refund.partial --amount 25 --currency USD --json',
    'paylink trigger bank.approved --brand sofort',
    'paylink trigger 3ds.approved --brand mastercard --set body.transaction.descriptor=SHOP',
  ],
  run: (): Later => import('./trigger.js').then((m) => m.trigger),
});
