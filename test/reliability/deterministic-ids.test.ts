/**
 * Issue 16, item 9: `--deterministic` repeated request codes after `kill -9` (9, then 3 repeats over three
 * rounds): the seeded counter was written in the group commit's open transaction, while a GET's answer
 * (with its request code) leaves without waiting for any commit. Positions are now reserved in the database
 * ahead of use, so a killed sandbox may skip some, never repeat one.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { Sandbox } from '../../src/sandbox/context.js';
import { json, linkBody, postJson, startProcess, tempDir } from './process.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const CARD = { number: '4111111111111111', expiryMonth: '12', expiryYear: String(new Date().getUTCFullYear() + 3), cvv: '123', holderName: 'Ada Lovelace' };

test('request codes, ids and approval codes never repeat over five kill -9 rounds of mixed traffic', { timeout: 120_000 }, async () => {
  const db = join(tmp.dir, 'seeded.db');
  const seen = new Map<string, number>();
  const repeats: string[] = [];
  const note = (value: unknown, round: number) => {
    if (typeof value !== 'string' || value === '') return;
    if (seen.has(value)) repeats.push(`${value} (round ${seen.get(value)} and ${round})`);
    else seen.set(value, round);
  };
  for (let round = 1; round <= 5; round++) {
    const sandbox = await startProcess(db, ['--deterministic', 'rel-seed']);
    const base = sandbox.url;
    const created = await postJson(`${base}/gateway/v3/paymentlinks`, linkBody('biz-seed'));
    expect(created.status).toBe(200);
    const linkId = created.body.body.link.linkId as string;
    note(created.body.header.requestCode, round);
    note(linkId, round);
    // Writes and GETs interleaved: the GETs' answers leave while the writes' commit is still open.
    const traffic: Array<Promise<void>> = [];
    // Kill once half the 200 writes are answered (each with a new id), with the rest in flight.
    let answered = 0;
    let half!: () => void;
    const halfAnswered = new Promise<void>((resolve) => (half = resolve));
    for (let i = 0; i < 300; i++) {
      const kind = i % 3;
      const request =
        kind === 0
          ? postJson(`${base}/gateway/v3/paymentlinks`, linkBody('biz-seed'))
          : kind === 1
            ? postJson(`${base}/gateway/v3/payments`, {
                action: 'payment',
                header: { businessId: 'biz-seed' },
                body: { transaction: { amount: 5, currencyCode: 'EUR', trackingCode: `seed-${round}-${i}` }, card: CARD },
              })
            : json(`${base}/gateway/v3/paymentlinks/${linkId}?businessId=biz-seed`);
      traffic.push(
        request.then(
          (res) => {
            note(res.body?.header?.requestCode, round);
            if (kind === 2) return; // the same link each time
            if (res.status === 200 && ++answered === 100) half();
            note(res.body?.body?.link?.linkId, round);
            note(res.body?.body?.payment?.paymentId ?? res.body?.body?.paymentId, round);
            note(res.body?.body?.payment?.approvalCode ?? res.body?.body?.approvalCode, round);
          },
          () => undefined, // answers cut off by the kill
        ),
      );
    }
    await halfAnswered;
    await sandbox.kill9();
    await Promise.all(traffic);
  }
  // At least the ids of the 100 writes answered in each round, all different.
  expect(seen.size).toBeGreaterThanOrEqual(5 * 100);
  expect(repeats).toEqual([]);
});

test('request codes of reads answered just before kill -9 are not handed out again after the restart', async () => {
  const db = join(tmp.dir, 'reads.db');
  const seen = new Set<string>();
  const repeats: string[] = [];
  for (let round = 1; round <= 5; round++) {
    const sandbox = await startProcess(db, ['--deterministic', 'rel-reads']);
    // Reads only: their answers wait for no commit, while the request log keeps a transaction open.
    for (let burst = 0; burst < 5; burst++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => json(`${sandbox.url}/gateway/v3/paymentlinks/none?businessId=b`)));
      for (const a of answers) {
        const code = a.body.header.requestCode as string;
        if (seen.has(code)) repeats.push(`${code} (round ${round})`);
        seen.add(code);
      }
    }
    await sandbox.kill9();
  }
  expect(seen.size).toBe(500);
  expect(repeats).toEqual([]);
});

test('a clean stop goes on from the exact position: the next start hands out what a sandbox never stopped would', async () => {
  const continuous = join(tmp.dir, 'continuous.db');
  const stopped = join(tmp.dir, 'stopped.db');
  const codes = async (db: string, count: number, restartAfter?: number) => {
    let sandbox = await startProcess(db, ['--deterministic', 'rel-clean']);
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      if (i === restartAfter) {
        await sandbox.stop();
        sandbox = await startProcess(db, ['--deterministic', 'rel-clean']);
      }
      const res = await json(`${sandbox.url}/gateway/v3/paymentlinks/none?businessId=b`);
      out.push(res.body.header.requestCode as string);
    }
    await sandbox.stop();
    return out;
  };
  expect(await codes(stopped, 10, 4)).toEqual(await codes(continuous, 10));
});

test('the files as a kill -9 leaves them, taken while reads hand out codes inside an open batch, never lead to a repeat', () => {
  const db = join(tmp.dir, 'image.db');
  const image = join(tmp.dir, 'image-copy.db');
  const sandbox = new Sandbox({ db, seed: 'rel-image' });
  const handedOut = new Set<string>();
  try {
    for (let round = 0; round < 3; round++) {
      // The request log's rows open the batch's transaction and commit up to 50 ms later; a GET answered
      // meanwhile takes its request code without waiting for any commit.
      sandbox.store.writeDeferred(() => undefined);
      expect(sandbox.store.db.inTransaction).toBe(true);
      for (let i = 0; i < 300; i++) handedOut.add(sandbox.ids.requestCode());
      sandbox.store.flush();
    }
    sandbox.store.writeDeferred(() => undefined);
    for (let i = 0; i < 10; i++) handedOut.add(sandbox.ids.requestCode());
    // What a kill -9 now leaves on disk: the main file and the WAL's committed frames.
    copyFileSync(db, image);
    if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, `${image}-wal`);
  } finally {
    sandbox.close();
  }
  const restarted = new Sandbox({ db: image, seed: 'rel-image' });
  try {
    const after = Array.from({ length: 600 }, () => restarted.ids.requestCode());
    expect(after.filter((code) => handedOut.has(code))).toEqual([]);
  } finally {
    restarted.close();
  }
});
