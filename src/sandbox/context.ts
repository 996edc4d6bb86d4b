/**
 * The running sandbox's state: database, tables, clock, id source and configuration. One instance per
 * `startSandbox`; handlers receive it through the route request, nothing is global.
 */
import { SandboxClock, type ClockState } from './domain/clock.js';
import { RandomIds, SeededIds, type IdSource } from './domain/ids.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord, TokenRecord } from './domain/records.js';
import type { Statement } from 'better-sqlite3';
import { openDatabase, type Db } from './store/db.js';
import { DocumentTable } from './store/document-table.js';
import { Store } from './store/group-commit.js';

/** username -> password and the business ids those credentials own. */
export interface Credential {
  username: string;
  password: string;
  businessIds: string[];
}

export interface SandboxConfig {
  /** SQLite file, or `:memory:`. */
  db: string;
  /** Base URL the outside world reaches the sandbox at (tunnel, reverse proxy); overrides the listen URL. */
  publicUrl?: string | undefined;
  /** When set, the API requires HTTP Basic credentials (SANDBOX.md, "Authentication"). */
  credentials?: Credential[] | undefined;
  /** When set, `/__sandbox/` and the dashboard require it (non-loopback or public URL). */
  adminToken?: string | undefined;
  /** Seed for reproducible ids and approval codes. */
  seed?: string | undefined;
  /** Log each request to the console. */
  verbose?: boolean | undefined;
}

/** A saved clock state only if it gives a time a Date can hold; anything else (a corrupt row) is the wall clock. */
function usableClockState(state: ClockState | undefined): ClockState {
  if (state === undefined || typeof state !== 'object' || !Number.isFinite(state.offsetMs)) return { offsetMs: 0 };
  if (state.frozenAt !== undefined && !Number.isFinite(state.frozenAt)) return { offsetMs: 0 };
  const time = state.frozenAt ?? Date.now() + state.offsetMs;
  return Number.isNaN(new Date(time).getTime()) ? { offsetMs: 0 } : state;
}

export class Sandbox {
  readonly db: Db;
  readonly store: Store;
  readonly clock: SandboxClock;
  readonly ids: IdSource;
  readonly links: DocumentTable<LinkRecord>;
  readonly checkouts: DocumentTable<CheckoutRecord>;
  readonly payments: DocumentTable<PaymentRecord>;
  readonly tokens: DocumentTable<TokenRecord>;
  /** Errors no handler expected (each became a 500); tests assert there are none. */
  readonly unexpectedErrors: unknown[] = [];
  /** The URL the sandbox listens at; set by `startSandbox` once listening. */
  listenUrl = 'http://localhost';
  private readonly statements = new Map<string, Statement>();
  private readonly metaGet;
  private readonly metaSet;

  constructor(readonly config: SandboxConfig) {
    this.db = openDatabase(config.db);
    this.store = new Store(this.db);
    this.metaGet = this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    this.metaSet = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');

    this.clock = new SandboxClock(usableClockState(this.readMeta<ClockState>('clock')));
    if (config.seed !== undefined) {
      const counterKey = `ids.counter.${config.seed}`;
      this.ids = new SeededIds(config.seed, this.readMeta<number>(counterKey) ?? 0, (n) => this.writeMetaSync(counterKey, n));
    } else {
      this.ids = new RandomIds();
    }

    this.links = new DocumentTable<LinkRecord>(this.db, { table: 'links' });
    this.checkouts = new DocumentTable<CheckoutRecord>(this.db, { table: 'checkouts' });
    this.payments = new DocumentTable<PaymentRecord>(this.db, {
      table: 'payments',
      columns: { parent_kind: (p) => p.parentKind ?? null, parent_id: (p) => p.parentId ?? null },
    });
    this.tokens = new DocumentTable<TokenRecord>(this.db, {
      table: 'tokens',
      columns: { fingerprint: (t) => t.fingerprint },
    });
    this.store.onRollback(() => this.forgetCaches());
  }

  /** The base URL for addresses the sandbox hands out (`redirect.url`, library targets). */
  get baseUrl(): string {
    return (this.config.publicUrl ?? this.listenUrl).replace(/\/+$/, '');
  }

  /**
   * The prepared statement for `sql`, prepared once per sandbox: code on a request's path calls this
   * instead of `db.prepare`, which would compile the SQL on every request.
   */
  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  readMeta<T>(key: string): T | undefined {
    const value = this.metaGet.get(key) as string | undefined;
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  /** Writes a meta value within the current write (call inside `store.write`) or on its own. */
  writeMetaSync(key: string, value: unknown): void {
    this.metaSet.run(key, JSON.stringify(value));
  }

  /** Persists the clock's state, so a moved clock survives a restart. */
  saveClock(): Promise<void> {
    return this.store.write(() => this.writeMetaSync('clock', this.clock.state()));
  }

  /** Records and logs an error that no handler expected. */
  reportUnexpected(where: string, error: unknown): void {
    if (this.unexpectedErrors.length < 100) this.unexpectedErrors.push(error);
    console.error(`paylink: unexpected error while answering ${where}:`, error);
  }

  forgetCaches(): void {
    this.links.forgetAll();
    this.checkouts.forgetAll();
    this.payments.forgetAll();
    this.tokens.forgetAll();
  }

  close(): void {
    this.store.close();
  }
}
