import type { PaymentRecord } from '../domain/records.js';
import { destinationOf } from '../domain/destinations.js';
import { timeDueAt } from '../domain/time-settles.js';
import type { Database as Db } from 'better-sqlite3';

/**
 * The schema, as an ordered list of migrations. `PRAGMA user_version` records how many have run; a new
 * change is a new entry at the end, never an edit of an old one, and schema.ts (what a new file is created
 * from in one step) changes with it.
 *
 * Resources are stored as JSON documents (`data`) beside the columns that are looked up or constrained,
 * so adding a returned field needs no migration while uniqueness and lookups stay in SQL.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
  /** Rows the SQL cannot fill (a rule of domain/), run after `sql` in the same transaction. */
  backfill?: (db: Db) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'links, checkouts, payments, tokens, hosted-form tokens, request log, meta',
    sql: `
      CREATE TABLE links (
        id TEXT PRIMARY KEY,
        business_id TEXT NOT NULL,
        tracking_code TEXT,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE UNIQUE INDEX links_tracking ON links (business_id, tracking_code);
      CREATE INDEX links_created ON links (created_at);

      CREATE TABLE checkouts (
        id TEXT PRIMARY KEY,
        business_id TEXT NOT NULL,
        tracking_code TEXT,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE UNIQUE INDEX checkouts_tracking ON checkouts (business_id, tracking_code);
      CREATE INDEX checkouts_created ON checkouts (created_at);

      CREATE TABLE payments (
        id TEXT PRIMARY KEY,
        business_id TEXT NOT NULL,
        tracking_code TEXT,
        parent_kind TEXT,
        parent_id TEXT,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX payments_tracking ON payments (business_id, tracking_code);
      CREATE INDEX payments_parent ON payments (parent_id, created_at);
      CREATE INDEX payments_created ON payments (created_at);

      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        business_id TEXT NOT NULL,
        tracking_code TEXT,
        fingerprint TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE UNIQUE INDEX tokens_fingerprint ON tokens (business_id, fingerprint);
      CREATE INDEX tokens_created ON tokens (created_at);

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
      CREATE INDEX request_log_at ON request_log (at);

      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    description: 'charge attempts per link, checkout or trackingCode (retry test cards)',
    sql: `
      CREATE TABLE charge_attempts (
        attempt_key TEXT PRIMARY KEY,
        attempts INTEGER NOT NULL
      );
    `,
  },
  {
    version: 3,
    description: 'drop the unused request_log index on at (the log is read by seq; every logged request paid for it)',
    sql: `
      DROP INDEX IF EXISTS request_log_at;
    `,
  },
  {
    version: 4,
    description: 'drop the created_at indexes: listings order by rowid (insertion order), and every creation paid for them',
    sql: `
      DROP INDEX IF EXISTS links_created;
      DROP INDEX IF EXISTS checkouts_created;
      DROP INDEX IF EXISTS payments_created;
      DROP INDEX IF EXISTS tokens_created;
    `,
  },
  {
    version: 5,
    description:
      'key the document tables by an INTEGER rowid taken from the id (see timeKeyOf) instead of a separate index on the id text; rows already stored keep their rowid and are marked legacy, found through a partial index',
    sql: `
      ${rekey('links', 'tracking_code TEXT', ['CREATE UNIQUE INDEX links_tracking ON links (business_id, tracking_code)'])}
      ${rekey('checkouts', 'tracking_code TEXT', ['CREATE UNIQUE INDEX checkouts_tracking ON checkouts (business_id, tracking_code)'])}
      ${rekey('payments', 'tracking_code TEXT, parent_kind TEXT, parent_id TEXT', [
        'CREATE INDEX payments_tracking ON payments (business_id, tracking_code)',
        'CREATE INDEX payments_parent ON payments (parent_id, created_at)',
      ])}
      ${rekey('tokens', 'tracking_code TEXT, fingerprint TEXT NOT NULL', ['CREATE UNIQUE INDEX tokens_fingerprint ON tokens (business_id, fingerprint)'])}
    `,
  },
  {
    version: 6,
    description:
      'webhooks: endpoints per business, events (one per payment change, body stored byte for byte), deliveries (one per event and destination, in order per payment) and every delivery attempt',
    sql: `
      CREATE TABLE webhook_endpoints (
        hook_id TEXT PRIMARY KEY,
        business_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX webhook_endpoints_business ON webhook_endpoints (business_id);

      CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        business_id TEXT NOT NULL,
        payment_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX events_payment ON events (payment_id);

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
      );
      CREATE INDEX deliveries_pending ON deliveries (next_at) WHERE status = 'pending';
      CREATE INDEX deliveries_event ON deliveries (event_seq);
      CREATE INDEX deliveries_order ON deliveries (target, order_key, id) WHERE status = 'pending';

      CREATE TABLE delivery_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        delivery_id INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id);
    `,
  },
  {
    version: 7,
    description:
      'pending webhook deliveries found in id order through a partial index on id (the index on next_at left the worker scanning every delivery ever made)',
    sql: `
      DROP INDEX IF EXISTS deliveries_pending;
      CREATE INDEX deliveries_due ON deliveries (id) WHERE status = 'pending';
    `,
  },
  {
    version: 8,
    description:
      "payments' original payment (captures, cancels, refunds) and card token as columns with partial indexes (the dashboard's payment and token pages found them with json_extract over every payment); hosted-form tokens pruned by creation time through an index",
    sql: `
      ALTER TABLE payments ADD COLUMN parent_payment_id TEXT;
      ALTER TABLE payments ADD COLUMN token_id TEXT;
      UPDATE payments SET parent_payment_id = json_extract(data, '$.parentPaymentId'), token_id = json_extract(data, '$.token.token')
        WHERE json_valid(data);
      CREATE INDEX payments_parent_payment ON payments (parent_payment_id) WHERE parent_payment_id IS NOT NULL;
      CREATE INDEX payments_token ON payments (token_id) WHERE token_id IS NOT NULL;
      CREATE INDEX form_tokens_created ON form_tokens (created_at);
    `,
  },
  {
    version: 9,
    description:
      'hosted-form tokens carry their own signature and are stored only once used: the unused ones stored by earlier versions go (they would be refused now)',
    sql: `
      DELETE FROM form_tokens WHERE used_at IS NULL;
    `,
  },
  {
    version: 10,
    description: 'API fault rules (docs/faults.md): configuration kept across restarts, in the order added',
    sql: `
      CREATE TABLE fault_rules (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        data TEXT NOT NULL
      );
    `,
  },
  {
    version: 11,
    description: 'payments still waiting (result 2) by creation time: the sweep of what time settles (services/time-settles.ts)',
    sql: `
      CREATE INDEX payments_waiting ON payments (created_at) WHERE json_extract(data, '$.result') = 2;
    `,
  },
  {
    version: 12,
    description: 'SEPA credits waiting to settle (result 1), found by their settlement time through a partial index that holds them only',
    sql: `
      CREATE INDEX payments_waiting_credits ON payments (json_extract(data, '$.settlesAt'))
        WHERE json_extract(data, '$.action') = 'CREDIT' AND json_extract(data, '$.result') = 1;
    `,
  },
  {
    version: 13,
    description:
      'the moment time settles each waiting payment (domain/time-settles.ts timeDueAt) as a column with a partial index: the sweep reads what is due in due order (by creation time, 500 payments that wait for good hid every later one)',
    sql: `
      ALTER TABLE payments ADD COLUMN time_due_at INTEGER;
      DROP INDEX IF EXISTS payments_waiting;
      CREATE INDEX payments_time_due ON payments (time_due_at, key) WHERE time_due_at IS NOT NULL;
    `,
    backfill(db) {
      const update = db.prepare('UPDATE payments SET time_due_at = ? WHERE key = ?');
      const rows = db.prepare("SELECT key, data FROM payments WHERE json_valid(data) AND json_extract(data, '$.result') IN (1, 2)").all() as Array<{
        key: number;
        data: string;
      }>;
      for (const row of rows) {
        const due = timeDueAt(JSON.parse(row.data) as PaymentRecord);
        if (due !== undefined) update.run(due, row.key);
      }
    },
  },
  {
    version: 14,
    description:
      "each webhook delivery's destination (scheme, host and port: domain/destinations.ts) as a column, with a partial index of the pending ones by destination and due time: the worker picks per destination, so one destination's backlog (16,384 due deliveries to a hanging endpoint) no longer hides every other business's",
    sql: `
      ALTER TABLE deliveries ADD COLUMN destination TEXT NOT NULL DEFAULT '';
      CREATE INDEX deliveries_destination ON deliveries (destination, next_at, id) WHERE status = 'pending';
    `,
    backfill(db) {
      const update = db.prepare('UPDATE deliveries SET destination = ? WHERE id = ?');
      const rows = db.prepare("SELECT id, url FROM deliveries WHERE status = 'pending'").all() as Array<{ id: number; url: string }>;
      for (const row of rows) update.run(destinationOf(row.url), row.id);
    },
  },
  {
    version: 15,
    description:
      'the tracking-code indexes hold only rows that have a tracking code: a row without one can never conflict (NULLs are distinct) nor be found by one, yet every link, checkout and payment created without one paid for an index entry (measured: a third of the insert-and-commit cost of a batch of such links)',
    sql: `
      DROP INDEX IF EXISTS links_tracking;
      CREATE UNIQUE INDEX links_tracking ON links (business_id, tracking_code) WHERE tracking_code IS NOT NULL;
      DROP INDEX IF EXISTS checkouts_tracking;
      CREATE UNIQUE INDEX checkouts_tracking ON checkouts (business_id, tracking_code) WHERE tracking_code IS NOT NULL;
      DROP INDEX IF EXISTS payments_tracking;
      CREATE INDEX payments_tracking ON payments (business_id, tracking_code) WHERE tracking_code IS NOT NULL;
    `,
  },
];

/**
 * Migration 5's SQL for one document table (part of that migration: never change it, add a migration).
 * Rebuilds the table with `key INTEGER PRIMARY KEY` (the rowid) and a `legacy` flag. Rows whose id does not
 * give a usable key (see DocumentTable.insert) are flagged and found through the partial unique index on
 * id, which no other row pays for. Existing rows keep their rowid, so listings keep their order, and are
 * all flagged.
 */
function rekey(table: string, columns: string, indexes: string[]): string {
  const names = ['id', 'business_id', ...columns.split(',').map((c) => c.trim().split(' ')[0]), 'created_at', 'data'];
  return `
      CREATE TABLE ${table}_v5 (
        key INTEGER PRIMARY KEY,
        id TEXT NOT NULL,
        legacy INTEGER NOT NULL DEFAULT 0,
        business_id TEXT NOT NULL,
        ${columns},
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      INSERT INTO ${table}_v5 (key, legacy, ${names.join(', ')}) SELECT rowid, 1, ${names.join(', ')} FROM ${table};
      DROP TABLE ${table};
      ALTER TABLE ${table}_v5 RENAME TO ${table};
      CREATE UNIQUE INDEX ${table}_legacy_id ON ${table} (id) WHERE legacy = 1;
      ${indexes.map((sql) => `${sql};`).join('\n      ')}`;
}
