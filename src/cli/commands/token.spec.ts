/** `paylink token create|get|list`: saved card tokens. */
import { command, type Later } from '../command-spec.js';
import { CARD_FLAGS, LIST_FLAGS, flag } from '../flags.js';

export const tokenCreate = command({
  name: 'create',
  description: 'Save a card as a token (the approve test card unless told otherwise)',
  options: {
    card: CARD_FLAGS.card,
    outcome: CARD_FLAGS.outcome,
    // Its own --brand: a token saves a card, so payment create's bank and wallet brands are refused.
    brand: flag('--brand <id|name>', 'card brand id or name (default: from the card number); a token saves a card, so bank and wallet brands are refused'),
    expiryMonth: CARD_FLAGS.expiryMonth,
    expiryYear: CARD_FLAGS.expiryYear,
    holder: CARD_FLAGS.holder,
    // Not token list's --customer (an id to filter by): the customer object kept with the token.
    customer: flag('--customer <json>', 'customer data to keep with the token, as JSON'),
  },
  needs: ['connection'],
  examples: ['paylink token create', 'paylink token create --card 5555555555554444 --json | jq -r .body.token'],
  run: (): Later => import('./token.js').then((m) => m.tokenCreate),
});

export const tokenGet = command({
  name: 'get',
  args: ['<token>'],
  description: 'Read a token',
  needs: ['connection'],
  examples: ['paylink token get 5d0c...'],
  run: (): Later => import('./token.js').then((m) => m.tokenGet),
});

export const tokenList = command({
  name: 'list',
  description:
    'List the newest saved card tokens of the business: card (last four digits), expiry, the outcome it replays, the customer id it is keyed by (sandbox only)',
  options: {
    trackingCode: LIST_FLAGS.trackingCode,
    // Not token create's --customer (the JSON kept with a token): the customer id to filter by.
    customer: flag('--customer <id>', 'only the tokens saved for this customer id (customer.customerId, what a one-click checkout offers)'),
    since: LIST_FLAGS.since,
    limit: LIST_FLAGS.limit,
    page: LIST_FLAGS.page,
  },
  needs: ['connection', 'admin'],
  examples: ['paylink token list', 'paylink token list --customer cust-42', 'paylink --business-id shop-1 token list --since 1h --json'],
  run: (): Later => import('./list.js').then((m) => m.listTokens),
});

export const token = command({
  name: 'token',
  description: 'Saved card tokens: create, read, list',
  examples: ['paylink token create --card 5555555555554444', 'paylink token get <token> --json'],
  commands: [tokenCreate, tokenGet, tokenList],
});
