/**
 * `POST /__sandbox/reset`: forgets every link, checkout, payment, token, hosted-form token and the request
 * log, in one write. The clock and the seeded id counter stay (so ids are never handed out twice).
 */
import type { Deps } from './deps.js';

/**
 * Tables the reset keeps: `meta` holds the clock, the id counter and secrets; `webhook_endpoints` and `fault_rules` are
 * configuration, like the secrets. Every other table is
 * resource data (links, checkouts, payments, tokens, form tokens, the log, whatever a later migration
 * adds), so the reset reads the list from the schema instead of naming them.
 */
const KEPT = new Set(['meta', 'webhook_endpoints', 'fault_rules']);

export interface ResetSummary {
  /** Rows deleted per table. */
  deleted: Record<string, number>;
}

/**
 * `POST /__sandbox/reset?businessId=`: deletes one business's links, checkouts, payments, tokens, events
 * and their deliveries, used form tokens, retry counters and logged requests; nothing of any other
 * business changes. Its webhook endpoints stay (configuration, as with the whole reset), and so do the
 * clock and the id counter, which every business shares.
 */
export async function resetBusiness(
  sandbox: Pick<Deps, 'store' | 'log' | 'reset' | 'forgetCaches'>,
  businessId: string,
): Promise<ResetSummary & { businessId: string }> {
  const log = sandbox.log;
  // Logged requests still in memory are written first, so the delete finds the business's rows among them.
  log.flush();
  const deleted = await sandbox.store.write(() => {
    const counts = sandbox.reset.deleteBusiness(businessId, KEPT);
    sandbox.forgetCaches();
    return counts;
  });
  sandbox.forgetCaches();
  log.reload();
  return { businessId, deleted };
}

export async function resetSandbox(sandbox: Pick<Deps, 'store' | 'log' | 'reset' | 'forgetCaches'>): Promise<ResetSummary> {
  const log = sandbox.log;
  const deleted = await sandbox.store.write(() => {
    const counts = sandbox.reset.emptyTables(KEPT, { request_log: () => log.clearSync() });
    sandbox.forgetCaches();
    return counts;
  });
  // Again after the commit: a read between the delete and the commit may have cached a row.
  sandbox.forgetCaches();
  return { deleted };
}
