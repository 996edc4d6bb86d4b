/**
 * Issue 32, items 8, 9 and 10: a snapshot holds no secret (restore keeps the running ones); files a save
 * killed midway left behind are removed at the next start and never listed; a tampered snapshot (empty,
 * not SQLite, rows of another shape) is refused with a 4xx envelope and the current state is kept.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const SECRET = 'snapshot-webhook-secret-0001';
const sb = useSandbox({ webhookSecret: SECRET });
const BIZ = 'biz-snapfiles';

async function pay(): Promise<string> {
  const res = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: BIZ },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('snap') },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' },
    },
  });
  expect(res.status).toBe(200);
  return res.body.body.transaction.id as string;
}

const snapshotFile = (name: string) => join(`${sb.dbPath}.snapshots`, `${name}.db`);

describe('snapshot files', () => {
  it('leaves every secret out of a snapshot, and a restore keeps the running ones', async () => {
    // A token makes the fingerprint key exist; a hosted form the form-token key.
    await pay();
    const made = await sb.post('/gateway/v3/tokens', {
      header: { businessId: BIZ },
      body: { card: { number: '4111111111111111', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' } },
    });
    expect(made.status).toBe(200);
    const live = new Database(sb.dbPath, { readonly: true });
    const liveSecrets = live.prepare("SELECT key, value FROM meta WHERE key LIKE '%secret%'").all() as Array<{ key: string; value: string }>;
    live.close();
    expect(liveSecrets.map((r) => r.key).sort()).toEqual(expect.arrayContaining(['tokens.secret', 'formTokens.secret']));

    expect((await sb.post('/__sandbox/snapshots', { name: 'no-secrets' })).status).toBe(200);
    const bytes = readFileSync(snapshotFile('no-secrets')).toString('latin1');
    for (const { value } of liveSecrets) expect(bytes).not.toContain(JSON.parse(value) as string);
    expect(bytes).not.toContain(SECRET);

    expect((await sb.post('/__sandbox/snapshots/no-secrets/restore', {})).status).toBe(200);
    // The same card still finds its token: the fingerprint key is the running one.
    const again = await sb.post('/gateway/v3/tokens', {
      header: { businessId: BIZ },
      body: { card: { number: '4111111111111111', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' } },
    });
    expect(again.body.body.token).toBe(made.body.body.token);
  });

  it('refuses an empty, a foreign and a reshaped snapshot with 400, keeping the current state', async () => {
    const id = await pay();
    expect((await sb.post('/__sandbox/snapshots', { name: 'good' })).status).toBe(200);
    const dir = `${sb.dbPath}.snapshots`;
    writeFileSync(join(dir, 'empty.db'), '');
    writeFileSync(join(dir, 'text.db'), 'SQLite format 3 but not really');
    const other = new Database(join(dir, 'other.db'));
    other.exec('CREATE TABLE notes (x); PRAGMA user_version = 1;');
    other.close();
    writeFileSync(join(dir, 'reshaped.db'), readFileSync(snapshotFile('good')));
    const reshaped = new Database(join(dir, 'reshaped.db'));
    // The indexes over the documents would refuse the change; an attacker drops them first.
    for (const index of reshaped.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%json_extract%'").pluck().all() as string[]) {
      reshaped.exec(`DROP INDEX "${index}"`);
    }
    reshaped.exec("UPDATE payments SET data = 'not a document'");
    reshaped.close();
    writeFileSync(join(dir, 'retyped.db'), readFileSync(snapshotFile('good')));
    const retyped = new Database(join(dir, 'retyped.db'));
    retyped.exec("UPDATE payments SET created_at = 'yesterday'");
    retyped.close();

    for (const name of ['empty', 'text', 'other', 'reshaped', 'retyped']) {
      const res = await sb.post(`/__sandbox/snapshots/${name}/restore`, {});
      expect([name, res.status, res.body?.body?.error?.code]).toEqual([name, 400, 1002]);
      expect(res.body.body.error.message).toContain('Nothing was changed');
      const still = await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`);
      expect([name, still.status]).toEqual([name, 200]);
    }
    expect((await sb.get('/__sandbox/dashboard')).status).toBe(200);
    expect((await sb.post('/__sandbox/snapshots/good/restore', {})).status).toBe(200);
    // A snapshot this sandbox saved and restored, emptied afterwards, is checked again.
    expect((await sb.post('/__sandbox/snapshots', { name: 'later-emptied' })).status).toBe(200);
    expect((await sb.post('/__sandbox/snapshots/later-emptied/restore', {})).status).toBe(200);
    writeFileSync(snapshotFile('later-emptied'), '');
    expect((await sb.post('/__sandbox/snapshots/later-emptied/restore', {})).status).toBe(400);
    expect((await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`)).status).toBe(200);
  });

  it('removes what a save killed midway left, at the next start, and never lists it', async () => {
    const dir = `${sb.dbPath}.snapshots`;
    // What `kill -9` during a save leaves: a dead process's partial copy and its journal.
    const dead = 2 ** 22 + 12345;
    for (const suffix of ['.partial', '.partial-journal']) writeFileSync(join(dir, `.killed.${dead}.1700000000000${suffix}`), 'x'.repeat(1024));
    const listed = await sb.get('/__sandbox/snapshots');
    expect(JSON.stringify(listed.body)).not.toContain('killed');
    await sb.restart();
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
    expect(existsSync(snapshotFile('good'))).toBe(true);
  });

  it("keeps a :memory: sandbox's snapshots in a folder of its own, removed on close, or by the next one after a kill", async () => {
    const dead = 2 ** 22 + 54321;
    const abandoned = join(tmpdir(), `paylink-snapshots-${dead}-test`);
    mkdirSync(abandoned, { recursive: true });
    writeFileSync(join(abandoned, 'left.db'), 'x');
    const running = await startSandbox({ port: 0, db: ':memory:' });
    const mine = () => readdirSync(tmpdir()).filter((f) => f.startsWith(`paylink-snapshots-${process.pid}-`));
    try {
      expect(existsSync(abandoned)).toBe(false);
      const saved = await fetch(`${running.url}/__sandbox/snapshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'mem' }),
      });
      expect(saved.status).toBe(200);
      expect(mine().length).toBe(1);
    } finally {
      await running.close();
    }
    expect(mine()).toEqual([]);
  });
});
