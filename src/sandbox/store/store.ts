import { timeKeyCeiling, timeKeyOf } from '../domain/ids.js';
import type { Db } from './db.js';

/** Longest a commit waits for more writes to join it while writes keep arriving (see {@link Store.write}). */
const MAX_COMMIT_DELAY_MS = 2;
/** Most writes one commit waits for. */
const MAX_BATCH = 256;
/** Longest a deferred write waits for a commit to ride along with. */
const DEFERRED_MS = 50;

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
  private deferredTimer: NodeJS.Timeout | undefined;
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
  }

  /** Called when a write is rolled back, so read caches drop what they may hold of it. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /**
   * Runs `fn` as one atomic write and resolves, with its return value, once it is committed. If `fn`
   * throws, its changes are rolled back and the promise rejects with the same error (synchronously
   * thrown errors are rethrown synchronously, so validation errors surface at once).
   */
  write<T>(fn: () => T): Promise<T> {
    if (!this.db.inTransaction) this.beginStmt.run();
    this.savepointStmt.run();
    let value: T;
    try {
      value = fn();
    } catch (error) {
      // A failed statement may already have ended the whole transaction (SQLITE_FULL and the like).
      if (this.db.inTransaction) {
        this.rollbackToStmt.run();
        this.releaseStmt.run();
      }
      for (const listener of this.rollbackListeners) listener();
      throw error;
    }
    this.releaseStmt.run();
    return this.afterCommit(value);
  }

  /**
   * {@link write} for a `fn` that changes the database with one SQL statement at most (an insert or an
   * update of one document). It needs no savepoint: SQLite undoes a failed statement by itself and keeps
   * the transaction, so the writes batched with it are unaffected. Saves two statements per creation.
   */
  writeStatement<T>(fn: () => T): Promise<T> {
    if (!this.db.inTransaction) this.beginStmt.run();
    let value: T;
    try {
      value = fn();
    } catch (error) {
      for (const listener of this.rollbackListeners) listener();
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
   */
  writeDeferred(fn: () => void): void {
    if (!this.db.inTransaction) this.beginStmt.run();
    try {
      fn();
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
    try {
      this.commitStmt.run();
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      for (const listener of this.rollbackListeners) listener();
      for (const w of waiting) w.reject(error);
      return;
    }
    for (const w of waiting) w.resolve();
  }

  close(): void {
    this.flush();
    this.db.close();
  }
}

/** A bounded map that forgets the least recently used entry; reads of hot resources skip SQLite. */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }
}

/** What every stored resource has: an id, its business and an optional tracking code. */
export interface StoredDocument {
  id: string;
  businessId: string;
  trackingCode?: string | undefined;
  createdAt: number;
}

export interface DocumentTableOptions<T> {
  table: 'links' | 'checkouts' | 'payments' | 'tokens';
  /** Extra columns beyond id, business_id, tracking_code, created_at, data, and how to read them from a document. */
  columns?: Record<string, (doc: T) => string | number | null>;
  /** Documents kept in memory for reads. */
  cacheSize?: number;
}

/**
 * A table of JSON documents with prepared statements and a read cache kept consistent on every write
 * (the cache is written only after the SQL statement succeeded inside the caller's transaction; a rolled
 * back transaction clears it, see {@link DocumentTable.forgetAll}).
 *
 * Rows are keyed by an INTEGER rowid taken from the id ({@link timeKeyOf}), so a creation writes the table
 * and its tracking-code index but no index on the id text (measured: about 3% less server CPU per creation
 * and about 3% more creations per second, at 10 connections).
 * Ids that give no usable key go in with a rowid of SQLite's choosing and `legacy = 1`, and are found
 * through a partial unique index on id that holds those rows only.
 */
export class DocumentTable<T extends StoredDocument> {
  private readonly cache: LruCache<string, T>;
  private readonly insertStmt;
  private readonly updateByKeyStmt;
  private readonly updateLegacyStmt;
  private readonly byKeyStmt;
  private readonly byLegacyIdStmt;
  private readonly byTrackingStmt;
  private readonly extra: Array<[string, (doc: T) => string | number | null]>;
  /** The largest rowid this table has handed out (or that was there at start). */
  private lastKey: number;

