/**
 * Snapshots of the whole sandbox database: saved while the sandbox serves, restored in one transaction.
 *
 * Where they live: beside a database file, in `<db>.snapshots/<name>.db` (each one an ordinary SQLite file
 * that `sqlite3` opens); for `:memory:`, in a temporary folder of this process, removed when it closes, or
 * by the next `:memory:` sandbox when the process was killed (they were serialized buffers held in memory:
 * 40 saves raised the process's memory from 114 to 556 MB).
 *
 * Secrets are left out of the copy (`omit`: the webhook, form-token and token keys in `meta`), and the
 * copy's freed pages are zeroed, so a snapshot can be copied or shared; a restore keeps the running ones.
 *
 * A save killed midway leaves a `.<name>.<pid>.<time>.partial` file (and its `-journal`); the next start
 * removes those whose process is gone, and `list` never shows them.
 *
 * Before a restore replaces anything, the snapshot is checked: a SQLite header, no damaged page
 * (`PRAGMA quick_check`), a schema version of paylink's, every table with the columns this paylink expects
 * and every row's values of the types they must have (JSON objects where documents are kept). A snapshot
 * that fails is refused with {@link SnapshotUnusableError} and the current state is left as it is.
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
import type Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, renameSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Store } from './group-commit.js';
import { migrate } from './db.js';
import { MIGRATIONS } from './migrations.js';
import { openSqlite } from './sqlite.js';

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

/** Thrown for a save there is no room for (past the snapshots' limit, or a disk nearly full); `code` is `ENOSPACE`. */
export class SnapshotSpaceError extends Error {
  readonly code = 'ENOSPACE';
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotSpaceError';
  }
}

/** The default limit of all snapshots together (docs/reliability.md, "Retention"). */
export const DEFAULT_SNAPSHOTS_MAX_BYTES = 2 * 1024 ** 3;
/** Free disk space a save always leaves (and below which `/__sandbox/health` warns). */
export const DISK_RESERVE_BYTES = 256 * 1024 ** 2;

export class SnapshotRepository {
  /** `<db>.snapshots`, or for `:memory:` a temporary folder removed on close. */
  readonly dir: string;
  private readonly memory: boolean;
  private readonly tablesStmt;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly columns = new Map<string, string>();
  /**
   * Snapshot files known sound, by path: size, modification time and inode when they were saved by this
   * process or last checked. A file still matching is not checked again (the checks cost more than the
   * restore of a test-sized snapshot); one changed since is.
   */
  private readonly sound = new Map<string, string>();

  constructor(
    private readonly store: Store,
    path: string,
  ) {
    this.memory = path === ':memory:' || path === '';
    if (this.memory) {
      removeAbandonedMemoryFolders();
      const dir = mkdtempSync(join(tmpdir(), `${MEMORY_FOLDER_PREFIX}${process.pid}-`));
      this.dir = dir;
      store.onBeforeClose(() => rmSync(dir, { recursive: true, force: true }));
    } else {
      this.dir = `${path}.snapshots`;
      removeAbandonedSaves(this.dir);
    }
    this.tablesStmt = store.db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck();
  }

  /** Where snapshots are kept: the folder, or `memory` (a temporary folder that goes with the process). */
  get location(): string {
    return this.memory ? 'memory' : this.dir;
  }

  /**
   * Saves the database as it is now under `name` (replacing a snapshot of that name) and answers its info.
   * `meta` values are written into the copy only (exact values the served file holds ahead of time); `meta`
   * keys in `omit` (secrets) are left out of it.
   */
  save(name: string, meta: Record<string, unknown> = {}, omit: ReadonlySet<string> = new Set(), maxBytes = DEFAULT_SNAPSHOTS_MAX_BYTES): SnapshotInfo {
    checkName(name);
    this.store.flush();
    const db = this.store.db;
    mkdirSync(this.dir, { recursive: true });
    this.checkRoom(name, maxBytes);
    const target = join(this.dir, `${name}.db`);
    const temporary = join(this.dir, `.${name}.${process.pid}.${Date.now()}.partial`);
    try {
      db.prepare('VACUUM INTO ?').run(temporary);
      const copy = openSqlite(temporary);
      try {
        // Deleted values are overwritten, not left in free pages of the file.
        copy.pragma('secure_delete = ON');
        copy.pragma('journal_mode = MEMORY');
        const keys = [...omit];
        if (keys.length > 0) copy.prepare(`DELETE FROM meta WHERE key IN (${keys.map(() => '?').join(', ')})`).run(...keys);
        writeMeta(copy, meta);
      } finally {
        copy.close();
      }
      renameSync(temporary, target);
    } catch (error) {
      removeSave(temporary);
      throw error;
    }
    const stat = statSync(target);
    this.sound.set(target, stampOf(stat));
    return { name, bytes: stat.size, savedAt: stat.mtimeMs };
  }

