import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

/**
 * Prepared statements by their SQL, prepared once per database: repositories whose SQL depends on the
 * query (a filter, a table name) take their statements from here instead of calling `db.prepare` on
 * every request, which would compile the SQL each time.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
