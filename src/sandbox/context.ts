/**
 * The composition root: one `Sandbox` per `startSandbox`. It opens the database (its repositories, one
 * list: store/open.ts), makes the clock, the id source and the few shared parts (events, fault rules, the
 * request log's buffer), builds every service once from that `Deps` (services/index.ts), and owns the
 * background tasks (the delivery worker, the time sweep, the request log's flush, and what `startSandbox`
 * adds: the app's held connections, a tunnel, the listener). `start` starts them once the sandbox
 * listens; `close` stops them in order and closes the database. Nothing of it is global.
 *
 * Handlers never see this object: the app hands them the services and a few facts (http/router.ts).
 */
import { SandboxClock, type ClockState } from './domain/clock.js';
import { realTimers, type TimerHandle, type Timers } from './domain/timers.js';
import { RandomIds, SeededIds, uuidFromText, type IdSource } from './domain/ids.js';
import type { Store } from './store/group-commit.js';
import { openStore, type Repositories } from './store/open.js';
import { CounterReservation } from './store/reservation.js';
import { HOLDER_KEY, type LockHolder } from './store/lock.js';
import type { SandboxConfig } from './config.js';
import { EventService } from './services/events.js';
import type { Deps } from './services/deps.js';
import { createServices, type Services } from './services/index.js';
import { KEPT_ON_RESTORE } from './services/admin-snapshots.js';
import { FaultService } from './services/faults.js';
import { RequestLog } from './services/request-log.js';
import { DeliveryWorker, interfaceAddresses } from './services/webhook-delivery.js';
import { settleDueNow } from './services/time-settles.js';
import { FAST_RETRY_SCHEDULE, STANDARD_RETRY_SCHEDULE } from './domain/events.js';
import { DEFAULT_SIGNATURE_HEADER } from './domain/webhook-signature.js';
import { seededRandom } from './domain/faults.js';
import { ProviderRequests } from './drop-in/provider-requests.js';

export type { Credential, SandboxConfig } from './config.js';

/** How often real time is checked for waiting payments whose window passed (services/time-settles.ts). */
const SETTLE_EVERY_MS = 1000;

/** Where a started sandbox listens: what its background tasks need of it. */
export interface Listening {
  url: string;
  port: number;
}

/** A background part of a sandbox: started once it listens, stopped (in the order added) when it closes. */
export interface Task {
  readonly name: string;
  start?(listening: Listening): void;
  stop(): void | Promise<void>;
}

/** A saved clock state only if it gives a time a Date can hold; anything else (a corrupt row) is the wall clock. */
function usableClockState(state: ClockState | undefined): ClockState {
  if (state === undefined || typeof state !== 'object' || !Number.isFinite(state.offsetMs)) return { offsetMs: 0 };
  if (state.frozenAt !== undefined && !Number.isFinite(state.frozenAt)) return { offsetMs: 0 };
  const time = state.frozenAt ?? Date.now() + state.offsetMs;
  return Number.isNaN(new Date(time).getTime()) ? { offsetMs: 0 } : state;
}

// The repositories are members of the Sandbox by declaration merging: listed once, in store/open.ts.
export interface Sandbox extends Readonly<Repositories> {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the repositories, which the constructor assigns from store/open.ts's one list
export class Sandbox implements Deps {
  /** The group-commit queue every write goes through. */
  readonly store: Store;
  readonly clock: SandboxClock;
  readonly timers: Timers;
  readonly ids: IdSource;
  /** Webhook events: made on every payment write, read by the admin API and the delivery worker. */
  readonly events: EventService;
  /** The API fault rules (docs/faults.md). */
  readonly faults: FaultService;
  /** The request log's in-memory window in front of its rows (services/request-log.ts). */
  readonly log: RequestLog;
  /** Signs hosted-form tokens (services/submission.ts); made once per database and kept in `meta`. */
  readonly formTokenSecret: Buffer;
  /** Where the webhook secret came from: the configuration, the database, or generated now. */
  readonly webhookSecretSource: 'config' | 'stored' | 'generated';
  /** The request header webhook signatures go in, lower case. */
  readonly webhookHeader: string;
  /** What handlers call: every service made once from this sandbox's `Deps` (services/index.ts). */
  readonly services: Services;
  /** Errors no handler expected (each became a 500); tests assert there are none. */
  readonly unexpectedErrors: unknown[] = [];
  /** This process as the holder of the database's lock. */
  readonly holder: LockHolder;
  /** Requests under the provider's hosts (drop-in/): this sandbox's listeners answer them as the provider. */
  readonly providerRequests = new ProviderRequests();
  /** The URL the sandbox listens at; set by {@link start}. */
  listenUrl = 'http://localhost';
  /** {@link baseUrl} without the provider's: the public or listen URL it was made from, and the result. */
  private baseSource = '';
  private base = '';
  /** The background tasks, in the order they stop. */
  private readonly tasks: Task[] = [];
  private started = false;
  private closing: Promise<void> | undefined;

