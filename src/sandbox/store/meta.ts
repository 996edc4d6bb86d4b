import type { Db } from './db.js';

/**
 * The `meta` table: small JSON values the sandbox keeps between runs (the clock, the seeded id counter,
 * the token fingerprint secret).
 */
export class MetaRepository {
  private readonly getStmt;
  private readonly setStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    this.setStmt = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  }

  get<T>(key: string): T | undefined {
    const value = this.getStmt.get(key) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  /** Writes a value within the current write (call inside `store.write`) or on its own. */
  set(key: string, value: unknown): void {
    this.setStmt.run(key, JSON.stringify(value));
  }
}