  /**
   * Refuses a save that would take the snapshots past `maxBytes` together, or leave the disk with less than
   * {@link DISK_RESERVE_BYTES} free: the copy is about the size of the database's used pages.
   */
  private checkRoom(name: string, maxBytes: number): void {
    const copyBytes = this.databaseBytes();
    const others = this.list()
      .filter((s) => s.name !== name)
      .reduce((sum, s) => sum + s.bytes, 0);
    if (others + copyBytes > maxBytes) {
      throw new SnapshotSpaceError(
        `Saving "${name}" (about ${mib(copyBytes)}) would take the snapshots to ${mib(others + copyBytes)}, past their limit of ${mib(maxBytes)}: delete some (paylink snapshot delete <name>) or raise the limit (snapshotsMaxBytes).`,
      );
    }
    const free = freeBytes(this.dir);
    if (free !== undefined && free - copyBytes < DISK_RESERVE_BYTES) {
      throw new SnapshotSpaceError(
        `Saving "${name}" (about ${mib(copyBytes)}) would leave less than ${mib(DISK_RESERVE_BYTES)} free on the disk of ${this.location}: delete some snapshots or free space first.`,
      );
    }
  }

  /** Bytes of the served database's used pages (what a copy takes). */
  databaseBytes(): number {
    const pages = (this.sql('PRAGMA page_count').pluck().get() as number) - (this.sql('PRAGMA freelist_count').pluck().get() as number);
    return pages * (this.sql('PRAGMA page_size').pluck().get() as number);
  }

  /** Free bytes on the disk the snapshots are kept on (undefined where the platform cannot tell). */
  freeDiskBytes(): number | undefined {
    return freeBytes(this.dir);
  }

