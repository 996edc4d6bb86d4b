/** `paylink link create|get|cancel|list`: payment links. */
import { command, type Later } from '../command-spec.js';
import { GET_BY_TRACKING_CODE_FLAG, HOSTED_CREATE_FLAGS, flag } from '../flags.js';
import { listCommand } from './list.spec.js';

export const linkCreate = command({
  name: 'create',
  description: 'Create a payment link (asks for missing values on a terminal)',
  options: {
    amount: HOSTED_CREATE_FLAGS.amount,
    currency: HOSTED_CREATE_FLAGS.currency,
    brand: HOSTED_CREATE_FLAGS.brand,
    returnUrl: HOSTED_CREATE_FLAGS.returnUrl,
    trackingCode: HOSTED_CREATE_FLAGS.trackingCode,
    tokenize: HOSTED_CREATE_FLAGS.tokenize,
    duration: flag('--duration <duration>', 'validity: P<n>D, PT<n>H or PT<n>M', { default: 'P1D' }),
    threeDs: flag('--3ds', 'always ask for 3-D Secure on approved cards'),
    authorize: HOSTED_CREATE_FLAGS.authorize,
  },
  needs: ['connection'],
  examples: [
    'paylink link create --amount 12.50 --currency EUR --return-url https://shop.example/return',
    'paylink link create --amount 5 --currency EUR --brand visa,mastercard --duration PT10M --return-url http://localhost:3000/done',
    'paylink link create --amount 20 --currency EUR --return-url https://shop.example/r --3ds --json | jq -r .body.link.linkId',
  ],
  run: (): Later => import('./link.js').then((m) => m.linkCreate),
});

export const linkGet = command({
  name: 'get',
  args: ['[linkId]'],
  description: 'Read a payment link and its payments, by id or tracking code',
  options: { trackingCode: GET_BY_TRACKING_CODE_FLAG },
  needs: ['connection'],
  examples: ['paylink link get 3f1c...', 'paylink link get --tracking-code order-1042 --json'],
  run: (): Later => import('./link.js').then((m) => m.linkGet),
});

export const linkCancel = command({
  name: 'cancel',
  args: ['<linkId>'],
  description: 'Cancel a READY or PENDING payment link',
  needs: ['connection'],
  examples: ['paylink link cancel 3f1c...'],
  run: (): Later => import('./link.js').then((m) => m.linkCancel),
});

export const link = command({
  name: 'link',
  description: 'Create, read and cancel payment links',
  examples: [
    'paylink link create --amount 12.50 --currency EUR --return-url http://localhost:3000/return',
    'paylink link get <linkId>',
    'paylink link cancel <linkId>',
  ],
  commands: [
    linkCreate,
    linkGet,
    linkCancel,
    listCommand('link', ['READY', 'PENDING', 'PAID', 'DECLINED', 'DECLINEDBYCUSTOMER', 'CANCELLED', 'EXPIRED'], 'PAID'),
  ],
});
