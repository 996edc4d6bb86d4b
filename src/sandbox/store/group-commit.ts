import type { Db } from './db.js';
import { storageFailure } from './failures.js';

/** Longest a commit waits for more writes to join it while writes keep arriving (see {@link Store.write}). */
const MAX_COMMIT_DELAY_MS = 2;
/** Most writes one commit waits for. */
const MAX_BATCH = 256;
/** Longest a deferred write waits for a commit to ride along with. */
const DEFERRED_MS = 50;
/**
 * After another connection kept the write lock past the busy timeout (db.ts), writes fail at once for this
 * long instead of each blocking the event loop for the whole timeout again: reads go on being answered.
 */
const BUSY_BACKOFF_MS = 1000;
/**
 * Longest the main database file lags behind the WAL: a second after a commit, a passive checkpoint copies
 * the committed pages into it (db.ts keeps SQLite's own automatic checkpoint rare, for throughput). A lost
 * or deleted WAL file then loses a second of writes at most, not everything since start.
 */
const CHECKPOINT_MS = 1000;

/**
 * Group commit. Writes run synchronously inside one open transaction (each write in its own savepoint, so a
 * failing write undoes only itself), and every write's promise resolves after the commit that holds it. A
 * handler awaits its write before answering, so an answered request is always committed (and survives
 * `kill -9`), while concurrent requests share one commit.
 *
 * When to commit: at the end of the event-loop turn of the first write, unless more writes arrived during
 * that turn; then the commit waits turn by turn while writes keep arriving (other requests are in the middle
 * of being handled and will write too), for at most {@link MAX_COMMIT_DELAY_MS} ms or {@link MAX_BATCH}
 * writes. A lone client therefore never waits, and a busy sandbox pays one commit for many requests.
 *
 * Reads on the same connection see the open transaction's writes, so uniqueness checks and lookups stay
 * consistent with writes that are about to be committed.
 */
export class Store {
  private pending: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;
  private batchStartedAt = 0;
  private seenAtLastTurn = 0;
  private readonly rollbackListeners: Array<() => void> = [];
  private readonly commitListeners: Array<() => void> = [];
  private readonly closeListeners: Array<() => void> = [];
  private readonly beforeCloseListeners: Array<() => void> = [];
  private deferredTimer: NodeJS.Timeout | undefined;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private readonly checkpointStmt;
  /** Until when (performance.now()) writes fail at once because the database was busy. */
  private busyUntil = 0;
  /** How deep the current call stack is inside a write's function (see {@link writing}). */
  private depth = 0;
  private readonly beginStmt;
  private readonly commitStmt;
  private readonly savepointStmt;
  private readonly releaseStmt;
  private readonly rollbackToStmt;

  constructor(readonly db: Db) {
    // Prepared once: BEGIN/COMMIT and the per-write savepoint run for every write on the hot path.
    this.beginStmt = db.prepare('BEGIN IMMEDIATE');
    this.commitStmt = db.prepare('COMMIT');
    this.savepointStmt = db.prepare('SAVEPOINT paylink_write');
    this.releaseStmt = db.prepare('RELEASE paylink_write');
    this.rollbackToStmt = db.prepare('ROLLBACK TO paylink_write');
    this.checkpointStmt = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  }

  /** Runs from a timer: a passive checkpoint never waits for a lock and never throws out of here. */
  private readonly checkpoint = (): void => {
    this.checkpointTimer = undefined;
    if (!this.db.open) return;
    // Not inside the batch's open transaction: the checkpoint would only copy up to the last commit anyway.
    if (this.db.inTransaction) {
      this.scheduleCheckpoint();
      return;
    }
    try {
      this.checkpointStmt.run();
    } catch (error) {
      if (storageFailure(error) !== 'busy') console.error('paylink: checkpoint failed:', (error as Error).message);
    }
  };

  private scheduleCheckpoint(): void {
    if (this.checkpointTimer !== undefined) return;
    this.checkpointTimer = setTimeout(this.checkpoint, CHECKPOINT_MS);
    this.checkpointTimer.unref();
  }

  /** Called when a write is rolled back, so read caches drop what they may hold of it. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** Called after each successful commit (the webhook worker sends only what is committed). */
  onCommit(listener: () => void): void {
    this.commitListeners.push(listener);
  }

  /** Called once the database is closed (the lock of store/lock.ts is released then). */
  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /**
   * Called after the last flush and before this connection closes: other connections to the file (the
   * read-only one) close first, so that this one, the last, checkpoints the WAL into the main file and
   * removes it.
   */
  onBeforeClose(listener: () => void): void {
    this.beforeCloseListeners.push(listener);
  }

  /**
   * True while a write's function runs. Repositories read through the write connection then (the write
   * must see its own changes and those of the writes batched before it), and through the read connection
   * otherwise, which sees committed data only.
   */
  get writing(): boolean {
    return this.depth > 0;
  }

  /**
   * Opens the batch's transaction if none is open. When another connection holds the write lock past the
   * busy timeout this throws SQLite's `SQLITE_BUSY`, and for {@link BUSY_BACKOFF_MS} afterwards the same
   * error at once; the app answers it with a retry-able envelope (503).
   */
  private begin(): void {
    if (this.db.inTransaction) return;
    if (this.busyUntil > performance.now()) throw busyError();
    try {
      this.beginStmt.run();
    } catch (error) {
      if (storageFailure(error) === 'busy') this.busyUntil = performance.now() + BUSY_BACKOFF_MS;
      throw error;
    }
  }

