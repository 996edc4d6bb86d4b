/**
 * Issue 16, item 1: another connection holding the database's write lock must not end the sandbox; the
 * requests that need the lock answer a retry-able envelope, and reads go on.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { eventually } from '../helpers/sandbox.js';
import { json, linkBody, postJson, startProcess, tempDir } from './process.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('a second connection holding BEGIN IMMEDIATE for 6 s gets 503 envelopes for writes, answered reads, and no crash', async () => {
  const db = join(tmp.dir, 'busy.db');
  const sandbox = await startProcess(db);
  try {
    const created = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, linkBody());
    expect(created.status).toBe(200);
    const linkId = created.body.body.link.linkId as string;

    const other = new Database(db);
    other.pragma('busy_timeout = 2000');
    other.exec('BEGIN IMMEDIATE');
    other.prepare("INSERT INTO meta (key, value) VALUES ('held-by-test', '1') ON CONFLICT DO NOTHING").run();
    const heldUntil = Date.now() + 6_000;
    try {
      // Reads are answered, and logged (the request log's timer meets the lock: before the fix it crashed).
      const read = await json(`${sandbox.url}/gateway/v3/paymentlinks/${linkId}?businessId=biz-rel`);
      expect(read.status).toBe(200);

      const refused = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, linkBody());
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.result).toBe(-3);
      expect(refused.body.body.error.code).toBe(9001);
      expect(refused.body.body.error.message).toMatch(/locked by another process.*retry/i);

      // Keep asking while the lock is held (the test's own 6 s, so the request log's timer meets the lock):
      // reads keep answering.
      while (Date.now() < heldUntil) {
        const again = await json(`${sandbox.url}/gateway/v3/paymentlinks/${linkId}?businessId=biz-rel`);
        expect(again.status).toBe(200);
        // A fixed pace, no event: the request log's timer meeting the lock happens inside the sandbox process
        // and shows nowhere outside it; spreading the reads over the whole time the lock is held lets that
        // timer (retrying every second) fire while it is, without a busy loop of reads.
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(sandbox.child.exitCode).toBeNull();
    // Writes are taken again once the lock is released (a refused one makes nothing).
    const after = await eventually(
      () => postJson(`${sandbox.url}/gateway/v3/paymentlinks`, linkBody()),
      (r) => r.status !== 503,
    );
    expect(after.status).toBe(200);
    // The reads answered during the lock were logged once it was released.
    const log = await eventually(
      () => json(`${sandbox.url}/__sandbox/requests?path=${linkId}&limit=100`),
      (l) => l.status === 200 && l.body.body.requests.length > 3,
    );
    expect(log.body.body.requests.length).toBeGreaterThan(3);
    expect(sandbox.child.exitCode).toBeNull();
    expect(sandbox.stderr()).not.toMatch(/Uncaught|SqliteError.*\n\s+at /);
  } finally {
    await sandbox.stop();
  }
}, 30_000);
