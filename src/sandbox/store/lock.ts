/**
 * One sandbox per database file. Two processes on one file corrupt each other's view (each keeps read
 * caches and hands out ids and keys as if alone), so the first to open a file holds a lock on it for its
 * lifetime and any other refuses to start, naming the holder.
 *
 * The lock is SQLite's own file lock on a companion file `<db>.lock`: a connection that has run
 * `BEGIN IMMEDIATE` there holds its RESERVED lock until it ends the transaction or the process dies. Node
 * has no flock, and a pid file would need stale-lock guessing after `kill -9`; the operating system drops
 * this lock with the process. The companion file stays on disk (deleting it while another process opens
 * it would let two hold locks on different files); it holds no data.
 *
 * Who holds the lock is written in the main database's `meta` table (`sandbox.holder`) once the lock is
 * taken, and read by the process that is refused.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { openSqlite } from './sqlite.js';

/** What a running sandbox records about itself (meta key {@link HOLDER_KEY}). */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  /** The URL it listens at, once listening. */
  url?: string | undefined;
}

export const HOLDER_KEY = 'sandbox.holder';

/** Thrown by {@link lockDatabase} when another process holds the file; `code` is `EDBINUSE`. */
export class DatabaseInUseError extends Error {
  readonly code = 'EDBINUSE';
  constructor(
    readonly path: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who =
      holder === undefined
        ? 'another process (starting at the same moment)'
        : `paylink sandbox pid ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}${holder.url ? ` at ${holder.url}` : ''}, started ${holder.startedAt}`;
    super(`The database ${path} is in use by ${who}. One database file serves one sandbox: stop that one, or start this one with another --db file.`);
    this.name = 'DatabaseInUseError';
  }
}

export interface DatabaseLock {
  /** What this process records as the holder (write it with {@link HOLDER_KEY} once the store is open). */
  readonly holder: LockHolder;
  release(): void;
}

/**
 * Takes the lock of the database at `path` (nothing for `:memory:`), or throws {@link DatabaseInUseError},
 * reading the holder with `readHolder` (the main database may not exist or be readable yet).
 */
export function lockDatabase(path: string, readHolder: () => LockHolder | undefined): DatabaseLock {
  const holder: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  if (path === ':memory:' || path === '') return { holder, release: () => undefined };
  mkdirSync(dirname(path), { recursive: true });
  const lock = openSqlite(`${path}.lock`);
  try {
    lock.pragma('busy_timeout = 0');
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      let found: LockHolder | undefined;
      try {
        found = existsSync(path) ? readHolder() : undefined;
      } catch {
        found = undefined;
      }
      // A holder record of a process that is gone is an earlier run's: the new holder has not written yet.
      throw new DatabaseInUseError(path, found !== undefined && found.pid !== process.pid && alive(found) ? found : undefined);
    }
    throw error;
  }
  let released = false;
  return {
    holder,
    release() {
      if (released) return;
      released = true;
      try {
        lock.exec('ROLLBACK');
      } finally {
        lock.close();
      }
    },
  };
}

function alive(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
