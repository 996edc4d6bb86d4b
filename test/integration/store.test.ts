import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/context.js';
import type { LinkRecord } from '../../src/sandbox/domain/records.js';
import { linkRecord } from '../helpers/records.js';

let dir: string;
let sandbox: Sandbox;

function link(id: string, trackingCode: string): LinkRecord {
  return linkRecord(id, trackingCode, 'store-biz');
}

/** What another connection sees: only committed rows. */
function committedIds(): string[] {
  const other = new Database(join(dir, 'store.db'), { readonly: true });
  try {
    return other.prepare('SELECT id FROM links ORDER BY rowid').pluck().all() as string[];
  } finally {
    other.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paylink-store-'));
  sandbox = new Sandbox({ db: join(dir, 'store.db') });
});

afterEach(() => {
  sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('group commit', () => {
  it('commits writes made in the same turn together, and a failing one-statement write undoes only itself', async () => {
    const { store, links } = sandbox;
    const first = store.writeStatement(() => links.insert(link('id-1', 'tc-1')));
    // Same trackingCode for the same business: the unique index refuses it.
    expect(() => store.writeStatement(() => links.insert(link('id-2', 'tc-1')))).toThrow(/UNIQUE/);
    const third = store.writeStatement(() => links.insert(link('id-3', 'tc-3')));
    // Nothing is committed before the batch is.
    expect(committedIds()).toEqual([]);
    await Promise.all([first, third]);
    expect(committedIds()).toEqual(['id-1', 'id-3']);
    expect(links.get('id-2')).toBeUndefined();
    expect(links.get('id-3')?.trackingCode).toBe('tc-3');
  });

  it('a failing multi-statement write is undone whole, while the writes around it commit', async () => {
    const { store, links } = sandbox;
    const first = store.write(() => links.insert(link('id-1', 'tc-1')));
    expect(() =>
      store.write(() => {
        links.insert(link('id-2', 'tc-2'));
        links.insert(link('id-3', 'tc-1'));
      }),
    ).toThrow(/UNIQUE/);
    const last = store.write(() => links.insert(link('id-4', 'tc-4')));
    await Promise.all([first, last]);
    expect(committedIds()).toEqual(['id-1', 'id-4']);
    expect(links.get('id-2')).toBeUndefined();
  });

  it('an update of a missing document fails without touching the batch', async () => {
    const { store, links } = sandbox;
    const first = store.writeStatement(() => links.insert(link('id-1', 'tc-1')));
    expect(() => store.writeStatement(() => links.update(link('nobody', 'tc-9')))).toThrow(/no row nobody/);
    await first;
    const updated = { ...links.get('id-1')!, attempts: 2 };
    await store.writeStatement(() => links.update(updated));
    expect(committedIds()).toEqual(['id-1']);
    const other = new Database(join(dir, 'store.db'), { readonly: true });
    try {
      expect(JSON.parse(other.prepare('SELECT data FROM links').pluck().get() as string).attempts).toBe(2);
    } finally {
      other.close();
    }
  });
});
