/**
 * Snapshots of the whole sandbox database: saved while the sandbox serves, restored in one transaction.
 *
 * Where they live: beside a database file, in `<db>.snapshots/<name>.db` (each one an ordinary SQLite file
 * that `sqlite3` opens); for `:memory:`, in memory, as serialized databases that go with the process.
 *
 * Saving flushes the group commit's open batch (everything answered so far is then in the file) and runs
 * `VACUUM INTO` a temporary file on the write connection: a consistent copy at one commit, made while no
 * other write can run (the event loop is busy with it). The file is renamed into place once complete, so a
 * snapshot is never seen half-written. Values the sandbox keeps exactly only in memory (the seeded id
 * position) are written into the copy, not into the served database.
 *
 * Restoring attaches the snapshot and, in one `BEGIN IMMEDIATE` transaction, empties every table and copies
 * the snapshot's rows in. Either the whole restore commits or nothing of it does: a `kill -9` during it
 * leaves the database at the old state or the new one. `sqlite_sequence` is not copied back: SQLite only
 * raises it, so the sequence numbers of events, deliveries and the request log keep growing past every
 * number handed out before, and a follower's cursor (`paylink listen`, `paylink logs --follow`) stays valid.
 * Keys of `meta` named in `keep` (this process's lock holder, secrets) keep their current value.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Store } from './group-commit.js';
import { migrate } from './db.js';
import { MIGRATIONS } from './migrations.js';

/** One saved snapshot as `snapshot list` shows it. */
export interface SnapshotInfo {
  name: string;
  /** Size in bytes. */
  bytes: number;
  /** When it was saved (wall clock, epoch milliseconds). */
  savedAt: number;
}

/** A snapshot name: letters, digits, `.`, `_` and `-`, 1 to 64 characters, not starting with `.` or `-`. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** Thrown for a snapshot that does not exist; `code` is `ENOSNAPSHOT`. */
export class SnapshotNotFoundError extends Error {
  readonly code = 'ENOSNAPSHOT';
  constructor(readonly snapshot: string) {
    super(`No snapshot named "${snapshot}".`);
    this.name = 'SnapshotNotFoundError';
  }
}

/** Thrown for a snapshot this paylink cannot restore (a newer schema, not a database); `code` is `EBADSNAPSHOT`. */
export class SnapshotUnusableError extends Error {
  readonly code = 'EBADSNAPSHOT';
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotUnusableError';
  }
}

export class SnapshotRepository {
  /** `<db>.snapshots`, or undefined for `:memory:` (then {@link inMemory} holds them). */
  readonly dir: string | undefined;
  private readonly inMemory = new Map<string, { data: Buffer; savedAt: number }>();
  private readonly tablesStmt;

  constructor(
    private readonly store: Store,
    path: string,
  ) {
    this.dir = path === ':memory:' || path === '' ? undefined : `${path}.snapshots`;
    this.tablesStmt = store.db
      .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck();
  }

  /** Where snapshots are kept: the folder, or `memory`. */
  get location(): string {
    return this.dir ?? 'memory';
  }

