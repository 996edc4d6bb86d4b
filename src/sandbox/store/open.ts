import Database from 'better-sqlite3';
import type { CheckoutRecord, LinkRecord, PaymentRecord } from '../domain/records.js';
import { AttemptRepository } from './attempts.js';
import { BrowseRepository } from './browse.js';
import { openDatabase, openReader } from './db.js';
import { DocumentTable } from './document-table.js';
import { EventRepository } from './events.js';
import { FormTokenRepository } from './form-tokens.js';
import { Store } from './group-commit.js';
import { HOLDER_KEY, lockDatabase, type LockHolder } from './lock.js';
import { MetaRepository } from './meta.js';
import { RequestLogRepository } from './request-log.js';
import { ResetRepository } from './reset.js';
import { TokenTable } from './tokens.js';

/** An open sandbox database: its group-commit queue and one repository per resource. */
export interface OpenStore {
  store: Store;
  links: DocumentTable<LinkRecord>;
  checkouts: DocumentTable<CheckoutRecord>;
  payments: DocumentTable<PaymentRecord>;
  tokens: TokenTable;
  formTokens: FormTokenRepository;
  attempts: AttemptRepository;
  meta: MetaRepository;
  requestLog: RequestLogRepository;
  browse: BrowseRepository;
  reset: ResetRepository;
  events: EventRepository;
  /** This process as the holder of the database's lock (store/lock.ts). */
  holder: LockHolder;
}

/**
 * Opens (creating and migrating if needed) the SQLite file at `path`, or `:memory:`, and builds the
 * repositories on it. Each repository prepares its statements once, here.
 */
export function openStore(path: string): OpenStore {
  const lock = lockDatabase(path, () => readHolder(path));
  let db;
  try {
    db = openDatabase(path);
  } catch (error) {
    lock.release();
    throw error;
  }
  const store = new Store(db);
  store.onClose(() => lock.release());
  // Reads outside writes see committed data only (document-table.ts); `:memory:` has one connection.
  const reader = path === ':memory:' ? undefined : openReader(path);
  if (reader !== undefined) store.onClose(() => reader.close());
  const reads = reader === undefined ? undefined : { store, reader };
  const meta = new MetaRepository(db);
  meta.set(HOLDER_KEY, lock.holder);
  return {
    store,
    holder: lock.holder,
    links: new DocumentTable<LinkRecord>(db, { table: 'links', reads }),
    checkouts: new DocumentTable<CheckoutRecord>(db, { table: 'checkouts', reads }),
    payments: new DocumentTable<PaymentRecord>(db, {
      table: 'payments',
      columns: {
        parent_kind: (p) => p.parentKind ?? null,
        parent_id: (p) => p.parentId ?? null,
        parent_payment_id: (p) => p.parentPaymentId ?? null,
        token_id: (p) => p.token?.token ?? null,
      },
      reads,
    }),
    tokens: new TokenTable(db, reads),
    formTokens: new FormTokenRepository(db),
    attempts: new AttemptRepository(db),
    meta,
    requestLog: new RequestLogRepository(db),
    browse: new BrowseRepository(db),
    reset: new ResetRepository(db),
    events: new EventRepository(db),
  };
}

/** The holder a running sandbox recorded in the database at `path`, read without taking any lock. */
function readHolder(path: string): LockHolder | undefined {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const value = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(HOLDER_KEY) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as LockHolder);
  } finally {
    db.close();
  }
}
