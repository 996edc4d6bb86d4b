import type { Db } from './db.js';

/**
 * SEPA credits still waiting (result 1) and when each settles, through the partial index of migration 11,
 * which holds those credits only. Call inside `store.write` (the write connection sees pending writes).
 */
export class WaitingCreditRepository {
  private readonly dueStmt;
  private readonly listStmt;

  constructor(db: Db) {
    const waiting = "json_extract(data, '$.action') = 'CREDIT' AND json_extract(data, '$.result') = 1";
    this.dueStmt = db
      .prepare(`SELECT id FROM payments WHERE ${waiting} AND json_extract(data, '$.settlesAt') <= ? ORDER BY json_extract(data, '$.settlesAt'), key`)
      .pluck();
    this.listStmt = db.prepare(`SELECT id FROM payments WHERE ${waiting} ORDER BY json_extract(data, '$.settlesAt'), key`).pluck();
  }

  /** Ids of the waiting credits due at `now` (settlement time reached), earliest first. */
  dueIds(now: number): string[] {
    return this.dueStmt.all(now) as string[];
  }

  /** Ids of every waiting credit, earliest settlement first. */
  allIds(): string[] {
    return this.listStmt.all() as string[];
  }
}
