import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/context.js';
import { RandomIds, SeededIds, timeKeyOf } from '../../src/sandbox/domain/ids.js';
import type { LinkRecord } from '../../src/sandbox/domain/records.js';
import { linkRecord } from '../helpers/records.js';
import { migrate } from '../../src/sandbox/store/db.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';

let dir: string;
let dbPath: string;
let sandbox: Sandbox | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paylink-keys-'));
  dbPath = join(dir, 'keys.db');
});

afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function open(): Sandbox {
  sandbox = new Sandbox({ db: dbPath });
  return sandbox;
}

function link(id: string, trackingCode: string, businessId = 'keys-biz'): LinkRecord {
  return linkRecord(id, trackingCode, businessId);
}

/** A RandomIds-shaped id made at `ms` with sequence `seq` and the given 12 random hex digits at the end. */
function idAt(ms: number, seq: number, tail = '000000000000'): string {
  const time = ms.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-4${seq.toString(16).padStart(3, '0')}-8000-${tail}`;
}

/** Rows as stored, read from another connection after a commit, in rowid order. */
function storedRows(table = 'links'): Array<{ key: number; legacy: number; id: string }> {
  sandbox?.store.flush();
  const other = new Database(dbPath, { readonly: true });
  try {
    return other.prepare(`SELECT key, legacy, id FROM ${table} ORDER BY rowid`).all() as Array<{ key: number; legacy: number; id: string }>;
  } finally {
    other.close();
  }
}

/** A fresh read of the document from SQLite, not from the read cache. */
function reread(s: Sandbox, id: string): LinkRecord | undefined {
  s.links.forgetAll();
  return s.links.get(id);
}

describe("document tables keyed by the id's time", () => {
  it('stores random ids under their own key, with no legacy flag, and finds and updates them by id', async () => {
    const s = open();
    const ids = new RandomIds();
    const made = Array.from({ length: 50 }, () => ids.uuid());
    await Promise.all(made.map((id, i) => s.store.writeStatement(() => s.links.insert(link(id, `tc-${i}`)))));
    expect(storedRows()).toEqual(made.map((id) => ({ key: timeKeyOf(id), legacy: 0, id })));
    for (const id of made) expect(reread(s, id)?.id).toBe(id);
    await s.store.writeStatement(() => s.links.update({ ...s.links.get(made[7]!)!, attempts: 3 }));
    expect(reread(s, made[7]!)?.attempts).toBe(3);
    expect(reread(s, made[8]!)?.attempts).toBe(0);
  });

  it('flags ids that give no key (seeded, foreign, upper case) and finds them through the partial index', async () => {
    const s = open();
    const seeded = new SeededIds('keys-seed');
    const odd = [seeded.uuid(), seeded.uuid(), 'not-a-uuid', new RandomIds().uuid().toUpperCase()].filter((id) => timeKeyOf(id) === undefined);
    expect(odd.length).toBeGreaterThanOrEqual(3);
    await Promise.all(odd.map((id, i) => s.store.writeStatement(() => s.links.insert(link(id, `odd-${i}`)))));
    expect(storedRows().map((r) => [r.legacy, r.id])).toEqual(odd.map((id) => [1, id]));
    for (const id of odd) expect(reread(s, id)?.id).toBe(id);
    await s.store.writeStatement(() => s.links.update({ ...s.links.get(odd[0]!)!, status: 'CANCELLED' }));
    expect(reread(s, odd[0]!)?.status).toBe('CANCELLED');
    // The legacy lookup uses the partial index, not a scan of the table.
    const plan = s.store.db.prepare('EXPLAIN QUERY PLAN SELECT data FROM links WHERE id = ? AND legacy = 1').all('x') as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX links_legacy_id/);
    // A duplicate id among legacy rows is refused, as the old primary key refused it.
    expect(() => s.store.writeStatement(() => s.links.insert(link(odd[1]!, 'odd-again')))).toThrow(/UNIQUE.*links\.id/);
  });

  it('keeps rowids in creation order when the clock goes back, and two ids sharing a key both stay reachable', async () => {
    const s = open();
    const now = Date.now();
    const later = idAt(now, 5);
    const earlier = idAt(now - 10_000, 0); // a clock that went back ten seconds
    const sameKey = idAt(now, 5, 'ffffffffffff'); // same millisecond and sequence, other random digits
    const future = idAt(now + 3_600_000, 0); // an hour ahead: not a plausible RandomIds id
    for (const [i, id] of [later, earlier, sameKey, future].entries()) {
      await s.store.writeStatement(() => s.links.insert(link(id, `clock-${i}`)));
    }
    const rows = storedRows();
    expect(rows.map((r) => r.id)).toEqual([later, earlier, sameKey, future]);
    expect(rows.map((r) => r.legacy)).toEqual([0, 1, 1, 1]);
    expect(rows[0]!.key).toBe(timeKeyOf(later));
    for (const [i, id] of [later, earlier, sameKey, future].entries()) expect(reread(s, id)?.trackingCode).toBe(`clock-${i}`);
    expect(reread(s, idAt(now, 5, '111111111111'))).toBeUndefined();
    // An id made after those (past the keys SQLite picked) gets its own key again.
    const next = idAt(Date.now() + 1, 0);
    await s.store.writeStatement(() => s.links.insert(link(next, 'clock-next')));
    expect(storedRows().at(-1)).toEqual({ key: timeKeyOf(next), legacy: 0, id: next });
  });

  it('falls back to a legacy row when another connection took the key first', async () => {
    const s = open();
    const id = idAt(Date.now(), 9);
    const other = new Database(dbPath);
    try {
      other
        .prepare("INSERT INTO links (key, legacy, id, business_id, tracking_code, created_at, data) VALUES (?, 0, ?, 'other-biz', 'theirs', 0, ?)")
        .run(timeKeyOf(id), idAt(Date.now(), 9, 'aaaaaaaaaaaa'), JSON.stringify(link(idAt(Date.now(), 9, 'aaaaaaaaaaaa'), 'theirs', 'other-biz')));
    } finally {
      other.close();
    }
    await s.store.writeStatement(() => s.links.insert(link(id, 'mine')));
    expect(storedRows().map((r) => r.legacy)).toEqual([0, 1]);
    expect(reread(s, id)?.trackingCode).toBe('mine');
  });
});

describe('migration 5 (rowid keys) from a version-4 database', () => {
  /** A database as paylink left it at schema version 4, with rows in each document table. */
  function version4Database(): void {
    const db = new Database(dbPath);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 4),
    );
    const insertLink = db.prepare('INSERT INTO links (id, business_id, tracking_code, created_at, data) VALUES (?, ?, ?, ?, ?)');
    // Inserted out of id order: listings follow insertion (rowid) order, which must survive.
    for (const [id, tc] of [
      ['c0000000-0000-4000-8000-000000000003', 'old-3'],
      ['a0000000-0000-4000-8000-000000000001', 'old-1'],
      ['b0000000-0000-4000-8000-000000000002', 'old-2'],
    ]) {
      insertLink.run(id, 'old-biz', tc, 1, JSON.stringify(link(id!, tc!, 'old-biz')));
    }
    db.prepare('INSERT INTO checkouts (id, business_id, tracking_code, created_at, data) VALUES (?, ?, ?, ?, ?)').run(
      'old-checkout',
      'old-biz',
      'co-1',
      1,
      JSON.stringify({ id: 'old-checkout', businessId: 'old-biz', trackingCode: 'co-1', createdAt: 1 }),
    );
    db.prepare('INSERT INTO payments (id, business_id, tracking_code, parent_kind, parent_id, created_at, data) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      'old-payment',
      'old-biz',
      null,
      'link',
      'a0000000-0000-4000-8000-000000000001',
      1,
      JSON.stringify({ id: 'old-payment', businessId: 'old-biz', createdAt: 1 }),
    );
    db.prepare('INSERT INTO tokens (id, business_id, tracking_code, fingerprint, created_at, data) VALUES (?, ?, ?, ?, ?, ?)').run(
      'old-token',
      'old-biz',
      null,
      'fp-1',
      1,
      JSON.stringify({ id: 'old-token', businessId: 'old-biz', createdAt: 1 }),
    );
    db.close();
  }

  it('keeps every row, its rowid order and the unique indexes; old rows are legacy and new ones keyed after them', async () => {
    version4Database();
    const s = open();
    expect(s.store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(storedRows().map((r) => [r.key, r.legacy, r.id])).toEqual([
      [1, 1, 'c0000000-0000-4000-8000-000000000003'],
      [2, 1, 'a0000000-0000-4000-8000-000000000001'],
      [3, 1, 'b0000000-0000-4000-8000-000000000002'],
    ]);
    expect(reread(s, 'a0000000-0000-4000-8000-000000000001')?.trackingCode).toBe('old-1');
    expect(s.checkouts.get('old-checkout')?.trackingCode).toBe('co-1');
    expect(s.payments.get('old-payment')?.id).toBe('old-payment');
    expect(s.tokens.get('old-token')?.id).toBe('old-token');
    expect(s.links.byTrackingCode('old-biz', 'old-2').map((l) => l.id)).toEqual(['b0000000-0000-4000-8000-000000000002']);

    // The unique indexes came through the rebuild.
    expect(() => s.store.writeStatement(() => s.links.insert(link(new RandomIds().uuid(), 'old-1', 'old-biz')))).toThrow(/UNIQUE.*tracking_code/);
    // The document tables' indexes (later migrations add tables of their own, webhooks for one).
    const indexes = s.store.db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('links', 'checkouts', 'payments', 'tokens') ORDER BY name",
      )
      .pluck()
      .all();
    expect(indexes).toEqual([
      'checkouts_legacy_id',
      'checkouts_tracking',
      'links_legacy_id',
      'links_tracking',
      'payments_legacy_id',
      'payments_parent',
      'payments_parent_payment',
      'payments_time_due',
      'payments_token',
      'payments_tracking',
      'payments_waiting_credits',
      'tokens_fingerprint',
      'tokens_legacy_id',
    ]);

    const fresh = new RandomIds().uuid();
    await s.store.writeStatement(() => s.links.insert(link(fresh, 'new-1', 'old-biz')));
    expect(storedRows().at(-1)).toEqual({ key: timeKeyOf(fresh), legacy: 0, id: fresh });
    await s.store.writeStatement(() => s.links.update({ ...s.links.get('c0000000-0000-4000-8000-000000000003')!, status: 'CANCELLED' }));
    expect(reread(s, 'c0000000-0000-4000-8000-000000000003')?.status).toBe('CANCELLED');
  });
});

describe('tracking-code indexes (migration 15)', () => {
  it('hold only rows with a tracking code, still refuse a duplicate and still serve the lookup', async () => {
    const s = open();
    const withCode = new RandomIds().uuid();
    await s.store.writeStatement(() => s.links.insert(link(withCode, 'order-1')));
    for (let i = 0; i < 5; i++) await s.store.writeStatement(() => s.links.insert({ ...link(new RandomIds().uuid(), 'x'), trackingCode: undefined }));
    s.store.flush();
    const other = new Database(dbPath, { readonly: true });
    try {
      // Each index is partial: rows without a tracking code add no entry to it.
      for (const name of ['links_tracking', 'checkouts_tracking', 'payments_tracking']) {
        const sql = other.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(name);
        expect(sql, name).toMatch(/WHERE tracking_code IS NOT NULL$/);
      }
      const plan = other
        .prepare('EXPLAIN QUERY PLAN SELECT data FROM links WHERE business_id = ? AND tracking_code = ?')
        .all('keys-biz', 'order-1')
        .map((row) => (row as { detail: string }).detail)
        .join('; ');
      expect(plan).toContain('USING INDEX links_tracking');
    } finally {
      other.close();
    }
    expect(s.links.byTrackingCode('keys-biz', 'order-1').map((l) => l.id)).toEqual([withCode]);
    expect(() => s.store.writeStatement(() => s.links.insert(link(new RandomIds().uuid(), 'order-1')))).toThrow(/UNIQUE.*tracking_code/);
  });
});
