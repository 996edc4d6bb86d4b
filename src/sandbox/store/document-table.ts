import { timeKeyCeiling, timeKeyOf } from '../domain/ids.js';
import type { StoredDocument } from '../domain/records.js';
import type { RunResult } from 'better-sqlite3';
import type { Db } from './db.js';
import type { Store } from './group-commit.js';
import { LruCache } from './lru-cache.js';

export interface DocumentTableOptions<T> {
  table: 'links' | 'checkouts' | 'payments' | 'tokens';
  /** Extra columns beyond id, business_id, tracking_code, created_at, data, and how to read them from a document. */
  columns?: Record<string, (doc: T) => string | number | null>;
  /** Documents kept in memory for reads. */
  cacheSize?: number;
  /**
   * The group commit and a second, read-only connection: reads outside a write use `reader`, which sees
   * committed data only, and the cache changes only when a commit has happened. Without it (`:memory:`,
   * tests of the table alone) every read uses the one connection.
   */
  reads?: { store: Store; reader: Db } | undefined;
}

/**
 * A table of JSON documents with prepared statements and a read cache.
 *
 * Nothing a client reads comes from a write that has not committed. Writes run inside the group commit's
 * open transaction (group-commit.ts) and are committed a moment later, or fail at commit (a full disk);
 * so reads outside a write go to a second, read-only connection that sees only committed rows, and the
 * cache holds committed documents only: an insert or update marks its id dirty, and the cache takes the new
 * version when the commit listener runs (before any waiting handler resumes), or drops it when the write
 * rolls back. Reads inside a write use the write connection (and the pending versions), so a write sees
 * its own changes and those batched before it.
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
  private readonly writeListeners: Array<(before: T | undefined, after: T) => void> = [];
  /**
   * Ids written since the last commit: the version to cache when it commits, or undefined for one whose
   * pending version is not known (an insert, or a write of it that rolled back).
   */
  private readonly dirty = new Map<string, T | undefined>();
  private readonly store: Store | undefined;
  private readonly readByKeyStmt;
  private readonly readByLegacyIdStmt;
  private readonly readByTrackingStmt;

  constructor(
    protected readonly db: Db,
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
    this.byTrackingStmt = db.prepare(`SELECT data FROM ${t} WHERE business_id = ? AND tracking_code = ? ORDER BY created_at, rowid`).pluck();
    this.lastKey = (db.prepare(`SELECT max(key) FROM ${t}`).pluck().get() as number | null) ?? 0;
    const reader = options.reads?.reader ?? db;
    this.store = options.reads?.store;
    this.readByKeyStmt = reader === db ? this.byKeyStmt : reader.prepare(`SELECT data FROM ${t} WHERE key = ? AND id = ?`).pluck();
    this.readByLegacyIdStmt = reader === db ? this.byLegacyIdStmt : reader.prepare(`SELECT data FROM ${t} WHERE id = ? AND legacy = 1`).pluck();
    this.readByTrackingStmt =
      reader === db
        ? this.byTrackingStmt
        : reader.prepare(`SELECT data FROM ${t} WHERE business_id = ? AND tracking_code = ? ORDER BY created_at, rowid`).pluck();
    this.store?.onCommit(() => this.committed());
    this.store?.onRollback(() => this.rolledBack());
  }

  /** True when reads go to the write connection: inside a write, or with no reader. */
  protected get inWrite(): boolean {
    return this.store === undefined || this.store.writing;
  }

  private committed(): void {
    if (this.dirty.size === 0) return;
    for (const [id, doc] of this.dirty) {
      if (doc === undefined) this.cache.delete(id);
      else this.cache.set(id, doc);
    }
    this.dirty.clear();
  }

  /**
   * A write (or the whole transaction) rolled back: the pending versions may be gone, so none is trusted;
   * the ids stay dirty until the next commit (the cache, holding committed versions only, stays right).
   */
  private rolledBack(): void {
    for (const id of this.dirty.keys()) this.dirty.set(id, undefined);
  }

  insert(doc: T): void {
    // The id's own key when it is new and ascending, so rowids stay in creation order (listings rely on it)
    // and a clock that went back, or a seeded id, never collides with a stored row; else SQLite picks one.
    let key = timeKeyOf(doc.id);
    if (key !== undefined && (key <= this.lastKey || key > timeKeyCeiling(Date.now() + 60_000))) key = undefined;
    // One array of parameters, in the insert's column order (better-sqlite3 binds an array's items in turn).
    const params: Array<string | number | null> = [
      key ?? null,
      key === undefined ? 1 : 0,
      doc.id,
      doc.businessId,
      doc.trackingCode ?? null,
      doc.createdAt,
      JSON.stringify(doc),
    ];
    for (const [, read] of this.extra) params.push(read(doc));
    let info: RunResult;
    try {
      info = this.insertStmt.run(params);
    } catch (error) {
      // Another connection took this key (two sandboxes on one file): SQLite has undone the statement.
      if (key === undefined || (error as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw error;
      params[0] = null;
      params[1] = 1;
      info = this.insertStmt.run(params);
    }
    this.lastKey = Math.max(this.lastKey, Number(info.lastInsertRowid));
    if (this.store !== undefined) this.dirty.set(doc.id, undefined);
    for (const listener of this.writeListeners) listener(undefined, doc);
    // Not cached here: a new document enters the cache on its first read. Caching every creation kept each
    // one alive until evicted, long enough for V8 to promote it to the old generation; under a stream of
    // creations that garbage drove full collections and RSS (measured: 5% more POSTs per second without).
  }

  update(doc: T): void {
    const before = this.writeListeners.length > 0 ? this.get(doc.id) : undefined;
    const values = [JSON.stringify(doc), ...this.extra.map(([, read]) => read(doc))];
    const key = timeKeyOf(doc.id);
    let changes = key === undefined ? 0 : this.updateByKeyStmt.run(...values, key, doc.id).changes;
    if (changes === 0) changes = this.updateLegacyStmt.run(...values, doc.id).changes;
    if (changes !== 1) throw new Error(`${this.options.table}: no row ${doc.id} to update`);
    if (this.store !== undefined) this.dirty.set(doc.id, doc);
    else this.cache.set(doc.id, doc);
    for (const listener of this.writeListeners) listener(before, doc);
  }

  /**
   * Calls `listener` after each insert (`before` undefined) and update (`before` the stored document), inside
   * the same write: what it writes commits or rolls back with the document (webhook events, services/events.ts).
   * A listener that throws fails the write.
   */
  onWrite(listener: (before: T | undefined, after: T) => void): void {
    this.writeListeners.push(listener);
  }

  /** The document with this id, whatever its business (callers check ownership). */
  get(id: string): T | undefined {
    const writing = this.inWrite;
    if (writing && this.dirty.has(id)) {
      // Written in this transaction: its pending version, or the row as the write connection sees it.
      return this.dirty.get(id) ?? this.parse(this.select(id, this.byKeyStmt, this.byLegacyIdStmt));
    }
    const cached = this.cache.get(id);
    if (cached !== undefined) return cached;
    const data = writing ? this.select(id, this.byKeyStmt, this.byLegacyIdStmt) : this.select(id, this.readByKeyStmt, this.readByLegacyIdStmt);
    if (data === undefined) return undefined;
    const doc = JSON.parse(data) as T;
    // Committed (read outside a write) and not written since; a dirty id's committed row may be stale by now.
    if (!this.dirty.has(id)) this.cache.set(id, doc);
    return doc;
  }

  private select(id: string, byKey: typeof this.byKeyStmt, byLegacyId: typeof this.byLegacyIdStmt): string | undefined {
    const key = timeKeyOf(id);
    return ((key === undefined ? undefined : byKey.get(key, id)) ?? byLegacyId.get(id)) as string | undefined;
  }

  private parse(data: string | undefined): T | undefined {
    return data === undefined ? undefined : (JSON.parse(data) as T);
  }

  /** The document with this id if it belongs to `businessId`. */
  getOwned(id: string, businessId: string): T | undefined {
    const doc = this.get(id);
    return doc !== undefined && doc.businessId === businessId ? doc : undefined;
  }

  /** Documents of a business with a tracking code, oldest first. */
  byTrackingCode(businessId: string, trackingCode: string): T[] {
    const stmt = this.inWrite ? this.byTrackingStmt : this.readByTrackingStmt;
    return (stmt.all(businessId, trackingCode) as string[]).map((data) => JSON.parse(data) as T);
  }

  /** Empties the read cache (after a rollback or a reset). */
  forgetAll(): void {
    this.cache.clear();
    this.rolledBack();
  }
}