  /**
   * Saves the database as it is now under `name` (replacing a snapshot of that name) and answers its info.
   * `meta` values are written into the copy only (exact values the served file holds ahead of time).
   */
  save(name: string, meta: Record<string, unknown> = {}): SnapshotInfo {
    checkName(name);
    this.store.flush();
    const db = this.store.db;
    if (this.dir === undefined) {
      const copy = new Database(db.serialize());
      try {
        writeMeta(copy, meta);
        const data = copy.serialize();
        const savedAt = Date.now();
        this.inMemory.set(name, { data, savedAt });
        return { name, bytes: data.length, savedAt };
      } finally {
        copy.close();
      }
    }
    mkdirSync(this.dir, { recursive: true });
    const target = join(this.dir, `${name}.db`);
    const temporary = join(this.dir, `.${name}.${process.pid}.${Date.now()}.partial`);
    try {
      db.prepare('VACUUM INTO ?').run(temporary);
      if (Object.keys(meta).length > 0) {
        const copy = new Database(temporary);
        try {
          writeMeta(copy, meta);
        } finally {
          copy.close();
        }
      }
      renameSync(temporary, target);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    const stat = statSync(target);
    return { name, bytes: stat.size, savedAt: stat.mtimeMs };
  }

  /** The saved snapshots, by name. */
  list(): SnapshotInfo[] {
    if (this.dir === undefined) {
      return [...this.inMemory].map(([name, s]) => ({ name, bytes: s.data.length, savedAt: s.savedAt })).sort((a, b) => a.name.localeCompare(b.name));
    }
    if (!existsSync(this.dir)) return [];
    const found: SnapshotInfo[] = [];
    for (const file of readdirSync(this.dir)) {
      if (!file.endsWith('.db')) continue;
      const name = basename(file, '.db');
      if (!SNAPSHOT_NAME.test(name)) continue;
      const stat = statSync(join(this.dir, file));
      found.push({ name, bytes: stat.size, savedAt: stat.mtimeMs });
    }
    return found.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Deletes a snapshot; false when there was none of that name. */
  delete(name: string): boolean {
    checkName(name);
    if (this.dir === undefined) return this.inMemory.delete(name);
    const file = join(this.dir, `${name}.db`);
    if (!existsSync(file)) return false;
    rmSync(file, { force: true });
    return true;
  }

  /**
   * Replaces every row of the database with the snapshot's, in one transaction, and answers the meta values
   * it restored (the caller reloads what it keeps in memory from them). Keys in `keep` keep their current
   * value. Call outside any write (it commits the open batch first).
   */
  restore(name: string, keep: ReadonlySet<string>): Map<string, unknown> {
    checkName(name);
    const source = this.sourceFile(name);
    try {
      return this.restoreFrom(source.path, keep);
    } finally {
      source.remove();
    }
  }

  /** A file SQLite can attach holding the snapshot at this paylink's schema version. */
  private sourceFile(name: string): { path: string; remove(): void } {
    let path: string;
    let remove = (): void => undefined;
    if (this.dir === undefined) {
      const saved = this.inMemory.get(name);
      if (saved === undefined) throw new SnapshotNotFoundError(name);
      const dir = mkdtempSync(join(tmpdir(), 'paylink-restore-'));
      path = join(dir, 'snapshot.db');
      writeFileSync(path, saved.data);
      remove = () => rmSync(dir, { recursive: true, force: true });
    } else {
      path = join(this.dir, `${name}.db`);
      if (!existsSync(path)) throw new SnapshotNotFoundError(name);
    }
    let version: number;
    try {
      const check = new Database(path, { readonly: true, fileMustExist: true });
      try {
        version = check.pragma('user_version', { simple: true }) as number;
        check.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'meta'").get();
      } finally {
        check.close();
      }
    } catch (error) {
      remove();
      throw new SnapshotUnusableError(`The snapshot "${name}" is not a usable SQLite database (${(error as Error).message}).`);
    }
    const latest = MIGRATIONS.at(-1)?.version ?? 0;
    if (version > latest) {
      remove();
      throw new SnapshotUnusableError(`The snapshot "${name}" was saved by a newer paylink (schema ${version}, this one ${latest}); upgrade paylink to restore it.`);
    }
    if (version < latest) {
      // Saved before a migration: bring a temporary copy up to date, never the saved file itself.
      const dir = mkdtempSync(join(tmpdir(), 'paylink-restore-'));
      const copy = join(dir, 'snapshot.db');
      const old = new Database(path, { readonly: true });
      try {
        old.prepare('VACUUM INTO ?').run(copy);
      } finally {
        old.close();
      }
      remove();
      const migrated = new Database(copy);
      try {
        migrate(migrated, MIGRATIONS);
      } finally {
        migrated.close();
      }
      return { path: copy, remove: () => rmSync(dir, { recursive: true, force: true }) };
    }
    return { path, remove };
  }

  private restoreFrom(path: string, keep: ReadonlySet<string>): Map<string, unknown> {
    const db = this.store.db;
    this.store.flush();
    if (db.inTransaction) throw new Error('a transaction is still open; the snapshot cannot be restored now');
    db.prepare("ATTACH DATABASE ? AS snapshot").run(path);
    // The copy is consistent on its own; checking every foreign key row by row would only slow it down.
    db.pragma('foreign_keys = OFF');
    // With the usual 4 MB page cache the copy spills dirty pages to the WAL midway and writes many of them
    // twice; a cache the size of the copy writes each page once, at commit (measured: 0.7 s -> 0.4 s for
    // 10,000 payments on a loaded 2-core machine). Shrunk back afterwards.
    const cacheSize = db.pragma('cache_size', { simple: true }) as number;
    db.pragma('cache_size = -262144');
    try {
      const tables = this.tablesStmt.all() as string[];
      const theirs = new Set(db.prepare("SELECT name FROM snapshot.sqlite_master WHERE type = 'table'").pluck().all() as string[]);
      const kept = [...keep];
      const placeholders = kept.map(() => '?').join(', ');
      const notKept = kept.length > 0 ? ` WHERE key NOT IN (${placeholders})` : '';
      const restored = new Map<string, unknown>();
      db.transaction(() => {
        for (const table of tables) {
          if (table === 'meta') {
            db.prepare(`DELETE FROM main.meta${notKept}`).run(...kept);
            if (theirs.has('meta')) {
              const rows = db.prepare(`SELECT key, value FROM snapshot.meta${notKept}`).all(...kept) as Array<{ key: string; value: string }>;
              const insert = db.prepare('INSERT INTO main.meta (key, value) VALUES (?, ?)');
              for (const row of rows) {
                insert.run(row.key, row.value);
                restored.set(row.key, JSON.parse(row.value) as unknown);
              }
            }
            continue;
          }
          db.prepare(`DELETE FROM main."${table}"`).run();
          if (!theirs.has(table)) continue;
          const ours = db.prepare("SELECT name FROM pragma_table_info(?, 'main')").pluck().all(table) as string[];
          const saved = db.prepare("SELECT name FROM pragma_table_info(?, 'snapshot')").pluck().all(table) as string[];
          if (ours.join('\0') === saved.join('\0')) {
            // The same columns in the same order: SQLite copies rows and index entries as they are stored
            // (its transfer optimization, for exactly `INSERT INTO ... SELECT * FROM ...` into an empty
            // table), without decoding or re-sorting anything.
            db.prepare(`INSERT INTO main."${table}" SELECT * FROM snapshot."${table}"`).run();
          } else {
            const columns = ours.filter((c) => saved.includes(c)).map((c) => `"${c}"`).join(', ');
            db.prepare(`INSERT INTO main."${table}" (${columns}) SELECT ${columns} FROM snapshot."${table}"`).run();
          }
        }
      }).immediate();
      return restored;
    } finally {
      db.pragma('foreign_keys = ON');
      db.pragma(`cache_size = ${cacheSize}`);
      db.prepare('DETACH DATABASE snapshot').run();
    }
  }
}

function checkName(name: string): void {
  if (!SNAPSHOT_NAME.test(name)) {
    throw new SnapshotUnusableError(`"${name}" is not a snapshot name: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter, digit or "_".`);
  }
}

function writeMeta(db: Database.Database, meta: Record<string, unknown>): void {
  const set = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  for (const [key, value] of Object.entries(meta)) set.run(key, JSON.stringify(value));
}
