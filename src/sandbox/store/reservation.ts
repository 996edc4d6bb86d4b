import type { Store } from './group-commit.js';

/**
 * How many values one reservation covers: a `kill -9` skips at most this many, and the stored counter is
 * written once per half of it instead of once per value.
 * @default 256
 */
export const RESERVATION_BLOCK = 256;

/**
 * Values of a persisted counter (the seeded id counter, `--deterministic`) reserved ahead in the database,
 * so a value is handed out only once a committed reservation covers it: a `kill -9` may skip values, never
 * repeat one. Request codes are handed out by answers that wait for no commit (a GET), so writing the
 * counter in the group commit's open transaction, as before, lost its last advances to a `kill -9` and the
 * restarted sandbox repeated them.
 *
 * Half-way through a block the next one is reserved in the open transaction (committed with the next
 * commit, or within 50 ms); only a value beyond every committed reservation makes the batch commit early
 * and writes its reservation in a transaction of its own before the value is handed out. Inside a write, a
 * reservation joins that write: what the write hands out is revealed only once it has committed.
 */
export class CounterReservation {
  /** Every value up to this one is covered by a committed reservation. */
  private committed: number;
  /** A reservation written in the open transaction, not yet committed (0: none). */
  private pending = 0;

  constructor(
    private readonly store: Store,
    /** Writes the counter's stored value (a meta row) on the write connection. */
    private readonly persist: (value: number) => void,
    /** The stored value at start: every value up to it may have been handed out already. */
    start: number,
    private readonly block = RESERVATION_BLOCK,
  ) {
    this.committed = start;
    store.onCommit(() => {
      if (this.pending > this.committed) this.committed = this.pending;
      this.pending = 0;
    });
    // A rollback may have undone the reservation (its write, or the whole failed commit): trust none.
    store.onRollback(() => {
      this.pending = 0;
    });
  }

  /**
   * Starts over from a stored value (a restored snapshot's): every value up to `start` counts as reserved,
   * since the restored database holds `start` and commits it before any new value goes out.
   */
  restart(start: number): void {
    this.committed = start;
    this.pending = 0;
  }

  /** Called before `value` is handed out; throws (a storage error) if no reservation could be committed. */
  use(value: number): void {
    if (value <= this.committed) {
      if (this.pending === 0 && value > this.committed - this.block / 2) this.reserveSoon(value);
      return;
    }
    const target = value + this.block;
    if (this.store.writing) {
      this.persist(target);
      this.pending = Math.max(this.pending, target);
      return;
    }
    // Commit the batch now (its writers resolve early), then write the reservation on its own.
    if (this.store.db.inTransaction) this.store.flush();
    if (value <= this.committed) return;
    this.persist(target);
    this.committed = target;
  }

  private reserveSoon(value: number): void {
    const target = Math.max(value, this.committed) + this.block;
    if (this.store.writing) {
      this.persist(target);
      this.pending = target;
    } else if (this.store.writeDeferred(() => this.persist(target))) {
      this.pending = target;
    }
  }
}