  /** The saved snapshots, by name. */
  list(): SnapshotInfo[] {
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
    const file = join(this.dir, `${name}.db`);
    this.sound.delete(file);
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
      const restored = this.restoreFrom(source.path, keep, source.trusted);
      if (source.stamp !== undefined) this.sound.set(source.path, source.stamp);
      return restored;
    } finally {
      source.remove();
    }
  }

  /** A file SQLite can attach holding the snapshot at this paylink's schema version, checked (see the file's head). */
  private sourceFile(name: string): { path: string; remove(): void; trusted: boolean; stamp?: string } {
    const path = join(this.dir, `${name}.db`);
    let stamp: string;
    try {
      stamp = stampOf(statSync(path));
    } catch {
      throw new SnapshotNotFoundError(name);
    }
    if (this.sound.get(path) === stamp) return { path, remove: () => undefined, trusted: true };
    this.sound.delete(path);
    const unusable = (why: string) =>
      new SnapshotUnusableError(`The snapshot "${name}" cannot be restored: ${why}. Nothing was changed; save a new snapshot or delete this one.`);
    if (!hasSqliteHeader(path)) throw unusable('it is not a SQLite database (empty, truncated or another kind of file)');
    let version: number;
    try {
      const check = openSqlite(path, { readonly: true, fileMustExist: true });
      try {
        const problems = check.pragma('quick_check', { simple: true }) as string;
        if (problems !== 'ok') throw new Error(`damaged pages (${problems})`);
        version = check.pragma('user_version', { simple: true }) as number;
      } finally {
        check.close();
      }
    } catch (error) {
      throw unusable(`it is not a usable SQLite database (${(error as Error).message})`);
    }
    const latest = MIGRATIONS.at(-1)?.version ?? 0;
    if (version > latest) {
      throw new SnapshotUnusableError(
        `The snapshot "${name}" was saved by a newer paylink (schema ${version}, this one ${latest}); upgrade paylink to restore it.`,
      );
    }
    if (version < 1) throw unusable('it was not saved by paylink (no schema version)');
    let source: { path: string; remove(): void; trusted: boolean; stamp?: string } = { path, remove: () => undefined, trusted: false, stamp };
    if (version < latest) {
      // Saved before a migration: bring a temporary copy up to date, never the saved file itself.
      const dir = mkdtempSync(join(tmpdir(), 'paylink-restore-'));
      const copy = join(dir, 'snapshot.db');
      source = { path: copy, remove: () => rmSync(dir, { recursive: true, force: true }), trusted: false };
      try {
        const old = openSqlite(path, { readonly: true });
        try {
          old.prepare('VACUUM INTO ?').run(copy);
        } finally {
          old.close();
        }
        const migrated = openSqlite(copy);
        try {
          migrate(migrated, MIGRATIONS);
        } finally {
          migrated.close();
        }
      } catch (error) {
        source.remove();
        throw unusable(`its schema ${version} could not be brought up to date (${(error as Error).message})`);
      }
    }
    return source;
  }

  /**
   * Why the attached snapshot's tables cannot replace ours, or undefined: a table missing or with other
   * columns, a value of the wrong type, a document that is not a JSON object.
   */
  private shapeProblem(tables: readonly string[]): string | undefined {
    const db = this.store.db;
    for (const table of tables) {
      const ours = db.prepare('SELECT name, type, "notnull" AS required FROM pragma_table_info(?, \'main\')').all(table) as Array<{
        name: string;
        type: string;
        required: number;
      }>;
      const saved = db.prepare("SELECT name FROM pragma_table_info(?, 'snapshot')").pluck().all(table) as string[];
      if (saved.length === 0) return `its table ${table} is missing`;
      const missing = ours.filter((c) => !saved.includes(c.name)).map((c) => c.name);
      if (missing.length > 0) return `its table ${table} has no column ${missing.join(', ')}`;
      const wrong: string[] = [];
      for (const column of ours) {
        const type = column.type.toUpperCase();
        const allowed = type === 'INTEGER' ? "('integer')" : type === 'TEXT' ? "('text')" : type === 'REAL' ? "('real', 'integer')" : undefined;
        if (allowed !== undefined) wrong.push(`(typeof("${column.name}") NOT IN ${allowed}${column.required ? '' : ` AND "${column.name}" IS NOT NULL`})`);
        if (column.name === 'data' || column.name === 'doc') wrong.push(`(json_valid("${column.name}") = 0 OR json_type("${column.name}") <> 'object')`);
      }
      if (wrong.length === 0) continue;
      const bad = db.prepare(`SELECT rowid FROM snapshot."${table}" WHERE ${wrong.join(' OR ')} LIMIT 1`).get();
      if (bad !== undefined) return `a row of its table ${table} does not have the shape paylink keeps`;
    }
    return undefined;
  }

  /** A prepared statement, kept for the next restore (SQLite prepares it again when the attached file changes). */
  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (statement === undefined) {
      statement = this.store.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Our tables' columns in order, read once (the served schema does not change while it is open). */
  private ourColumns(table: string): string {
    let columns = this.columns.get(table);
    if (columns === undefined) {
      columns = (this.store.db.prepare("SELECT name FROM pragma_table_info(?, 'main') ORDER BY cid").pluck().all(table) as string[]).join('\0');
      this.columns.set(table, columns);
    }
    return columns;
  }

  private restoreFrom(path: string, keep: ReadonlySet<string>, trusted: boolean): Map<string, unknown> {
    const db = this.store.db;
    this.store.flush();
    if (db.inTransaction) throw new Error('a transaction is still open; the snapshot cannot be restored now');
    this.sql('ATTACH DATABASE ? AS snapshot').run(path);
    // The copy is consistent on its own; checking every foreign key row by row would only slow it down.
    this.sql('PRAGMA foreign_keys = OFF').run();
    // With the usual 4 MB page cache the copy spills dirty pages to the WAL midway and writes many of them
    // twice; a cache the size of the copy writes each page once, at commit (measured: 0.7 s -> 0.4 s for
    // 10,000 payments on a loaded 2-core machine). Shrunk back afterwards.
    const cacheSize = this.sql('PRAGMA cache_size').pluck().get() as number;
    this.sql('PRAGMA cache_size = -262144').run();
    try {
      const tables = this.tablesStmt.all() as string[];
      // Every table of the snapshot with its columns in order, in one statement.
      const theirs = new Map(
        (
          this.sql(
            "SELECT t, group_concat(c, char(0)) FROM (SELECT m.name AS t, p.name AS c FROM snapshot.sqlite_master m, pragma_table_info(m.name, 'snapshot') p WHERE m.type = 'table' ORDER BY m.name, p.cid) GROUP BY t",
          )
            .raw()
            .all() as Array<[string, string]>
        ).map(([table, columns]) => [table, columns]),
      );
      if (!trusted) {
        const problem = this.shapeProblem(tables);
        if (problem !== undefined)
          throw new SnapshotUnusableError(`The snapshot cannot be restored: ${problem}. Nothing was changed; save a new snapshot or delete this one.`);
      }
      const kept = [...keep];
      const placeholders = kept.map(() => '?').join(', ');
      const notKept = kept.length > 0 ? ` WHERE key NOT IN (${placeholders})` : '';
      const restored = new Map<string, unknown>();
      db.transaction(() => {
        for (const table of tables) {
          if (table === 'meta') {
            this.sql(`DELETE FROM main.meta${notKept}`).run(...kept);
            if (theirs.has('meta')) {
              const rows = this.sql(`SELECT key, value FROM snapshot.meta${notKept}`).all(...kept) as Array<{ key: string; value: string }>;
              const insert = this.sql('INSERT INTO main.meta (key, value) VALUES (?, ?)');
              for (const row of rows) {
                insert.run(row.key, row.value);
                restored.set(row.key, JSON.parse(row.value) as unknown);
              }
            }
            continue;
          }
          this.sql(`DELETE FROM main."${table}"`).run();
          const saved = theirs.get(table);
          if (saved === undefined) continue;
          const ours = this.ourColumns(table);
          if (ours === saved) {
            // The same columns in the same order: SQLite copies rows and index entries as they are stored
            // (its transfer optimization, for exactly `INSERT INTO ... SELECT * FROM ...` into an empty
            // table), without decoding or re-sorting anything.
            this.sql(`INSERT INTO main."${table}" SELECT * FROM snapshot."${table}"`).run();
          } else {
            const savedColumns = saved.split('\0');
            const columns = ours
              .split('\0')
              .filter((c) => savedColumns.includes(c))
              .map((c) => `"${c}"`)
              .join(', ');
            db.prepare(`INSERT INTO main."${table}" (${columns}) SELECT ${columns} FROM snapshot."${table}"`).run();
          }
        }
      }).immediate();
      return restored;
    } finally {
      this.sql('PRAGMA foreign_keys = ON').run();
      this.sql(`PRAGMA cache_size = ${cacheSize}`).run();
      this.sql('DETACH DATABASE snapshot').run();
    }
  }
}

