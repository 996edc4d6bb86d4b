import type { CheckoutRecord, LinkRecord, PaymentRecord } from '../domain/records.js';
import { AttemptRepository } from './attempts.js';
import { BrowseRepository } from './browse.js';
import { openDatabase } from './db.js';
import { DocumentTable } from './document-table.js';
import { EventRepository } from './events.js';
import { FormTokenRepository } from './form-tokens.js';
import { Store } from './group-commit.js';
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
}

/**
 * Opens (creating and migrating if needed) the SQLite file at `path`, or `:memory:`, and builds the
 * repositories on it. Each repository prepares its statements once, here.
 */
export function openStore(path: string): OpenStore {
  const db = openDatabase(path);
  return {
    store: new Store(db),
    links: new DocumentTable<LinkRecord>(db, { table: 'links' }),
    checkouts: new DocumentTable<CheckoutRecord>(db, { table: 'checkouts' }),
    payments: new DocumentTable<PaymentRecord>(db, {
      table: 'payments',
      columns: { parent_kind: (p) => p.parentKind ?? null, parent_id: (p) => p.parentId ?? null },
    }),
    tokens: new TokenTable(db),
    formTokens: new FormTokenRepository(db),
    attempts: new AttemptRepository(db),
    meta: new MetaRepository(db),
    requestLog: new RequestLogRepository(db),
    browse: new BrowseRepository(db),
    reset: new ResetRepository(db),
    events: new EventRepository(db),
  };
}
