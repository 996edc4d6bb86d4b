/**
 * What services are made of: the repositories, clock and id source of one sandbox, by name. Each service
 * function states the part it uses as `Pick<Deps, ...>` in its parameters (so a reader sees what it
 * touches and a test of it needs only that); `Sandbox` (context.ts) is a `Deps` and wires the services once.
 */
import type { SandboxClock } from '../domain/clock.js';
import type { IdSource } from '../domain/ids.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord } from '../domain/records.js';
import type { AttemptRepository } from '../store/attempts.js';
import type { WaitingCreditRepository } from '../store/waiting-credits.js';
import type { BrowseRepository } from '../store/browse.js';
import type { DocumentTable } from '../store/document-table.js';
import type { EventRepository } from '../store/events.js';
import type { FormTokenRepository } from '../store/form-tokens.js';
import type { Store } from '../store/group-commit.js';
import type { MetaRepository } from '../store/meta.js';
import type { RequestLogRepository } from '../store/request-log.js';
import type { ResetRepository } from '../store/reset.js';
import type { TokenTable } from '../store/tokens.js';
import type { PendingPaymentRepository } from '../store/pending-payments.js';

export interface Deps {
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
  /** SEPA credits waiting to settle. */
  readonly waitingCredits: WaitingCreditRepository;
  readonly meta: MetaRepository;
  readonly requestLog: RequestLogRepository;
  readonly browse: BrowseRepository;
  readonly reset: ResetRepository;
  readonly eventStore: EventRepository;
  /** Payments still waiting, by creation time (what time settles). */
  readonly pendingPayments: PendingPaymentRepository;
  /** Signs hosted-form tokens. */
  readonly formTokenSecret: Buffer;
  /** The base URL for addresses handed out (`redirect.url`, library targets). */
  readonly baseUrl: string;
  /** The configuration the services read (the request log's size bound). */
  readonly config: { readonly requestLogMaxBytes?: number | undefined };
  /** Drops the repositories' cached records (after a reset or a rolled-back write). */
  forgetCaches(): void;
}

/**
 * The members of {@link Deps} that reach storage: the write queue and every repository. Handlers never
 * touch these (test/unit/handler-layers.test.ts reads api/, web/ and admin/ for them); services do.
 */
export const STORAGE_MEMBERS = [
  'store',
  'links',
  'checkouts',
  'payments',
  'tokens',
  'formTokens',
  'attempts',
  'meta',
  'requestLog',
  'browse',
  'reset',
  'eventStore',
] as const satisfies ReadonlyArray<keyof Deps>;
