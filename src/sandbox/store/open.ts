import type Database from 'better-sqlite3';
import type { CheckoutRecord, LinkRecord, PaymentRecord } from '../domain/records.js';
import { timeDueAt } from '../domain/time-settles.js';
import { AttemptRepository } from './attempts.js';
import { WaitingCreditRepository } from './waiting-credits.js';
import { BrowseRepository } from './browse.js';
import { openDatabase, openReader } from './db.js';
import { DocumentTable } from './document-table.js';
import { EventRepository } from './events.js';
import { storageFailure } from './failures.js';
import { FaultRepository } from './faults.js';
import { PendingPaymentRepository } from './pending-payments.js';
import { FormTokenRepository } from './form-tokens.js';
import { Store } from './group-commit.js';
import { HOLDER_KEY, lockDatabase, type LockHolder } from './lock.js';
import { MetaRepository } from './meta.js';
import { RequestLogRepository } from './request-log.js';
import { ResetRepository } from './reset.js';
import { SnapshotRepository } from './snapshots.js';
import { openSqlite } from './sqlite.js';
import { TokenTable } from './tokens.js';

/**
 * The repositories of one sandbox database, one per resource: the one list of them (services/deps.ts's
 * `Deps` extends it, context.ts's `Sandbox` holds what {@link openStore} returns).
 */
export interface Repositories {
  links: DocumentTable<LinkRecord>;
  checkouts: DocumentTable<CheckoutRecord>;
  payments: DocumentTable<PaymentRecord>;
  tokens: TokenTable;
  formTokens: FormTokenRepository;
  attempts: AttemptRepository;
  /** SEPA credits waiting to settle. */
  waitingCredits: WaitingCreditRepository;
  meta: MetaRepository;
  /** The stored rows of the request log (services/request-log.ts buffers in front of it). */
  requestLog: RequestLogRepository;
  browse: BrowseRepository;
  reset: ResetRepository;
  /** Stored events, deliveries and endpoints (services/events.ts reads them for what is committed). */
  eventStore: EventRepository;
  /** The stored API fault rules (services/faults.ts). */
  faultStore: FaultRepository;
  /** Payments still waiting, by creation time (what time settles). */
  pendingPayments: PendingPaymentRepository;
  /** Saved copies of the whole database (`<db>.snapshots/`, or in memory). */
  snapshots: SnapshotRepository;
}

/** An open sandbox database: its group-commit queue, this process as its lock holder, and its repositories. */
export interface OpenStore {
  store: Store;
  /** This process as the holder of the database's lock (store/lock.ts). */
  holder: LockHolder;
  repositories: Repositories;
}

/**
 * Opens (creating and migrating if needed) the SQLite file at `path`, or `:memory:`, and builds the
 * repositories on it. Each repository prepares its statements once, here.
 */
export function openStore(path: string): OpenStore {
  const lock = lockDatabase(path, () => readHolder(path));
  let db: Database.Database | undefined;
  try {
    db = openDatabase(path);
    if (path !== ':memory:') checkPages(db, path);
  } catch (error) {
    db?.close();
    lock.release();
    throw unusableOr(error, path);
  }
  const store = new Store(db);
  store.onClose(() => lock.release());
  // Reads outside writes see committed data only (document-table.ts); `:memory:` has one connection.
  const reader = path === ':memory:' ? undefined : openReader(path);
  if (reader !== undefined) store.onBeforeClose(() => reader.close());
  const reads = reader === undefined ? undefined : { store, reader };
  const meta = new MetaRepository(db);
  meta.set(HOLDER_KEY, lock.holder);
  const repositories: Repositories = {
    links: new DocumentTable<LinkRecord>(db, { table: 'links', reads }),
    checkouts: new DocumentTable<CheckoutRecord>(db, { table: 'checkouts', reads }),
    payments: new DocumentTable<PaymentRecord>(db, {
      table: 'payments',
      columns: {
        parent_kind: (p) => p.parentKind ?? null,
        parent_id: (p) => p.parentId ?? null,
        parent_payment_id: (p) => p.parentPaymentId ?? null,
        token_id: (p) => p.token?.token ?? null,
        time_due_at: (p) => timeDueAt(p) ?? null,
      },
      reads,
    }),
    tokens: new TokenTable(db, reads),
    formTokens: new FormTokenRepository(db),
    attempts: new AttemptRepository(db),
    waitingCredits: new WaitingCreditRepository(db),
    meta,
    requestLog: new RequestLogRepository(db),
    browse: new BrowseRepository(db),
    reset: new ResetRepository(db),
    eventStore: new EventRepository(db),
    faultStore: new FaultRepository(db),
    pendingPayments: new PendingPaymentRepository(db),
    snapshots: new SnapshotRepository(store, path),
  };
  return { store, holder: lock.holder, repositories };
}

/**
 * Thrown by {@link openStore} for a file SQLite cannot use (not a database, truncated, damaged pages,
 * read-only); `code` is `EDBUNUSABLE`, and the message says what to do.
 */
export class DatabaseUnusableError extends Error {
  readonly code = 'EDBUNUSABLE';
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DatabaseUnusableError';
  }
}

/**
 * `PRAGMA quick_check` at start: a file with damaged pages otherwise starts and then answers 500 to every
 * request that reads them. It reads every page once (0.1 s for a 190 MB file in the page cache here).
 */
function checkPages(db: Database.Database, path: string): void {
  const problems = db.pragma('quick_check(3)', { simple: false }) as Array<{ quick_check: string }>;
  if (problems.length === 1 && problems[0]!.quick_check === 'ok') return;
  throw new DatabaseUnusableError(
    path,
    `The database ${path} has damaged pages (SQLite's quick_check: ${problems.map((p) => p.quick_check.replace(/\*\*\* in database main \*\*\*\s*/, '').replace(/\s+/g, ' ')).join('; ')}). ` +
      `Save what can be read with \`sqlite3 ${path} .recover > recovered.sql\`, then move the file away (and its -wal and -shm files) or start with another --db file.`,
  );
}

/** The error to report for a failure to open or migrate the file at `path`. */
function unusableOr(error: unknown, path: string): unknown {
  if (error instanceof DatabaseUnusableError) return error;
  const kind = storageFailure(error);
  const said = (error as Error).message;
  if (kind === 'corrupt') {
    return new DatabaseUnusableError(
      path,
      `The file ${path} is not a usable SQLite database (SQLite says: ${said}): not a database, truncated or damaged. ` +
        'Point --db at another file, or move this one away (with its -wal and -shm files) to start with a new database.',
      { cause: error },
    );
  }
  if (kind === 'readonly') {
    return new DatabaseUnusableError(
      path,
      `The database ${path} cannot be opened for writing (SQLite says: ${said}). Make the file and its folder writable, or point --db at another file.`,
      { cause: error },
    );
  }
  return error;
}

/** The holder a running sandbox recorded in the database at `path`, read without taking any lock. */
function readHolder(path: string): LockHolder | undefined {
  const db = openSqlite(path, { readonly: true, fileMustExist: true });
  try {
    const value = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(HOLDER_KEY) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as LockHolder);
  } finally {
    db.close();
  }
}
