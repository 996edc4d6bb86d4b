import { FORM_TARGETS } from '../domain/hosted-form.js';
import type { Db } from './db.js';

/** The table of each record that owns a hosted form. */
const OWNER_TABLE: Record<(typeof FORM_TARGETS)[keyof typeof FORM_TARGETS]['owner'], string> = { link: 'links', checkout: 'checkouts', payment: 'payments' };

/** Empties tables for `POST /__sandbox/reset`, or deletes one business's rows. Call inside `store.write`. */
export class ResetRepository {
  private readonly tablesStmt;

  constructor(private readonly db: Db) {
    this.tablesStmt = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck();
  }

  /**
   * Deletes the rows of every table but those in `kept` and answers how many went per table. The list comes
   * from the schema, so a table a later migration adds is emptied too. A table in `own` is emptied by its
   * function instead (one that also drops what it holds in memory), which answers its count.
   */
  emptyTables(kept: ReadonlySet<string>, own: Readonly<Record<string, () => number>> = {}): Record<string, number> {
    const deleted: Record<string, number> = {};
    const tables = this.tablesStmt.all() as string[];
    // Later migrations may add foreign keys; checked at commit, when every table is empty.
    this.db.pragma('defer_foreign_keys = ON');
    for (const table of tables) {
      if (kept.has(table)) continue;
      const empty = own[table];
      deleted[table] = empty !== undefined ? empty() : this.db.prepare(`DELETE FROM "${table}"`).run().changes;
    }
    return deleted;
  }

  /**
   * Deletes one business's rows and answers how many went per table: every table with a `business_id`
   * column (read from the schema, so a later table is covered too), the webhook deliveries and attempts of
   * its events, the used hosted-form tokens of its links, checkouts and payments (every target of
   * domain/hosted-form.ts), and the retry-card counters of its links, checkouts and tracking codes. Tables
   * in `kept` are left alone. Call inside `store.write`.
   */
  deleteBusiness(businessId: string, kept: ReadonlySet<string>): Record<string, number> {
    const deleted: Record<string, number> = {};
    const tables = this.tablesStmt.all() as string[];
    const has = (table: string) => tables.includes(table) && !kept.has(table);
    const count = (table: string, n: number) => {
      if (n > 0 || deleted[table] === undefined) deleted[table] = (deleted[table] ?? 0) + n;
    };
    // What refers to the business's rows by id goes first, while those rows still say whose they are.
    if (has('form_tokens')) {
      // Every target kind of the hosted forms (domain/hosted-form.ts), each a prefix and its owner's id.
      const targets = Object.values(FORM_TARGETS)
        .filter((target) => has(OWNER_TABLE[target.owner]))
        .map((target) => `SELECT '${target.prefix}' || id FROM ${OWNER_TABLE[target.owner]} WHERE business_id = @b`);
      if (targets.length > 0)
        count('form_tokens', this.db.prepare(`DELETE FROM form_tokens WHERE target_id IN (${targets.join(' UNION ALL ')})`).run({ b: businessId }).changes);
    }
    if (has('charge_attempts')) {
      const owned = [
        has('links') ? "SELECT 'link:' || id FROM links WHERE business_id = @b" : undefined,
        has('checkouts') ? "SELECT 'checkout:' || id FROM checkouts WHERE business_id = @b" : undefined,
      ].filter((s) => s !== undefined);
      const byId = owned.length > 0 ? `attempt_key IN (${owned.join(' UNION ALL ')}) OR ` : '';
      // Tracking-code counters are keyed `tc:<businessId>:<code>` (and `credit:` likewise).
      count(
        'charge_attempts',
        this.db
          .prepare(`DELETE FROM charge_attempts WHERE ${byId}substr(attempt_key, 1, length(@tc)) = @tc OR substr(attempt_key, 1, length(@credit)) = @credit`)
          .run({ b: businessId, tc: `tc:${businessId}:`, credit: `credit:${businessId}:` }).changes,
      );
    }
    if (has('events') && has('deliveries')) {
      const deliveries = 'SELECT d.id FROM deliveries d JOIN events e ON e.seq = d.event_seq WHERE e.business_id = ?';
      if (has('delivery_attempts'))
        count('delivery_attempts', this.db.prepare(`DELETE FROM delivery_attempts WHERE delivery_id IN (${deliveries})`).run(businessId).changes);
      count('deliveries', this.db.prepare(`DELETE FROM deliveries WHERE event_seq IN (SELECT seq FROM events WHERE business_id = ?)`).run(businessId).changes);
    }
    for (const table of tables) {
      if (kept.has(table)) continue;
      const columns = this.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[];
      if (!columns.includes('business_id')) continue;
      count(table, this.db.prepare(`DELETE FROM "${table}" WHERE business_id = ?`).run(businessId).changes);
    }
    return deleted;
  }
}
