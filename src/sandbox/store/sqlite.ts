/**
 * Every SQLite connection the sandbox opens (its database, the reader, the lock file, snapshots) is made here,
 * with better-sqlite3's native addon named by its file.
 *
 * Without `nativeBinding`, the first connection of a process has the `bindings` package find the addon: it
 * works out its caller's folder from a stack trace, then tries a `require` of each of a dozen candidate paths
 * until one loads (two fail before `build/Release`), about 1.7 ms of every start. An install puts the addon in
 * `build/Release` (built from source or downloaded prebuilt); when it is not there, better-sqlite3 searches
 * as before.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** better-sqlite3's addon file where an install puts it, or null to let better-sqlite3 search for it. */
function addonFile(): string | null {
  const file = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3')), '../build/Release/better_sqlite3.node');
  return existsSync(file) ? file : null;
}

/** The addon, found once when this module loads (a constant: the install does not move under a process). */
const ADDON: string | null = addonFile();

/** `new Database(path, options)`, with the addon found once per process. */
export function openSqlite(path: string, options: Database.Options = {}): Database.Database {
  return new Database(path, ADDON === null ? options : { ...options, nativeBinding: ADDON });
}
