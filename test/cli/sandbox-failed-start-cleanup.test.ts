/**
 * What a failed `paylink sandbox` start removes: the files it created, and nothing when it was refused because
 * another process holds the database (two starts on a fresh file at once: the refused one used to remove the
 * database, WAL and lock of the one that got the lock, whose next statement then failed with a disk I/O
 * error; test/reliability/one-sandbox-per-file.test.ts races real processes).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDatabasePath, cleanUpAfterFailedStart } from '../../src/cli/commands/sandbox.js';
import { DatabaseInUseError } from '../../src/sandbox/store/lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh `--db` path, its files missing when the start looks, then made (by this start or another process). */
function freshStart(): { db: string; created: string[]; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'paylink-cleanup-'));
  dirs.push(dir);
  const db = join(dir, 'data', 'sandbox.db');
  const created = checkDatabasePath(db);
  const files = [db, `${db}-wal`, `${db}-shm`, `${db}.lock`];
  return { db, created, files };
}

function make(files: string[]): void {
  for (const file of files) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
  }
}

describe('a failed start cleans up', () => {
  it('removes the database files and the folder it created when it fails for its own reason', () => {
    const { db, created, files } = freshStart();
    expect(created).toEqual(expect.arrayContaining(files));
    make(files);
    cleanUpAfterFailedStart(created, Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }));
    for (const file of files) expect(existsSync(file), file).toBe(false);
    expect(existsSync(dirname(db))).toBe(false);
  });

  it("removes nothing when another process holds the database: the files that were missing are that one's now", () => {
    const { db, created, files } = freshStart();
    make(files);
    cleanUpAfterFailedStart(created, new DatabaseInUseError(db, undefined));
    for (const file of files) expect(existsSync(file), file).toBe(true);
  });
});
