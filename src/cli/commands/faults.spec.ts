/** `paylink faults add|list|remove|clear`: make the sandbox's API fail on purpose. */
import { command, type Later } from '../command-spec.js';
import { BUSINESS_FILTER_FLAG, flag } from '../flags.js';
import { API_BASE } from '../../sandbox/domain/routes.js';

export const faultsAdd = command({
  name: 'add',
  description: 'Add a rule: requests it matches are faulted (the first matching rule that fires applies)',
  // Its --method, --path, --brand, --amount and --status are what a rule matches or answers, in the rule's
  // own terms (a path pattern, an amount range, a status kind): not the filters of `logs` nor the values of
  // `payment create`, though they share the names.
  options: {
    kind: flag(
      '--kind <kind>',
      'status (answer an error, do nothing), latency (answer late), timeout (hold, no answer, do nothing), reset (drop the connection, do nothing), ghost (do it, then timeout or reset)',
    ),
    method: flag('--method <method>', 'only GET or POST (default: any)'),
    path: flag('--path <pattern>', `path under ${API_BASE}/: payments, payments/*, payments/*/refund, ** (default: the whole API)`),
    business: BUSINESS_FILTER_FLAG,
    brand: flag('--brand <id|name>', "only requests of this brand (transaction.brandId, or the card number's brand)"),
    amount: flag('--amount <amount|range>', 'only this amount (13.37) or range (10..20, 10.., ..20)'),
    status: flag('--status <code>', 'status kind: 401, 403, 429, 500, 502, 503 or 504 (default 503)'),
    latency: flag('--latency <ms|range>', 'latency kind: 300, 300ms, 2s, or a range 200-800'),
    hold: flag('--hold <duration>', 'timeout and ghost kinds: how long the connection is held at most (default 60s, at most 300s)'),
    as: flag('--as <mode>', 'ghost kind: timeout (default) or reset'),
    probability: flag('--probability <p>', 'fault each matching request with this probability (0.3); default always'),
    times: flag('--times <n>', 'fault only the next n matching requests'),
    includePaylink: flag('--include-paylink', "apply to requests of paylink's own tools too (they are spared otherwise)"),
  },
  needs: ['connection', 'admin'],
  examples: [
    'paylink faults add --method POST --path payments --kind ghost --times 1     # the payment is made, the answer never comes',
    'paylink faults add --kind status --status 503 --probability 0.3              # 3 requests in 10 answer 503 / -3 Failed, retry',
    "paylink faults add --path 'payments/*' --method GET --kind latency --latency 200-800",
    'paylink faults add --method POST --path payments --kind timeout --hold 30s --business shop-1',
    'paylink faults add --method POST --path payments --kind reset --brand visa --amount 13.37',
  ],
  run: (): Later => import('./faults.js').then((m) => m.faultsAddCommand),
});

export const faultsList = command({
  name: 'list',
  description: 'List the rules in the order they apply, with how often each fired',
  needs: ['connection', 'admin'],
  examples: ['paylink faults list', 'paylink faults list --json'],
  run: (): Later => import('./faults.js').then((m) => m.faultsListCommand),
});

export const faultsRemove = command({
  name: 'remove',
  args: ['<id>'],
  description: 'Remove a rule',
  needs: ['connection', 'admin'],
  examples: ['paylink faults remove f1'],
  run: (): Later => import('./faults.js').then((m) => m.faultsRemoveCommand),
});

export const faultsClear = command({
  name: 'clear',
  description: 'Remove every rule',
  needs: ['connection', 'admin'],
  examples: ['paylink faults clear'],
  run: (): Later => import('./faults.js').then((m) => m.faultsClearCommand),
});

export const faults = command({
  name: 'faults',
  description: "Make the sandbox's API fail on purpose: slow, failing, silent, or taking the payment and timing out (docs/faults.md)",
  examples: [
    'paylink faults add --method POST --path payments --kind ghost --times 1',
    'paylink faults list',
    'paylink faults remove f1',
    'paylink faults clear',
  ],
  commands: [faultsAdd, faultsList, faultsRemove, faultsClear],
});