  constructor(
    readonly config: SandboxConfig,
    timers: Timers = realTimers,
  ) {
    this.timers = timers;
    const opened = openStore(config.db);
    this.store = opened.store;
    this.holder = opened.holder;
    Object.assign(this, opened.repositories);

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
    this.webhookHeader = (config.webhookHeader ?? DEFAULT_SIGNATURE_HEADER).toLowerCase();
    this.events = new EventService({
      events: this.eventStore,
      payments: this.payments,
      links: this.links,
      checkouts: this.checkouts,
      clock: this.clock,
      secret,
      hookId,
      seed: config.seed,
      timers: this.timers,
      eventsKept: config.eventsKept,
    });
    this.faults = new FaultService({
      store: this.store,
      faults: this.faultStore,
      random: config.seed !== undefined ? seededRandom(`${config.seed}:faults`) : Math.random,
      now: () => this.timers.now(),
    });
    // Every payment write is an event candidate, in the same transaction (services/events.ts).
    this.payments.onWrite((before, after) => this.events.paymentWritten(before, after));
    this.tokens.onWrite((before, after) => this.events.tokenWritten(before, after));
    this.store.onCommit(() => this.events.afterCommit());
    this.store.onRollback(() => this.events.afterRollback());
    this.log = new RequestLog(this);
    this.services = createServices(this);

    // The background tasks, in the order they stop. Long polls (`paylink listen`, `logs --follow`) answer
    // first, so the listener's stop waits for none.
    this.addTask({ name: 'event followers', stop: () => this.events.close() });
    this.addTask(this.timeSweep());
    this.addTask(this.deliveryWorker());
    this.addTask({ name: 'request log', stop: () => this.log.close() });
  }

  /**
   * Adds a background task (`startSandbox` adds the app's held connections, a tunnel, the listener): it
   * stops after those added before it, or just before the task named `before`.
   */
  addTask(task: Task, options: { before?: string } = {}): void {
    const at = options.before === undefined ? -1 : this.tasks.findIndex((t) => t.name === options.before);
    if (at < 0) this.tasks.push(task);
    else this.tasks.splice(at, 0, task);
    if (this.started && this.listening !== undefined) task.start?.(this.listening);
  }

  private listening: Listening | undefined;

  /** Starts the background tasks once the sandbox listens at `listening.url`. */
  async start(listening: Listening): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.listening = listening;
    this.listenUrl = listening.url;
    await this.recordListening(listening.url).catch(() => undefined);
    for (const task of this.tasks) task.start?.(listening);
  }

  /** Stops every task in order, then closes the database (committing what was answered). */
  close(): Promise<void> {
    this.closing ??= this.stopAll();
    return this.closing;
  }

  private async stopAll(): Promise<void> {
    if (this.started) {
      for (const task of this.tasks) {
        try {
          await task.stop();
        } catch (error) {
          console.error(`paylink: stopping the ${task.name} failed:`, error);
        }
      }
    }
    this.beforeClose?.();
    this.store.close();
  }

  /** What time settles happens as real time passes too, not only when the clock is moved (docs/test-cards.md). */
  private timeSweep(): Task {
    let settling = false;
    let timer: TimerHandle | undefined;
    const settle = (): void => {
      if (settling) return;
      settling = true;
      settleDueNow(this)
        .catch((error: unknown) => this.reportUnexpected('the sweep of what time settles', error))
        .finally(() => (settling = false));
    };
    return {
      name: 'time sweep',
      start: () => {
        timer = this.timers.setInterval(settle, SETTLE_EVERY_MS).unref();
        settle();
      },
      stop: () => this.timers.clearInterval(timer),
    };
  }

  /** Sends webhook deliveries after their commit (services/webhook-delivery.ts). */
  private deliveryWorker(): Task {
    const retry = this.config.webhookRetry ?? 'standard';
    let worker: DeliveryWorker | undefined;
    return {
      name: 'delivery worker',
      start: ({ port }) => {
        let interfaces = { at: this.timers.now(), list: interfaceAddresses() };
        worker = new DeliveryWorker(this.store, this.eventStore, this.events, {
          schedule: retry === 'fast' ? FAST_RETRY_SCHEDULE : retry === 'standard' ? STANDARD_RETRY_SCHEDULE : retry,
          timeoutMs: this.config.webhookTimeoutMs ?? (retry === 'fast' ? 2_000 : 10_000),
          header: this.webhookHeader,
          timers: this.timers,
          // Deliveries to the sandbox itself are not sent: its admin API trusts loopback (docs/webhooks.md).
          own: () => {
            if (this.timers.now() - interfaces.at > 10_000) interfaces = { at: this.timers.now(), list: interfaceAddresses() };
            return { port, origins: [this.baseUrl, this.listenUrl], interfaces: interfaces.list };
          },
          // Each attempt also goes to the request log (kind `webhook`), so `paylink logs` and the dashboard's
          // request log show deliveries beside the requests that caused them.
          onAttempt: (attempt, target) => {
            const request: Record<string, unknown> = { event: target.eventId, type: target.type, payment: target.paymentId, attempt: attempt.n };
            if (attempt.fault !== undefined) request.fault = attempt.fault;
            if (attempt.error !== undefined) request.error = attempt.error;
            if (attempt.finding !== undefined) request.finding = attempt.finding;
            this.log.observer({
              method: 'POST',
              path: target.url,
              query: '',
              status: attempt.status ?? 0,
              kind: 'webhook',
              startedAt: this.clock.now(),
              durationMs: attempt.latencyMs,
              businessId: target.businessId,
              requestBody: request,
              ...(attempt.response !== undefined ? { responseBody: attempt.response } : {}),
            });
          },
        });
        worker.start();
      },
      stop: () => worker?.stop(),
    };
  }

  /** The base URL for addresses the sandbox hands out (`redirect.url`, library targets). */
  get baseUrl(): string {
    // A request under one of the provider's hosts is answered at the provider's addresses (drop-in/).
    const provider = this.providerRequests.baseUrl();
    if (provider !== undefined) return provider;
    // Every answer with an address asks: the URL is cut of its trailing slashes once per value it takes.
    const source = this.config.publicUrl ?? this.listenUrl;
    if (source !== this.baseSource) {
      this.baseSource = source;
      this.base = source.replace(/\/+$/, '');
    }
    return this.base;
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
    const now = this.timers.now();
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
}
