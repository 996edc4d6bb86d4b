import type { Db } from './db.js';

/** Where a page of {@link PendingPaymentRepository.due} ended: the next page starts after it. */
export interface DueCursor {
  dueAt: number;
  key: number;
}

/**
 * Payments time will settle (waiting bank, wallet and 3-D Secure payments, SEPA credits) by the moment
 * each is due, for the sweep of what time settles (services/time-settles.ts). Migration 13's partial index
 * on `time_due_at` holds only those, so a sweep reads what is due in due order, and payments that wait for
 * good (4.xx) are never read.
 */
export class PendingPaymentRepository {
  private readonly dueStmt;
  private readonly anyDueStmt;

  constructor(db: Db) {
    this.dueStmt = db.prepare(
      'SELECT id, time_due_at AS dueAt, key FROM payments WHERE time_due_at IS NOT NULL AND time_due_at <= ? AND (time_due_at, key) > (?, ?) ORDER BY time_due_at, key LIMIT ?',
    );
    this.anyDueStmt = db.prepare('SELECT 1 FROM payments WHERE time_due_at IS NOT NULL AND time_due_at <= ? LIMIT 1').pluck();
  }

  /** Payments due at `now` (epoch ms), earliest first, after `after`, at most `limit`. */
  due(now: number, after: DueCursor | undefined, limit: number): Array<{ id: string } & DueCursor> {
    return this.dueStmt.all(now, after?.dueAt ?? Number.MIN_SAFE_INTEGER, after?.key ?? Number.MIN_SAFE_INTEGER, limit) as Array<{ id: string } & DueCursor>;
  }

  /** Whether any payment is due at `now`. */
  anyDue(now: number): boolean {
    return this.anyDueStmt.get(now) !== undefined;
  }
}
