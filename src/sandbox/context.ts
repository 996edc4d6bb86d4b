/**
 * The running sandbox: its repositories, clock, id source and configuration. One instance per
 * `startSandbox`; handlers receive it through the route request, nothing is global. The database itself
 * stays inside store/ (see `openStore`).
 */
import { SandboxClock, type ClockState } from './domain/clock.js';
import { RandomIds, SeededIds, uuidFromText, type IdSource } from './domain/ids.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord } from './domain/records.js';
import type { AttemptRepository } from './store/attempts.js';
import type { WaitingCreditRepository } from './store/waiting-credits.js';
import type { BrowseRepository } from './store/browse.js';
import type { DocumentTable } from './store/document-table.js';
import type { FormTokenRepository } from './store/form-tokens.js';
import type { Store } from './store/group-commit.js';
import type { MetaRepository } from './store/meta.js';
import { openStore } from './store/open.js';
import { CounterReservation } from './store/reservation.js';
import { HOLDER_KEY, type LockHolder } from './store/lock.js';
import type { RequestLogRepository } from './store/request-log.js';
import type { ResetRepository } from './store/reset.js';
import type { SandboxConfig } from './config.js';
import type { TokenTable } from './store/tokens.js';
import type { EventRepository } from './store/events.js';
import type { SnapshotRepository } from './store/snapshots.js';
import { EventService } from './services/events.js';
import type { Deps } from './services/deps.js';
import { createServices, type Services } from './services/index.js';
import { KEPT_ON_RESTORE } from './services/admin-snapshots.js';
import { FaultService } from './services/faults.js';
import type { PendingPaymentRepository } from './store/pending-payments.js';
import { seededRandom } from './domain/faults.js';

export type { Credential, SandboxConfig } from './config.js';

/** A saved clock state only if it gives a time a Date can hold; anything else (a corrupt row) is the wall clock. */
function usableClockState(state: ClockState | undefined): ClockState {
  if (state === undefined || typeof state !== 'object' || !Number.isFinite(state.offsetMs)) return { offsetMs: 0 };
  if (state.frozenAt !== undefined && !Number.isFinite(state.frozenAt)) return { offsetMs: 0 };
  const time = state.frozenAt ?? Date.now() + state.offsetMs;
  return Number.isNaN(new Date(time).getTime()) ? { offsetMs: 0 } : state;
}

export class Sandbox implements Deps {
  /** The group-commit queue every write goes through. */
  readonly store: Store;
  readonly clock: SandboxClock;
  readonly ids: IdSource;
  readonly links: DocumentTable<LinkRecord>;
  readonly checkouts: DocumentTable<CheckoutRecord>;
  readonly payments: DocumentTable<PaymentRecord>;
  readonly tokens: TokenTable;
  readonly formTokens: FormTokenRepository;
  readonly attempts: AttemptRepository;
  readonly waitingCredits: WaitingCreditRepository;
  readonly meta: MetaRepository;
  /** The stored rows of the request log (services/request-log.ts buffers in front of it). */
  readonly requestLog: RequestLogRepository;
  readonly browse: BrowseRepository;
  readonly reset: ResetRepository;
  /** Saved copies of the whole database (admin/snapshots.ts). */
  readonly snapshots: SnapshotRepository;
  /** Stored events, deliveries and endpoints (read through {@link events} for what is committed). */
  readonly eventStore: EventRepository;
  /** Webhook events: made on every payment write, read by the admin API and the delivery worker. */
  readonly events: EventService;
  /** Payments still waiting, by creation time (services/time-settles.ts). */
  readonly pendingPayments: PendingPaymentRepository;
  /** The API fault rules (docs/faults.md). */
  readonly faults: FaultService;
  /** Signs hosted-form tokens (services/submission.ts); made once per database and kept in `meta`. */
  readonly formTokenSecret: Buffer;
  /** Where the webhook secret came from: the configuration, the database, or generated now. */
  readonly webhookSecretSource: 'config' | 'stored' | 'generated';
  /** What handlers call: every service bound once to the repositories and clock it needs (services/index.ts). */
  readonly services: Services;
  /** Errors no handler expected (each became a 500); tests assert there are none. */
  readonly unexpectedErrors: unknown[] = [];
  /** This process as the holder of the database's lock. */
  readonly holder: LockHolder;
  /** The URL the sandbox listens at; set by `startSandbox` once listening. */
  listenUrl = 'http://localhost';

