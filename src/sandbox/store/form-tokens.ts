import type { Db } from './db.js';

/** A used one-time form token as stored (table `form_tokens`); fresh tokens are not stored (services/submission.ts). */
export interface FormTokenRow {
  /** What the token is for (domain/hosted-form.ts, `formTarget`): `link:<id>`, `checkout:<id>`, `payment:<id>`, `3ds:<paymentId>`. */
  targetId: string;
  /** When it was used. */
  usedAt: number | null;
  /** Where its use led (stored as JSON), replayed for a second post of the same form. */
  outcome: unknown;
}

/**
 * The used one-time tokens of hosted forms (table `form_tokens` of migration 1, `created_at` holding the
 * token's issue time). Call inside `store.write`.
 */
export class FormTokenRepository {
  private readonly insertStmt;
  private readonly pruneStmt;
  private readonly findStmt;
  private readonly outcomeStmt;
  private readonly countStmt;
  /** Tokens recorded since the expired ones were last deleted. */
  private inserted = 0;

  constructor(db: Db) {
    this.insertStmt = db.prepare('INSERT INTO form_tokens (token, target_id, created_at, used_at) VALUES (?, ?, ?, ?)');
    this.pruneStmt = db.prepare('DELETE FROM form_tokens WHERE created_at < ?');
    this.findStmt = db.prepare('SELECT target_id, used_at, outcome FROM form_tokens WHERE token = ?');
    this.outcomeStmt = db.prepare('UPDATE form_tokens SET outcome = ? WHERE token = ?');
    this.countStmt = db.prepare('SELECT count(*) FROM form_tokens').pluck();
  }

  /** How many used tokens are kept (each at most a day: services/submission.ts prunes older ones). */
  count(): number {
    return this.countStmt.get() as number;
  }

  /** Records a token as used at `usedAt`; `issuedAt` is when the page that carried it was shown. */
  insertUsed(token: string, targetId: string, issuedAt: number, usedAt: number): void {
    this.insertStmt.run(token, targetId, issuedAt, usedAt);
    this.inserted++;
  }

  /** How many tokens were recorded since {@link deleteCreatedBefore} last ran (so callers prune now and then). */
  usedSinceDelete(): number {
    return this.inserted;
  }

  /** Deletes the tokens issued before `time`. */
  deleteCreatedBefore(time: number): void {
    this.pruneStmt.run(time);
    this.inserted = 0;
  }

  find(token: string): FormTokenRow | undefined {
    const row = this.findStmt.get(token) as { target_id: string; used_at: number | null; outcome: string | null } | undefined;
    if (row === undefined) return undefined;
    return { targetId: row.target_id, usedAt: row.used_at, outcome: row.outcome ? (JSON.parse(row.outcome) as unknown) : undefined };
  }

  recordOutcome(token: string, outcome: unknown): void {
    this.outcomeStmt.run(JSON.stringify(outcome), token);
  }
}