  constructor(
    private readonly db: Db,
    private readonly options: DocumentTableOptions<T>,
  ) {
    // Bounded so a long load test keeps the process small (RSS target < 100 MB); misses cost one indexed select.
    this.cache = new LruCache(options.cacheSize ?? 2_000);
    this.extra = Object.entries(options.columns ?? {});
    const names = ['key', 'legacy', 'id', 'business_id', 'tracking_code', 'created_at', 'data', ...this.extra.map(([n]) => n)];
    const t = options.table;
    this.insertStmt = db.prepare(`INSERT INTO ${t} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
    const set = `SET data = ?${this.extra.map(([n]) => `, ${n} = ?`).join('')}`;
    this.updateByKeyStmt = db.prepare(`UPDATE ${t} ${set} WHERE key = ? AND id = ?`);
    this.updateLegacyStmt = db.prepare(`UPDATE ${t} ${set} WHERE id = ? AND legacy = 1`);
    this.byKeyStmt = db.prepare(`SELECT data FROM ${t} WHERE key = ? AND id = ?`).pluck();
    this.byLegacyIdStmt = db.prepare(`SELECT data FROM ${t} WHERE id = ? AND legacy = 1`).pluck();
    this.byTrackingStmt = db.prepare(
      `SELECT data FROM ${t} WHERE business_id = ? AND tracking_code = ? ORDER BY created_at, rowid`,
    ).pluck();
    this.lastKey = (db.prepare(`SELECT max(key) FROM ${t}`).pluck().get() as number | null) ?? 0;
  }

  insert(doc: T): void {
    const row = [doc.id, doc.businessId, doc.trackingCode ?? null, doc.createdAt, JSON.stringify(doc), ...this.extra.map(([, read]) => read(doc))];
    // The id's own key when it is new and ascending, so rowids stay in creation order (listings rely on it)
    // and a clock that went back, or a seeded id, never collides with a stored row; else SQLite picks one.
    let key = timeKeyOf(doc.id);
    if (key !== undefined && (key <= this.lastKey || key > timeKeyCeiling(Date.now() + 60_000))) key = undefined;
    let info;
    try {
      info = this.insertStmt.run(key ?? null, key === undefined ? 1 : 0, ...row);
    } catch (error) {
      // Another connection took this key (two sandboxes on one file): SQLite has undone the statement.
      if (key === undefined || (error as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
      info = this.insertStmt.run(null, 1, ...row);
    }
    this.lastKey = Math.max(this.lastKey, Number(info.lastInsertRowid));
    // Not cached here: a new document enters the cache on its first read. Caching every creation kept each
    // one alive until evicted, long enough for V8 to promote it to the old generation; under a stream of
    // creations that garbage drove full collections and RSS (measured: 5% more POSTs per second without).
  }

  update(doc: T): void {
    const values = [JSON.stringify(doc), ...this.extra.map(([, read]) => read(doc))];
    const key = timeKeyOf(doc.id);
    let changes = key === undefined ? 0 : this.updateByKeyStmt.run(...values, key, doc.id).changes;
    if (changes === 0) changes = this.updateLegacyStmt.run(...values, doc.id).changes;
    if (changes !== 1) throw new Error(`${this.options.table}: no row ${doc.id} to update`);
    this.cache.set(doc.id, doc);
  }

  /** The document with this id, whatever its business (callers check ownership). */
  get(id: string): T | undefined {
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const key = timeKeyOf(id);
    const data = ((key === undefined ? undefined : this.byKeyStmt.get(key, id)) ?? this.byLegacyIdStmt.get(id)) as string | undefined;
    if (data === undefined) return undefined;
    const doc = JSON.parse(data) as T;
    this.cache.set(id, doc);
    return doc;
  }

  /** The document with this id if it belongs to `businessId`. */
  getOwned(id: string, businessId: string): T | undefined {
    const doc = this.get(id);
    return doc !== undefined && doc.businessId === businessId ? doc : undefined;
  }

  /** Documents of a business with a tracking code, oldest first. */
  byTrackingCode(businessId: string, trackingCode: string): T[] {
    return (this.byTrackingStmt.all(businessId, trackingCode) as string[]).map((data) => JSON.parse(data) as T);
  }

  /** Empties the read cache (after a rollback or a reset). */
  forgetAll(): void {
    this.cache.clear();
  }
}
