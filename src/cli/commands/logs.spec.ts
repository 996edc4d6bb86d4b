/** `paylink logs`: the sandbox's request log and webhook deliveries. */
import { command, type Later } from '../command-spec.js';
import { parseLimit, parseStatus } from '../flag-parsers.js';
import { BUSINESS_FILTER_FLAG, flag } from '../flags.js';

export const logs = command({
  name: 'logs',
  description: "Show the sandbox's request log and its webhook deliveries (card data masked); --follow streams new ones",
  options: {
    follow: flag('-f, --follow', 'keep printing requests as they arrive'),
    path: flag('--path <text>', 'only requests whose path contains this text'),
    status: flag('--status <code>', 'only this status (402) or class (4xx)', { parse: parseStatus }),
    business: BUSINESS_FILTER_FLAG,
    method: flag('--method <method>', 'only this HTTP method'),
    // Not LIST_FLAGS.limit: the request log is not paged, and shows more by default.
    limit: flag('-n, --limit <n>', 'how many of the newest requests to show first', { parse: parseLimit, default: 50 }),
    bodies: flag('--bodies', 'print request and response bodies too'),
  },
  needs: ['connection', 'admin'],
  examples: [
    'paylink logs',
    'paylink logs --follow --status 4xx',
    'paylink logs --path paymentlinks --business shop-1 --json',
    'paylink logs --path http://   # only webhook deliveries (their path is the receiver URL)',
  ],
  run: (): Later => import('./logs.js').then((m) => m.logsCommand),
});
