import type { Db } from './db.js';

/** Retry-card attempt counters (table `charge_attempts` of migration 2). Call inside `store.write`. */
export class AttemptRepository {
  private readonly countStmt;

  constructor(db: Db) {
    this.countStmt = db
      .prepare(
        'INSERT INTO charge_attempts (attempt_key, attempts) VALUES (?, 1) ON CONFLICT (attempt_key) DO UPDATE SET attempts = attempts + 1 RETURNING attempts',
      )
      .pluck();
  }

  /** Counts one more attempt for `key` and returns the count (1 = first). */
  count(key: string): number {
    return this.countStmt.get(key) as number;
  }
}
