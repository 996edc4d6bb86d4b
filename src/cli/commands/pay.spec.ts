/** `paylink pay <id>`: play the customer on a hosted form, bank or wallet page, or 3-D Secure page. */
import { command, type Later } from '../command-spec.js';
import { CARD_FLAGS, flag, ID_KIND_FLAGS } from '../flags.js';
import { OUTCOME_NAMES } from '../../sandbox/domain/outcome-names.js';
import { THREE_DS_APPROVE_CODE } from '../../sandbox/domain/test-cards.js';

export const pay = command({
  name: 'pay',
  args: ['<id>'],
  description:
    'Play the customer: fill in the hosted form of a link or checkout, press a button on the bank or wallet page of an iDEAL, Sofort, Giropay, EPS or PayPal payment, or answer the 3-D Secure page or card form a card payment waits on, over HTTP; follow the redirect, print the status',
  options: {
    card: CARD_FLAGS.card,
    // Not CARD_FLAGS.outcome: on a bank or wallet page it names the button pressed, not a test card.
    outcome: flag('--outcome <name>', `test-card outcome: ${OUTCOME_NAMES.join(', ')}; on a bank or wallet page: approved, cancelled, failed, declined`),
    saveCard: flag('--save-card', 'tick "save card" (checkouts with --tokenize inquire)'),
    savedCard: flag(
      '--saved-card',
      "pay a one-click checkout with the first saved card its page offers (its CVV only: --cvv, default as for its brand's cards)",
    ),
    decline: flag('--decline', 'press the decline button instead of paying'),
    threeDsCode: flag('--3ds-code <code>', `code for a 3-D Secure challenge (${THREE_DS_APPROVE_CODE} approves)`),
    threeDsCancel: flag('--3ds-cancel', 'cancel the 3-D Secure challenge'),
    expiryMonth: CARD_FLAGS.expiryMonth,
    expiryYear: CARD_FLAGS.expiryYear,
    cvv: CARD_FLAGS.cvv,
    holder: CARD_FLAGS.holder,
    ...ID_KIND_FLAGS,
    follow: flag('--no-follow', 'do not GET the returnUrl the page redirects to'),
  },
  needs: ['connection'],
  help: `Without --card or --outcome, asks on a terminal and pays with the approve card otherwise.
A bank or wallet payment (iDEAL, Sofort, Giropay, EPS, PayPal) takes --outcome approved (Approve
payment, 0), cancelled (Cancel, -10), failed (Make it fail, -2) or declined (Decline, -4); default approved.`,
  examples: [
    'paylink pay 3f1c...                              # approve card',
    'paylink pay 3f1c... --outcome declined           # exit 0: a decline was asked for',
    'paylink pay 3f1c... --outcome 3ds --3ds-code 0000',
    'paylink pay 9b2e... --save-card --json | jq -r .payment.token',
    'paylink pay 3f1c... --decline',
    'paylink pay 7a9d... --outcome cancelled          # an iDEAL payment: press Cancel on its bank page',
  ],
  run: (): Later => import('./pay.js').then((m) => m.pay),
});
