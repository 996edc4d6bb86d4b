import type { Db } from './db.js';

/** Empties tables for `POST /__sandbox/reset`. Call inside `store.write`. */
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
}
