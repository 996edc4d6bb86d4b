/**
 * The schema the migrations (migrations.ts) end with, as one script: a new database file is created from it in one
 * step instead of replaying every migration in turn (store/db.ts `migrate`), which took about 5 ms of the first
 * start on a new file against 2 ms for this. Existing files are still brought up to date by the migrations.
 *
 * The statements are SQLite's own text of the migrated schema (`sqlite_master.sql`: spacing, the quoted names
 * left by migration 5's renames and the columns appended by ALTER TABLE included), tables first; SQLite adds
 * `sqlite_sequence` itself with the first AUTOINCREMENT table. A database made either way has the same schema:
 * test/integration/schema.test.ts compares their `sqlite_master`, `user_version` and rows (a migration that seeds rows
 * must have this script seed them too). A new migration changes this script too; that test prints the text to put here.
 */
export interface Schema {
  /** The `user_version` of a database this script creates: the last migration's version. */
  version: number;
  sql: string;
}

export const SCHEMA: Schema = {
  version: 15,
  sql: `
CREATE TABLE form_tokens (
        token TEXT PRIMARY KEY,
        target_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        used_at INTEGER,
        outcome TEXT
      );
CREATE TABLE request_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        status INTEGER NOT NULL,
        business_id TEXT,
        duration_ms REAL NOT NULL,
        request TEXT,
        response TEXT
      );
CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
CREATE TABLE charge_attempts (
        attempt_key TEXT PRIMARY KEY,
        attempts INTEGER NOT NULL
      );
CREATE TABLE "links" (
        key INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        legacy INTEGER NOT NULL DEFAULT 0,
        business_id TEXT NOT NULL,
        tracking_code TEXT,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
CREATE TABLE "checkouts" (
        key INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        legacy INTEGER NOT NULL DEFAULT 0,
        business_id TEXT NOT NULL,
        tracking_code TEXT,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
CREATE TABLE "payments" (
        key INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        legacy INTEGER NOT NULL DEFAULT 0,
        business_id TEXT NOT NULL,
        tracking_code TEXT, parent_kind TEXT, parent_id TEXT,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      , parent_payment_id TEXT, token_id TEXT, time_due_at INTEGER);
CREATE TABLE "tokens" (
        key INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        legacy INTEGER NOT NULL DEFAULT 0,
        business_id TEXT NOT NULL,
        tracking_code TEXT, fingerprint TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
CREATE TABLE webhook_endpoints (
        hook_id TEXT PRIMARY KEY,
        business_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        business_id TEXT NOT NULL,
        payment_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        body TEXT NOT NULL
      );
CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_seq INTEGER NOT NULL REFERENCES events (seq) ON DELETE CASCADE,
        target TEXT NOT NULL,
        order_key TEXT NOT NULL,
        hook_id TEXT NOT NULL,
        url TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      , destination TEXT NOT NULL DEFAULT '');
CREATE TABLE delivery_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        delivery_id INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
CREATE TABLE fault_rules (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        data TEXT NOT NULL
      );
CREATE UNIQUE INDEX links_legacy_id ON links (id) WHERE legacy = 1;
CREATE UNIQUE INDEX checkouts_legacy_id ON checkouts (id) WHERE legacy = 1;
CREATE UNIQUE INDEX payments_legacy_id ON payments (id) WHERE legacy = 1;
CREATE INDEX payments_parent ON payments (parent_id, created_at);
CREATE UNIQUE INDEX tokens_legacy_id ON tokens (id) WHERE legacy = 1;
CREATE UNIQUE INDEX tokens_fingerprint ON tokens (business_id, fingerprint);
CREATE INDEX webhook_endpoints_business ON webhook_endpoints (business_id);
CREATE INDEX events_payment ON events (payment_id);
CREATE INDEX deliveries_event ON deliveries (event_seq);
CREATE INDEX deliveries_order ON deliveries (target, order_key, id) WHERE status = 'pending';
CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id);
CREATE INDEX deliveries_due ON deliveries (id) WHERE status = 'pending';
CREATE INDEX payments_parent_payment ON payments (parent_payment_id) WHERE parent_payment_id IS NOT NULL;
CREATE INDEX payments_token ON payments (token_id) WHERE token_id IS NOT NULL;
CREATE INDEX form_tokens_created ON form_tokens (created_at);
CREATE INDEX payments_waiting_credits ON payments (json_extract(data, '$.settlesAt'))
        WHERE json_extract(data, '$.action') = 'CREDIT' AND json_extract(data, '$.result') = 1;
CREATE INDEX payments_time_due ON payments (time_due_at, key) WHERE time_due_at IS NOT NULL;
CREATE INDEX deliveries_destination ON deliveries (destination, next_at, id) WHERE status = 'pending';
CREATE UNIQUE INDEX links_tracking ON links (business_id, tracking_code) WHERE tracking_code IS NOT NULL;
CREATE UNIQUE INDEX checkouts_tracking ON checkouts (business_id, tracking_code) WHERE tracking_code IS NOT NULL;
CREATE INDEX payments_tracking ON payments (business_id, tracking_code) WHERE tracking_code IS NOT NULL;
`,
};
