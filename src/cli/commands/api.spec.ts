/** `paylink api <method> <path>`: any request to the API, with the connection filled in. */
import { command, type Later } from '../command-spec.js';
import { flag } from '../flags.js';
import { collect } from '../flag-parsers.js';
import { API_BASE } from '../../sandbox/domain/routes.js';

export const api = command({
  name: 'api',
  args: ['<method>', '<path>'],
  description: 'Send any request to the API (GET or POST) with the base URL, credentials and business id filled in, and print the answer',
  options: {
    data: flag(
      '-d, --data <json|@file|path=value>',
      'POST body: JSON, @file.json, or @- for standard input (header.businessId is filled in unless given); repeatable path=value sets one field (body.transaction.amount=10; numbers and true/false typed), for a GET one query parameter',
      { parse: collect },
    ),
  },
  needs: ['connection'],
  help: `The path is under ${API_BASE}/ unless it starts with /gateway/. A GET gets businessId in its query and a
POST header.businessId in its body, unless given. -d path=value sets one field of the POST's body (dots
nest: body.transaction.amount=10; 10, 12.5, true and false are typed as JSON, "10" in quotes stays text),
on top of a --data document if one is given; for a GET, one query parameter. Exit 0 for a 2xx answer, 3
otherwise (the answer is printed either way).`,
  examples: [
    'paylink api GET payments/7a9d...',
    "paylink api GET 'payments?trackingCode=order-1001'",
    `paylink api POST payments --data '{"action":"payment","body":{"transaction":{"amount":10,"currencyCode":"EUR","trackingCode":"order-0001"},"card":{"number":"4111111111111111","cvv":"123","expiryMonth":"12","expiryYear":"2030","holderName":"Ada"}}}'`,
    `paylink api POST payments/7a9d.../refund --data '{"body":{"transaction":{"amount":2}}}'`,
    'paylink api POST payments/7a9d.../refund -d body.transaction.amount=2',
    'paylink api GET payments -d trackingCode=order-1001',
    'paylink api POST paymentlinks --data @link.json --json | jq -r .body.link.linkId',
  ],
  run: (): Later => import('./api.js').then((m) => m.api),
});
