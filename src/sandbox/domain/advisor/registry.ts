/**
 * Every advisor check, in the order reports list them. A check is one module under `checks/` exporting its
 * `meta` (id, title, severity, docs link) and one function `check(traffic)`; adding one is adding its file
 * and its line here (and its section in docs/advisor.md).
 */
import type { CheckModule } from './reader.js';
import * as trustsTheRedirect from './checks/trusts-the-redirect.js';
import * as pollsTooFast from './checks/polls-too-fast.js';
import * as reusesTrackingCode from './checks/reuses-tracking-code.js';
import * as ignoresRetry from './checks/ignores-retry.js';
import * as money from './checks/money.js';
import * as tokenizeConsent from './checks/tokenize-consent.js';
import * as webhookSignature from './checks/webhook-signature.js';
import * as staleStatus from './checks/stale-status.js';
import * as doubleChargeAfterGhost from './checks/double-charge-after-ghost.js';
import * as sendsNoCredentials from './checks/sends-no-credentials.js';

export const CHECKS: readonly CheckModule[] = [
  trustsTheRedirect,
  pollsTooFast,
  reusesTrackingCode,
  ignoresRetry,
  money,
  tokenizeConsent,
  webhookSignature,
  staleStatus,
  doubleChargeAfterGhost,
  sendsNoCredentials,
];