  constructor(readonly config: SandboxConfig) {
    const opened = openStore(config.db);
    this.store = opened.store;
    this.links = opened.links;
    this.checkouts = opened.checkouts;
    this.payments = opened.payments;
    this.tokens = opened.tokens;
    this.formTokens = opened.formTokens;
    this.attempts = opened.attempts;
    this.waitingCredits = opened.waitingCredits;
    this.meta = opened.meta;
    this.requestLog = opened.requestLog;
    this.browse = opened.browse;
    this.reset = opened.reset;
    this.eventStore = opened.events;
    this.snapshots = opened.snapshots;
    this.holder = opened.holder;
    this.pendingPayments = opened.pendingPayments;

    this.clock = new SandboxClock(usableClockState(this.readMeta<ClockState>('clock')));
    if (config.seed !== undefined) {
      const counterKey = `ids.counter.${config.seed}`;
      const start = this.readMeta<number>(counterKey) ?? 0;
      // Reserved ahead and committed before use (store/reservation.ts): a kill -9 skips ids, never repeats one.
      const reservation = new CounterReservation(this.store, (n) => this.writeMetaSync(counterKey, n), start);
      const seeded = new SeededIds(config.seed, start, (n) => reservation.use(n));
      this.ids = seeded;
      // A snapshot holds the exact position (written into the copy only); a restore goes on from it.
      this.exactMeta = () => ({ [counterKey]: seeded.position });
      this.restoreIds = (meta) => {
        const position = meta.get(counterKey);
        const at = typeof position === 'number' && Number.isInteger(position) && position >= 0 ? position : seeded.position;
        seeded.rewind(at);
        reservation.restart(at);
      };
      // A clean stop stores the exact position, so the next start goes on without a gap.
      this.beforeClose = () => this.store.writeDeferred(() => this.writeMetaSync(counterKey, seeded.position));
    } else {
      this.ids = new RandomIds();
    }
    this.store.onRollback(() => this.forgetCaches());

    const formSecret = this.readMeta<string>('formTokens.secret');
    this.formTokenSecret = formSecret !== undefined ? Buffer.from(formSecret, 'base64url') : Buffer.from(crypto.getRandomValues(new Uint8Array(32)));
    if (formSecret === undefined) this.writeMetaSync('formTokens.secret', this.formTokenSecret.toString('base64url'));

    const stored = this.readMeta<string>('webhooks.secret');
    const secret = config.webhookSecret ?? stored ?? Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
    this.webhookSecretSource = config.webhookSecret !== undefined ? 'config' : stored !== undefined ? 'stored' : 'generated';
    if (this.webhookSecretSource === 'generated') this.writeMetaSync('webhooks.secret', secret);
    let hookId = this.readMeta<string>('webhooks.hookId');
    if (hookId === undefined) {
      hookId = config.seed !== undefined ? uuidFromText(`${config.seed}:hook`) : crypto.randomUUID();
      this.writeMetaSync('webhooks.hookId', hookId);
    }
    this.events = new EventService({
      events: opened.events,
      payments: this.payments,
      links: this.links,
      checkouts: this.checkouts,
      clock: this.clock,
      secret,
      hookId,
      seed: config.seed,
    });
    this.faults = new FaultService({
      store: this.store,
      faults: opened.faults,
      random: config.seed !== undefined ? seededRandom(`${config.seed}:faults`) : Math.random,
      now: () => Date.now(),
    });
    // Every payment write is an event candidate, in the same transaction (services/events.ts).
    this.payments.onWrite((before, after) => this.events.paymentWritten(before, after));
    this.store.onCommit(() => this.events.afterCommit());
    this.store.onRollback(() => this.events.afterRollback());
    this.services = createServices(this);
  }

  /** The base URL for addresses the sandbox hands out (`redirect.url`, library targets). */
  get baseUrl(): string {
    return (this.config.publicUrl ?? this.listenUrl).replace(/\/+$/, '');
  }

  readMeta<T>(key: string): T | undefined {
    return this.meta.get<T>(key);
  }

  /** Writes a meta value within the current write (call inside `store.write`) or on its own. */
  writeMetaSync(key: string, value: unknown): void {
    this.meta.set(key, value);
  }

  /** Records the URL this sandbox listens at beside its lock, for the message of a second one refused (store/lock.ts). */
  recordListening(url: string): Promise<void> {
    return this.store.write(() => this.writeMetaSync(HOLDER_KEY, { ...this.holder, url }));
  }

  /** Records and logs an error that no handler expected. */
  reportUnexpected(where: string, error: unknown): void {
    if (this.unexpectedErrors.length < 100) this.unexpectedErrors.push(error);
    console.error(`paylink: unexpected error while answering ${where}:`, error);
  }

  private readonly storageLoggedAt = new Map<string, number>();

  /** Logs a storage failure answered with an envelope (busy, full, corrupt): once per kind every 10 s. */
  reportStorage(where: string, kind: string, error: unknown): void {
    const now = Date.now();
    if (now - (this.storageLoggedAt.get(kind) ?? -Infinity) < 10_000) return;
    this.storageLoggedAt.set(kind, now);
    console.error(`paylink: the database is ${kind} (${(error as Error).message}) while answering ${where}; answered with an envelope.`);
  }

  forgetCaches(): void {
    this.links.forgetAll();
    this.checkouts.forgetAll();
    this.payments.forgetAll();
    this.tokens.forgetAll();
    this.events?.forget();
  }

  /** Meta values held exactly only in memory, written into a snapshot's copy (store/snapshots.ts). */
  readonly exactMeta: () => Record<string, unknown> = () => ({});
  private readonly restoreIds: (meta: ReadonlyMap<string, unknown>) => void = () => undefined;

  /**
   * Meta keys a snapshot restore leaves as they are: this process as the lock holder, and the secrets and
   * hookId the running sandbox signs with (a snapshot of the same database holds the same ones anyway).
   */
  static readonly KEPT_ON_RESTORE: ReadonlySet<string> = KEPT_ON_RESTORE;

  /**
   * After a snapshot was restored into the database: what is held in memory follows it. The clock and the
   * seeded id position are the snapshot's; the read caches and cached endpoints are dropped.
   */
  afterRestore(meta: ReadonlyMap<string, unknown>): void {
    this.clock.restore(usableClockState(meta.get('clock') as ClockState | undefined));
    this.restoreIds(meta);
    this.forgetCaches();
    this.faults.reload();
  }

  /** Runs just before the database closes. */
  private beforeClose: (() => void) | undefined;

  close(): void {
    this.beforeClose?.();
    this.store.close();
  }
}
