/** `paylink checkout create|get|list`: checkouts. */
import { command, type Later } from '../command-spec.js';
import { GET_BY_TRACKING_CODE_FLAG, HOSTED_CREATE_FLAGS, flag } from '../flags.js';
import { listCommand } from './list.spec.js';

export const checkoutCreate = command({
  name: 'create',
  description: 'Create a checkout, valid for 30 minutes (asks for missing values on a terminal)',
  options: {
    amount: HOSTED_CREATE_FLAGS.amount,
    currency: HOSTED_CREATE_FLAGS.currency,
    brand: HOSTED_CREATE_FLAGS.brand,
    returnUrl: HOSTED_CREATE_FLAGS.returnUrl,
    trackingCode: HOSTED_CREATE_FLAGS.trackingCode,
    tokenize: HOSTED_CREATE_FLAGS.tokenize,
    authorize: HOSTED_CREATE_FLAGS.authorize,
  },
  needs: ['connection'],
  examples: [
    'paylink checkout create --amount 20 --currency EUR --return-url https://shop.example/return',
    'paylink checkout create --amount 20 --currency EUR --tokenize inquire --return-url http://localhost:3000/done --json',
  ],
  run: (): Later => import('./checkout.js').then((m) => m.checkoutCreate),
});

export const checkoutGet = command({
  name: 'get',
  args: ['[checkoutId]'],
  description: 'Read a checkout and its payments, by id or tracking code',
  options: { trackingCode: GET_BY_TRACKING_CODE_FLAG },
  needs: ['connection'],
  examples: ['paylink checkout get 9b2e...', 'paylink checkout get --tracking-code order-1042 --json'],
  run: (): Later => import('./checkout.js').then((m) => m.checkoutGet),
});

export const checkout = command({
  name: 'checkout',
  description: 'Create and read checkouts (optionally saving the card as a token)',
  examples: [
    'paylink checkout create --amount 20 --currency EUR --tokenize inquire --return-url http://localhost:3000/return',
    'paylink checkout get <checkoutId> --json',
  ],
  commands: [checkoutCreate, checkoutGet, listCommand('checkout', ['PENDING', 'PAID', 'DECLINED', 'DECLINEDBYCUSTOMER', 'TIMEOUT'], 'DECLINED')],
});
