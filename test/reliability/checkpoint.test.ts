/**
 * Issue 16, item 11: the main database file is never far behind the WAL. After kill -9, the main file
 * alone (its WAL lost) holds what was answered more than a second or so before.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { eventually } from '../helpers/sandbox.js';
import { linkBody, postJson, startProcess, tempDir } from './process.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

/** The links the main file holds by itself (a copy of it alone, as if the WAL had been lost). */
function mainFileLinks(db: string): string[] {
  const copy = join(tmp.dir, 'main-only.db');
  copyFileSync(db, copy);
  const check = new Database(copy, { readonly: true });
  try {
    return check.prepare('SELECT id FROM links').pluck().all() as string[];
  } catch {
    // Not yet checkpointed: the schema itself is still in the WAL.
    return [];
  } finally {
    check.close();
  }
}

test('links answered before a kill -9 reach the main file without its WAL while the sandbox runs', async () => {
  const db = join(tmp.dir, 'checkpoint.db');
  const sandbox = await startProcess(db);
  const ids: string[] = [];
  try {
    for (let i = 0; i < 50; i++) {
      const created = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, linkBody());
      expect(created.status).toBe(200);
      ids.push(created.body.body.link.linkId);
    }
    // The periodic checkpoint moves them into the main file while the sandbox runs, nothing asking it to.
    await eventually(
      async () => mainFileLinks(db),
      (stored) => ids.every((id) => stored.includes(id)),
    );
  } finally {
    await sandbox.kill9();
  }
  // The main file alone, as if the WAL had been lost.
  const stored = mainFileLinks(db);
  for (const id of ids) expect(stored).toContain(id);
});

test('a clean stop leaves no WAL behind: the main file holds everything', async () => {
  const db = join(tmp.dir, 'clean-stop.db');
  const sandbox = await startSandbox({ port: 0, db });
  const created = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, linkBody());
  expect(created.status).toBe(200);
  await sandbox.close();
  // The read-only connection closes first, so the writer, the last one, checkpoints and removes the WAL.
  expect(existsSync(`${db}-wal`)).toBe(false);
  const check = new Database(db, { readonly: true });
  try {
    expect(check.prepare('SELECT id FROM links').pluck().all()).toContain(created.body.body.link.linkId);
  } finally {
    check.close();
  }
});