  private run<T>(fn: () => T): T {
    this.depth += 1;
    try {
      return fn();
    } finally {
      this.depth -= 1;
    }
  }

  private rolledBack(): void {
    for (const listener of this.rollbackListeners) {
      try {
        listener();
      } catch (error) {
        console.error('paylink: a rollback listener failed:', error);
      }
    }
  }

  /**
   * Runs `fn` as one atomic write and resolves, with its return value, once it is committed. If `fn`
   * throws, its changes are rolled back and the promise rejects with the same error (synchronously
   * thrown errors are rethrown synchronously, so validation errors surface at once).
   */
  write<T>(fn: () => T): Promise<T> {
    this.begin();
    this.savepointStmt.run();
    let value: T;
    try {
      value = this.run(fn);
    } catch (error) {
      // A failed statement may already have ended the whole transaction (SQLITE_FULL and the like).
      if (this.db.inTransaction) {
        this.rollbackToStmt.run();
        this.releaseStmt.run();
      }
      this.rolledBack();
      throw error;
    }
    this.releaseStmt.run();
    return this.afterCommit(value);
  }

  /**
   * Runs `fn` inside a nested savepoint of the current write and returns its value: if `fn` throws, its
   * changes are undone and the error is rethrown, while the rest of the write stays. Call inside {@link write}.
   */
  savepoint<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (error) {
      // Caches must forget what the undone part changed (they keep the rest of the write).
      this.rolledBack();
      throw error;
    }
  }

  /**
   * {@link write} for a `fn` that changes the database with one SQL statement at most (an insert or an
   * update of one document). It needs no savepoint: SQLite undoes a failed statement by itself and keeps
   * the transaction, so the writes batched with it are unaffected. Saves two statements per creation.
   */
  writeStatement<T>(fn: () => T): Promise<T> {
    this.begin();
    let value: T;
    try {
      value = this.run(fn);
    } catch (error) {
      this.rolledBack();
      throw error;
    }
    return this.afterCommit(value);
  }

  /** Resolves with `value` once the commit that holds the write just made has happened. */
  private afterCommit<T>(value: T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ resolve: () => resolve(value), reject });
      this.schedule();
    });
  }

  /**
   * A write that no answer depends on (the request log): it runs at once in the open transaction (opening
   * one), without a savepoint or a promise, and is committed with the next commit, or within
   * {@link DEFERRED_MS} ms when nothing else commits. A read-only request then costs no commit of its own,
   * and readers on this connection see the row at once. A `kill -9` may lose the last deferred writes,
   * never an answered one. A failing deferred write is logged and does not affect the others.
   *
   * Answers false, without running `fn`, when no transaction could be opened (another connection holds the
   * write lock, see {@link begin}): the caller keeps its data and tries again later. It never throws, since
   * its callers run in timers, where an exception would end the process.
   */
  writeDeferred(fn: () => void): boolean {
    try {
      this.begin();
    } catch (error) {
      const kind = storageFailure(error);
      if (kind !== 'busy') console.error('paylink: a deferred write could not start:', (error as Error).message);
      return false;
    }
    try {
      this.run(fn);
    } catch (error) {
      console.error('paylink: a deferred write failed:', error);
    }
    if (!this.scheduled && this.deferredTimer === undefined) {
      this.deferredTimer = setTimeout(() => {
        this.deferredTimer = undefined;
        if (!this.scheduled) this.commit();
      }, DEFERRED_MS);
      this.deferredTimer.unref();
    }
    return true;
  }

  /** Commits now; used before closing and by tests that read the file from another connection. */
  flush(): void {
    this.commit();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.batchStartedAt = performance.now();
    this.seenAtLastTurn = this.pending.length;
    setImmediate(this.turn);
  }

  private readonly turn = (): void => {
    if (!this.scheduled) return;
    const arriving = this.pending.length > this.seenAtLastTurn;
    if (arriving && this.pending.length < MAX_BATCH && performance.now() - this.batchStartedAt < MAX_COMMIT_DELAY_MS) {
      this.seenAtLastTurn = this.pending.length;
      setImmediate(this.turn);
      return;
    }
    this.commit();
  };

  private commit(): void {
    this.scheduled = false;
    if (this.deferredTimer !== undefined) {
      clearTimeout(this.deferredTimer);
      this.deferredTimer = undefined;
    }
    const waiting = this.pending;
    this.pending = [];
    if (!this.db.inTransaction) {
      for (const w of waiting) w.resolve();
      return;
    }
    // Runs from timers and setImmediate: nothing here may throw (an exception would end the process).
    try {
      this.commitStmt.run();
    } catch (error) {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch (rollbackError) {
        console.error('paylink: rolling back a failed commit failed:', (rollbackError as Error).message);
      }
      this.rolledBack();
      for (const w of waiting) w.reject(error);
      return;
    }
    this.scheduleCheckpoint();
    for (const listener of this.commitListeners) {
      try {
        listener();
      } catch (listenerError) {
        console.error('paylink: a commit listener failed:', listenerError);
      }
    }
    for (const w of waiting) w.resolve();
  }

  close(): void {
    if (this.checkpointTimer !== undefined) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    try {
      this.flush();
    } finally {
      for (const listener of this.beforeCloseListeners) listener();
      this.db.close();
      for (const listener of this.closeListeners) listener();
    }
  }
}

function busyError(): Error {
  return Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
}
