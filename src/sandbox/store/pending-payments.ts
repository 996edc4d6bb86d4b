import type { Db } from './db.js';

/**
 * Payments still waiting (result 2) by creation time, for the sweep of what time settles
 * (services/time-settles.ts). Migration 11's partial index holds only the waiting ones, so the sweep reads
 * a handful of rows however many payments the database has.
 */
export class PendingPaymentRepository {
  private readonly dueStmt;

  constructor(db: Db) {
    this.dueStmt = db.prepare("SELECT id FROM payments WHERE json_extract(data, '$.result') = 2 AND created_at <= ? ORDER BY created_at LIMIT ?").pluck();
  }

  /** Ids of waiting payments created at or before `createdBy` (epoch ms), oldest first, at most `limit`. */
  createdBy(createdBy: number, limit = 500): string[] {
    return this.dueStmt.all(createdBy, limit) as string[];
  }
}
