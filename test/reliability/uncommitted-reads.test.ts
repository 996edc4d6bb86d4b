/**
 * Issue 16, item 3: nothing a client reads comes from a write that has not committed. A second connection
 * installs a trigger whose row breaks a deferred foreign key, so the commit of a link's cancellation fails
 * (as SQLITE_FULL did on a full disk) after the write itself succeeded inside the open transaction; reads
 * hammering the link meanwhile must never see it cancelled.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { until } from '../helpers/cli.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { json, linkBody, postJson, startProcess, tempDir } from './process.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('reads during a write whose commit fails answer the committed state, before and after', async () => {
  const db = join(tmp.dir, 'uncommitted.db');
  const sandbox = await startProcess(db);
  try {
    const other = new Database(db);
    other.exec(`
      CREATE TABLE test_parent (id INTEGER PRIMARY KEY);
      CREATE TABLE test_guard (x INTEGER REFERENCES test_parent (id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TRIGGER test_fail_commit AFTER UPDATE ON links BEGIN INSERT INTO test_guard VALUES (1); END;
    `);
    let seenCancelled = 0;
    let reads = 0;
    for (let round = 0; round < 3; round++) {
      const created = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, linkBody());
      expect(created.status).toBe(200);
      const id = created.body.body.link.linkId as string;
      const url = `${sandbox.url}/gateway/v3/paymentlinks/${id}?businessId=biz-rel`;
      // Warm the cache, as a polling client does.
      expect((await json(url)).status).toBe(200);
      let stop = false;
      const readers = Array.from({ length: 12 }, async () => {
        while (!stop) {
          const read = await json(url);
          reads += 1;
          if (JSON.stringify(read.body).includes('CANCELLED')) seenCancelled += 1;
        }
      });
      // Reads before, during and after the write whose commit fails: counted, not timed.
      const started = reads;
      await until(() => reads >= started + 20, 20_000);
      const cancel = await postJson(`${sandbox.url}/gateway/v3/paymentlinks/${id}/cancel`, { header: { businessId: 'biz-rel' } });
      const answered = reads;
      await until(() => reads >= answered + 20, 20_000);
      stop = true;
      await Promise.all(readers);
      expect(cancel.status).toBeGreaterThanOrEqual(500);
      const after = await json(url);
      expect(after.body.body.link.status).toBe('READY');
    }
    expect(reads).toBeGreaterThan(100);
    expect(seenCancelled).toBe(0);
    other.exec('DROP TRIGGER test_fail_commit; DROP TABLE test_guard; DROP TABLE test_parent;');
    other.close();
  } finally {
    await sandbox.stop();
  }
}, 30_000);

test('between a write and its failing commit, lookups by id and by tracking code answer the committed document', async () => {
  const db = join(tmp.dir, 'in-process.db');
  const running = await startSandbox({ port: 0, db });
  try {
    const created = await postJson(`${running.url}/gateway/v3/paymentlinks`, linkBody());
    const id = created.body.body.link.linkId as string;
    const { sandbox } = running;
    const link = sandbox.links.get(id)!;
    expect(link.status).toBe('READY');
    const other = new Database(db);
    other.exec(`
      CREATE TABLE test_parent (id INTEGER PRIMARY KEY);
      CREATE TABLE test_guard (x INTEGER REFERENCES test_parent (id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TRIGGER test_fail_commit AFTER UPDATE ON links BEGIN INSERT INTO test_guard VALUES (1); END;
    `);
    // The write has run (inside the open transaction) when write() returns; its commit comes a turn later.
    const pending = sandbox.store.write(() => sandbox.links.update({ ...link, status: 'CANCELLED' }));
    // What a GET handled in that turn reads: the committed link, from the cache and from SQLite.
    expect(sandbox.links.get(id)!.status).toBe('READY');
    sandbox.links.forgetAll();
    expect(sandbox.links.get(id)!.status).toBe('READY');
    expect(sandbox.links.byTrackingCode(link.businessId, link.trackingCode!)[0]!.status).toBe('READY');
    await expect(pending).rejects.toThrow(/FOREIGN KEY/);
    expect(sandbox.links.get(id)!.status).toBe('READY');
    other.exec('DROP TRIGGER test_fail_commit; DROP TABLE test_guard; DROP TABLE test_parent;');
    other.close();
    // A write that commits is seen by the next read, from the cache.
    await sandbox.store.write(() => sandbox.links.update({ ...link, status: 'CANCELLED' }));
    expect(sandbox.links.get(id)!.status).toBe('CANCELLED');
    const read = await json(`${running.url}/gateway/v3/paymentlinks/${id}?businessId=biz-rel`);
    expect(read.body.body.link.status).toBe('CANCELLED');
  } finally {
    await running.close();
  }
});
