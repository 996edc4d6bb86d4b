import type { FaultRule } from '../domain/faults.js';
import type { Db } from './db.js';

/**
 * The API fault rules (table `fault_rules`, migration 10): configuration, kept across restarts and resets,
 * in the order they were added. A rule is one JSON document; `seq` orders them and makes the next id.
 */
export class FaultRepository {
  private readonly listStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly clearStmt;
  private readonly lastSeqStmt;

  constructor(db: Db) {
    this.listStmt = db.prepare('SELECT data FROM fault_rules ORDER BY seq').pluck();
    this.insertStmt = db.prepare('INSERT INTO fault_rules (seq, id, data) VALUES (?, ?, ?)');
    this.updateStmt = db.prepare('UPDATE fault_rules SET data = ? WHERE id = ?');
    this.deleteStmt = db.prepare('DELETE FROM fault_rules WHERE id = ?');
    this.clearStmt = db.prepare('DELETE FROM fault_rules');
    this.lastSeqStmt = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'fault_rules'").pluck();
  }

  /** Every rule, oldest first; a row that is not valid JSON is skipped rather than failing the start. */
  list(): FaultRule[] {
    const rules: FaultRule[] = [];
    for (const text of this.listStmt.all() as string[]) {
      try {
        rules.push(JSON.parse(text) as FaultRule);
      } catch {
        // a damaged row: nothing to apply
      }
    }
    return rules;
  }

  /** The sequence number the next rule gets (never reused, even after `clear`). Call inside `store.write`. */
  nextSeq(): number {
    return ((this.lastSeqStmt.get() as number | undefined) ?? 0) + 1;
  }

  insert(seq: number, rule: FaultRule): void {
    this.insertStmt.run(seq, rule.id, JSON.stringify(rule));
  }

  update(rule: FaultRule): void {
    this.updateStmt.run(JSON.stringify(rule), rule.id);
  }

  /** Deletes one rule; false when there was none with that id. */
  remove(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  /** Deletes every rule and answers how many there were. */
  clear(): number {
    return this.clearStmt.run().changes;
  }
}
