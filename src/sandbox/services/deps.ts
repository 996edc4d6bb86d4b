/**
 * What services are made of: the repositories of one sandbox (the one list, store/open.ts's
 * `Repositories`), its write queue, clock, id source and configuration, and the few parts the root makes
 * once and shares (the event service, the fault rules, the request log's buffer). context.ts's `Sandbox` is
 * the composition root that makes a `Deps` and builds every service from it, once (services/index.ts).
 *
 * Each service function states the part it uses as `Pick<Deps, ...>` in its parameters, so a reader sees
 * what it touches and a test of it needs only that. Handlers never see a `Deps`: they receive the
 * services and a few facts (http/router.ts's `RouteRequest`), so reaching storage from a handler does not
 * compile (test/unit/handler-types.test.ts).
 */
import type { SandboxConfig } from '../config.js';
import type { SandboxClock } from '../domain/clock.js';
import type { IdSource } from '../domain/ids.js';
import type { Timers } from '../domain/timers.js';
import type { Store } from '../store/group-commit.js';
import type { Repositories } from '../store/open.js';
import type { EventService } from './events.js';
import type { FaultService } from './faults.js';
import type { RequestLog } from './request-log.js';

export interface Deps extends Readonly<Repositories> {
  /** The group-commit queue every write goes through. */
  readonly store: Store;
  /** The business clock (the sandbox's now, which the admin API moves). */
  readonly clock: SandboxClock;
  /**
   * The infrastructure's wall-clock now and waits (the delivery worker's retries and timeouts, the time
   * sweep, long polls): real ones, or a test's ManualTimers (domain/timers.ts).
   */
  readonly timers: Timers;
  readonly ids: IdSource;
  /** The configuration the services read (the request log's size bound, the webhook header). */
  readonly config: Readonly<SandboxConfig>;
  /** Signs hosted-form tokens. */
  readonly formTokenSecret: Buffer;
  /** The base URL for addresses handed out (`redirect.url`, library targets). */
  readonly baseUrl: string;
  /** The request header webhook signatures go in, lower case. */
  readonly webhookHeader: string;
  /** Webhook events: made on every payment write, read by the admin API and the delivery worker. */
  readonly events: EventService;
  /** The API fault rules (docs/faults.md). */
  readonly faults: FaultService;
  /** The request log's in-memory window in front of its rows. */
  readonly log: RequestLog;
  /** Drops the repositories' cached records (after a reset or a rolled-back write). */
  forgetCaches(): void;
  /** Meta values held exactly only in memory, written into a snapshot's copy. */
  exactMeta(): Record<string, unknown>;
  /** Makes what the sandbox holds in memory follow a restored database. */
  afterRestore(meta: ReadonlyMap<string, unknown>): void;
}
