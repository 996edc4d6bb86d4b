import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations.js';
import { SCHEMA, type Schema } from './schema.js';
import { openSqlite } from './sqlite.js';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the sandbox database and brings its schema up to date.
 *
 * WAL with `synchronous = NORMAL`: a commit is in the WAL file before the statement returns, so a killed
 * process (`kill -9`) loses nothing that was committed; only a power loss could lose the last commits,
 * which is an acceptable trade for a local sandbox.
 */
export function openDatabase(path: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = openSqlite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // better-sqlite3 waits for a lock synchronously, stopping the event loop: wait briefly, then let the
  // request that needed the lock answer a retry-able 503 (group-commit.ts), so reads go on being answered.
  db.pragma('busy_timeout = 200');
  // better-sqlite3 builds SQLite with a 16 MB page cache; hot reads come from the documents' read cache, so
  // 4 MB is plenty and keeps the sandbox's memory small.
  db.pragma('cache_size = -4000');
  // Checkpoint every 10,000 pages (about 40 MB of WAL) rather than SQLite's 1,000: each checkpoint syncs
  // the file, and doing it a tenth as often took POST throughput up by a fifth and p99 from 7 to 2 ms.
  db.pragma('wal_autocheckpoint = 10000');
  migrate(db, migrations, SCHEMA);
  return db;
}

/**
 * A read-only connection to an open sandbox database: each statement sees the last commit, never the group
 * commit's open transaction (see document-table.ts).
 */
export function openReader(path: string): Db {
  const db = openSqlite(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 200');
  db.pragma('cache_size = -4000');
  return db;
}

/**
 * Runs the migrations the database has not seen, all in one immediate transaction that reads the schema
 * version inside it: a second process starting on the same fresh file (refused by store/lock.ts, but an
 * older paylink or a script may open it) waits for the first to finish instead of creating the same
 * tables again, and a failed migration leaves the file as it was.
 *
 * A new, empty database is created from `schema` in one step instead, when `schema` is what `migrations`
 * end with (its version is theirs): the same tables and indexes (schema.ts), in less time.
 */
export function migrate(db: Db, migrations: readonly Migration[], schema?: Schema): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const run = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > latest) {
      throw new Error(`The database schema (version ${current}) is newer than this paylink (version ${latest}). Upgrade paylink or use another --db file.`);
    }
    if (current === 0 && schema?.version === latest && isEmpty(db)) {
      db.exec(schema.sql);
    } else {
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        db.exec(migration.sql);
        migration.backfill?.(db);
      }
    }
    if (latest > current) db.pragma(`user_version = ${latest}`);
  });
  run.immediate();
}

/** Whether the database has nothing in it yet: no table, index, view or trigger. */
function isEmpty(db: Db): boolean {
  return db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() === undefined;
}
