/** `paylink payment create|get|capture|cancel|refund|list`: direct payments. */
import { command, type Later } from '../command-spec.js';
import { CARD_FLAGS, CREATE_FLAGS, flag, GET_BY_TRACKING_CODE_FLAG } from '../flags.js';
import { listCommand } from './list.spec.js';

export const paymentCreate = command({
  name: 'create',
  description:
    'Create a payment with a card or a token (the approve test card unless told otherwise), or by a bank or wallet brand (iDEAL, Sofort, Giropay, EPS, PayPal) that the customer completes on its page',
  options: {
    amount: CREATE_FLAGS.amount,
    currency: CREATE_FLAGS.currency,
    trackingCode: CREATE_FLAGS.trackingCode,
    card: CARD_FLAGS.card,
    outcome: CARD_FLAGS.outcome,
    token: flag('--token <token>', 'pay with a saved card token instead of a card'),
    // Its own --brand: one brand, bank and wallet ones too (token create's takes card brands only).
    brand: flag('--brand <id|name>', 'brand id (default: from the card number); ideal, sofort, giropay, eps, paypal or afterpay take no card'),
    // Its own --return-url: only bank and wallet payments have a page to come back from.
    returnUrl: flag('--return-url <url>', 'bank and wallet brands: where the bank or wallet page sends the customer (returnUrl?id=<paymentId>)'),
    issuer: flag('--issuer <id>', "iDEAL: the customer's bank (body.bank.issuerId)"),
    expiryMonth: CARD_FLAGS.expiryMonth,
    expiryYear: CARD_FLAGS.expiryYear,
    cvv: CARD_FLAGS.cvv,
    holder: CARD_FLAGS.holder,
    authorize: CREATE_FLAGS.authorize,
    // A switch, not the hosted form's `--tokenize <mode>`: a direct payment has no customer to ask.
    tokenize: flag('--tokenize', 'save the card as a token'),
  },
  needs: ['connection'],
  examples: [
    'paylink payment create --amount 10 --currency EUR',
    'paylink payment create --amount 10 --currency EUR --outcome declined        # exit 0',
    'paylink payment create --amount 10 --currency EUR --authorize --json | jq -r .body.transaction.id',
    'paylink payment create --amount 10 --currency EUR --token 5d0c...',
    'paylink payment create --amount 10 --currency EUR --brand ideal --return-url http://localhost:3000/back',
    'paylink pay <paymentId> --outcome approved                                  # press Approve on its bank page',
  ],
  run: (): Later => import('./payment.js').then((m) => m.paymentCreate),
});

export const paymentGet = command({
  name: 'get',
  args: ['[paymentId]'],
  description: 'Read a payment by id, or the payments of a tracking code',
  options: { trackingCode: GET_BY_TRACKING_CODE_FLAG },
  needs: ['connection'],
  examples: ['paylink payment get 7a9d...', 'paylink payment get --tracking-code order-1042 --json'],
  run: (): Later => import('./payment.js').then((m) => m.paymentGet),
});

/** `capture` and `refund`: the whole payment, or `--amount` of it. */
function partial(verb: 'capture' | 'refund', description: string) {
  return command({
    name: verb,
    args: ['<paymentId>'],
    description,
    // Not CREATE_FLAGS.amount: a part of the payment's amount, all of it by default.
    options: { amount: flag('--amount <amount>', `amount to ${verb} (default: all)`) },
    needs: ['connection'],
    examples: [`paylink payment ${verb} 7a9d...`, `paylink payment ${verb} 7a9d... --amount 5`],
    run: (): Later => import('./payment.js').then((m) => m.followUpOf(verb)),
  });
}

export const paymentCapture = partial('capture', 'Capture an authorization');
export const paymentRefund = partial('refund', 'Refund a payment or capture');

export const paymentCancel = command({
  name: 'cancel',
  args: ['<paymentId>'],
  description: 'Cancel (void) an authorization',
  needs: ['connection'],
  examples: ['paylink payment cancel 7a9d...'],
  run: (): Later => import('./payment.js').then((m) => m.followUpOf('cancel')),
});

/** A payment's state in the lists: its result's description in capital letters only (the result table of docs/api.md). */
const PAYMENT_STATES = [
  'OK',
  'SUCCESS',
  'COMPLETED',
  'PENDING',
  'TIMEOUT',
  'FAILED',
  'FAILEDRETRY',
  'DECLINED',
  'DECLINEDRETRY',
  'SECURITYERROR',
  'INTERNALSERVERERROR',
  'BUSINESSRULEERROR',
  'FRAUD',
  'CUSTOMERPROCESSINGERROR',
  'REFERRALS',
];

export const payment = command({
  name: 'payment',
  description: 'Direct payments: create, read, capture, cancel, refund',
  examples: [
    'paylink payment create --amount 10 --currency EUR --authorize',
    'paylink payment capture <paymentId> --amount 4',
    'paylink payment refund <paymentId>',
  ],
  commands: [paymentCreate, paymentGet, paymentCapture, paymentCancel, paymentRefund, listCommand('payment', PAYMENT_STATES, 'DECLINED')],
});