function checkName(name: string): void {
  if (!SNAPSHOT_NAME.test(name)) {
    throw new SnapshotUnusableError(`"${name}" is not a snapshot name: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter, digit or "_".`);
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** Free bytes on the file system holding `dir` (or its nearest existing parent), if the platform tells. */
function freeBytes(dir: string): number | undefined {
  let at = dir;
  for (let i = 0; i < 64 && !existsSync(at); i++) at = dirname(at);
  try {
    const stats = statfsSync(at);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

/** What tells a file changed: its size, modification time and inode. */
function stampOf(stat: { size: number; mtimeMs: number; ino: number }): string {
  return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** True when the file starts with SQLite's 16-byte header (an empty or truncated file does not). */
function hasSqliteHeader(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}

/** A save's temporary file and the files SQLite kept beside it. */
function removeSave(temporary: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(temporary + suffix, { force: true });
}

/** `.<name>.<pid>.<time>.partial` and its `-journal`: a save in progress, or abandoned by a killed process. */
const PARTIAL = /^\..+\.(\d+)\.\d+\.partial(?:-journal|-wal|-shm)?$/;

/** `paylink-snapshots-<pid>-<random>` in the temporary folder: a `:memory:` sandbox's snapshots. */
const MEMORY_FOLDER_PREFIX = 'paylink-snapshots-';
const MEMORY_FOLDER = /^paylink-snapshots-(\d+)-/;

/** Removes the snapshot folders of `:memory:` sandboxes that were killed (their process is gone). */
function removeAbandonedMemoryFolders(): void {
  let entries: string[];
  try {
    entries = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = MEMORY_FOLDER.exec(entry)?.[1];
    if (pid === undefined || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    rmSync(join(tmpdir(), entry), { recursive: true, force: true });
  }
}

/** Removes what saves killed midway left in `dir` (those of processes still running are kept). */
function removeAbandonedSaves(dir: string): void {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return;
  }
  for (const file of files) {
    const pid = PARTIAL.exec(file)?.[1];
    if (pid === undefined || (Number(pid) !== process.pid && processAlive(Number(pid)))) continue;
    rmSync(join(dir, file), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeMeta(db: Database.Database, meta: Record<string, unknown>): void {
  const set = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  for (const [key, value] of Object.entries(meta)) set.run(key, JSON.stringify(value));
}
