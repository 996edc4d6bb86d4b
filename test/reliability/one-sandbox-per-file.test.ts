/**
 * Issue 16, item 2: one database file serves one sandbox. A second refuses to start and names the first;
 * two starting at once on a fresh file give one sandbox and an intact schema; kill -9 frees the file.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { json, linkBody, postJson, runToExit, startProcess, tempDir, type SandboxProcess } from './process.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

test('a second sandbox on the same --db refuses to start, naming the pid and URL of the first, with exit code 2', async () => {
  const db = join(tmp.dir, 'one.db');
  const first = await startProcess(db);
  try {
    const second = await runToExit(db);
    expect(second.code).toBe(2);
    expect(second.output).toContain(`in use by paylink sandbox pid ${first.child.pid}`);
    expect(second.output).toContain(first.url);
    expect(second.output).toMatch(/another --db/);
    expect(second.output).not.toMatch(/\n\s+at /);
    // The first goes on serving.
    expect((await postJson(`${first.url}/gateway/v3/paymentlinks`, linkBody())).status).toBe(200);
  } finally {
    await first.stop();
  }
});

test('startSandbox in the same process refuses a file another sandbox holds, and takes it once that one closed', async () => {
  const db = join(tmp.dir, 'inproc.db');
  const a = await startSandbox({ port: 0, db });
  await expect(startSandbox({ port: 0, db })).rejects.toMatchObject({ code: 'EDBINUSE' });
  await a.close();
  const b = await startSandbox({ port: 0, db });
  await b.close();
});

test('kill -9 of the holder frees the file at once for the next sandbox, which keeps every answered write', async () => {
  const db = join(tmp.dir, 'killed.db');
  const first = await startProcess(db);
  const created = await postJson(`${first.url}/gateway/v3/paymentlinks`, linkBody());
  expect(created.status).toBe(200);
  await first.kill9();
  const next = await startProcess(db);
  try {
    const read = await json(`${next.url}/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=biz-rel`);
    expect(read.status).toBe(200);
  } finally {
    await next.stop();
  }
});

test('two sandboxes starting at once on a fresh file: one serves, the other refuses; the schema is whole (5 rounds)', async () => {
  for (let round = 0; round < 5; round++) {
    const db = join(tmp.dir, `race-${round}.db`);
    const results = await Promise.allSettled([startProcess(db), startProcess(db)]);
    const started = results.filter((r): r is PromiseFulfilledResult<SandboxProcess> => r.status === 'fulfilled').map((r) => r.value);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as { exitCode?: number; output?: string });
    try {
      expect(started).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.exitCode).toBe(2);
      expect(refused[0]!.output).toMatch(/is in use by/);
      expect(refused[0]!.output).not.toMatch(/already exists/);
      expect((await postJson(`${started[0]!.url}/gateway/v3/paymentlinks`, linkBody())).status).toBe(200);
    } finally {
      await Promise.all(started.map((s) => s.stop()));
    }
    const check = new Database(db, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(check.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(6);
    check.close();
  }
}, 60_000);
