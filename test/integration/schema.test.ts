/**
 * A new database file is created from the final schema in one step (store/schema.ts) instead of replaying every
 * migration; a database made either way must be the same: tables, indexes and their SQL, user_version, and the rows
 * it starts with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/sandbox/store/db.js';
import { MIGRATIONS } from '../../src/sandbox/store/migrations.js';
import { SCHEMA } from '../../src/sandbox/store/schema.js';

const dir = mkdtempSync(join(tmpdir(), 'paylink-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What defines a database's schema: every entry of sqlite_master (automatic indexes too) and user_version. */
function schemaOf(db: Database.Database): { entries: unknown[]; version: number } {
  const entries = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all();
  return { entries, version: db.pragma('user_version', { simple: true }) as number };
}

/** Every table's rows (none today): a migration that seeds rows must have schema.ts seed the same. */
function rowsOf(db: Database.Database): Record<string, unknown[]> {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  return Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all()]));
}

/** The script schema.ts should hold for the migrations as they are: SQLite's text of the migrated schema. */
function scriptOf(db: Database.Database): string {
  const statements = db
    .prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid")
    .pluck()
    .all() as string[];
  return statements.map((sql) => `${sql};`).join('\n');
}

describe('the schema of a new database', () => {
  it('is the same made in one step from schema.ts as made by replaying every migration', () => {
    const migrated = new Database(join(dir, 'migrated.db'));
    migrate(migrated, MIGRATIONS);
    const created = openDatabase(join(dir, 'created.db'));
    try {
      const expected = schemaOf(migrated);
      expect(SCHEMA.version, 'schema.ts version: the last migration').toBe(MIGRATIONS.at(-1)!.version);
      expect(expected.version).toBe(SCHEMA.version);
      expect(schemaOf(created), `schema.ts should hold, spacing included:\n${scriptOf(migrated)}`).toEqual(expected);
      expect(rowsOf(created), 'the rows a new database starts with').toEqual(rowsOf(migrated));
    } finally {
      migrated.close();
      created.close();
    }
  });

  it('is made from the schema script when the file is new, and by the migrations when the file has an older version', () => {
    const marker = { version: MIGRATIONS.at(-1)!.version, sql: 'CREATE TABLE made_from_schema (x);' };
    const fresh = new Database(':memory:');
    migrate(fresh, MIGRATIONS, marker);
    expect(fresh.prepare('SELECT name FROM sqlite_master').pluck().all()).toEqual(['made_from_schema']);
    expect(fresh.pragma('user_version', { simple: true })).toBe(marker.version);
    fresh.close();

    const older = new Database(':memory:');
    migrate(
      older,
      MIGRATIONS.filter((m) => m.version <= 4),
    );
    migrate(older, MIGRATIONS, marker);
    const names = older.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(names).toContain('fault_rules');
    expect(names).not.toContain('made_from_schema');
    older.close();
  });

  it('is not replaced by the schema script for a schema the migrations no longer end with', () => {
    const stale = { version: MIGRATIONS.at(-1)!.version - 1, sql: 'CREATE TABLE made_from_schema (x);' };
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS, stale);
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(names).toContain('fault_rules');
    expect(names).not.toContain('made_from_schema');
    db.close();
  });
});
