/**
 * `POST /__sandbox/reset`: forgets every link, checkout, payment, token, hosted-form token and the request
 * log, in one write. The clock and the seeded id counter stay (so ids are never handed out twice).
 */
import type { Sandbox } from '../context.js';
import { requestLogOf } from './request-log.js';

/**
 * Tables the reset keeps: `meta` holds the clock, the id counter and secrets. Every other table is
 * resource data (links, checkouts, payments, tokens, form tokens, the log, whatever a later migration
 * adds), so the reset reads the list from the schema instead of naming them.
 */
const KEPT = new Set(['meta']);

export interface ResetSummary {
  /** Rows deleted per table. */
  deleted: Record<string, number>;
}

export async function resetSandbox(sandbox: Sandbox): Promise<ResetSummary> {
  const deleted: Record<string, number> = {};
  await sandbox.store.write(() => {
    const tables = sandbox.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    // Later migrations may add foreign keys; checked at commit, when every table is empty.
    sandbox.db.pragma('defer_foreign_keys = ON');
    for (const table of tables) {
      if (KEPT.has(table)) continue;
      if (table === 'request_log') deleted[table] = requestLogOf(sandbox).clearSync();
      else deleted[table] = sandbox.db.prepare(`DELETE FROM "${table}"`).run().changes;
    }
    sandbox.forgetCaches();
  });
  // Again after the commit: a read between the delete and the commit may have cached a row.
  sandbox.forgetCaches();
  return { deleted };
}
