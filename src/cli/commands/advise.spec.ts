/** `paylink advise`: the advisor's findings over the sandbox's traffic. */
import { command, type Later } from '../command-spec.js';
import { BUSINESS_FILTER_FLAG, flag } from '../flags.js';

export const advise = command({
  name: 'advise',
  description: "What your integration gets wrong: the advisor's findings over the sandbox's traffic (docs/advisor.md)",
  options: {
    business: BUSINESS_FILTER_FLAG,
    // Not LIST_FLAGS.since: a duration only, over the request log's traffic rather than created resources.
    since: flag('--since <duration>', 'only traffic of the last 10m, 2h, 1d (default: all the request log holds)'),
    failOn: flag('--fail-on <severity>', 'exit 3 when a finding of this severity or worse exists: warning or error'),
    junit: flag('--junit <file>', 'write a JUnit XML report, one test case per check'),
  },
  needs: ['connection', 'admin'],
  examples: [
    'paylink advise',
    'paylink advise --business shop-1 --since 10m',
    'paylink advise --fail-on error --junit advisor.xml',
    "paylink advise --json | jq '.findings[].message'",
  ],
  run: (): Later => import('./advise.js').then((m) => m.adviseCommand),
});
