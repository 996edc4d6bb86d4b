import type { CheckoutRecord, LinkRecord, PaymentRecord, TokenRecord } from '../domain/records.js';
import type { Db } from './db.js';
import { StatementCache } from './statement-cache.js';

export type ResourceTable = 'links' | 'checkouts' | 'payments' | 'tokens';

export interface RecordOf {
  links: LinkRecord;
  checkouts: CheckoutRecord;
  payments: PaymentRecord;
  tokens: TokenRecord;
}

/** Which documents a listing takes: of one business, with one tracking code, created from a time on. */
export interface BrowseFilter {
  businessId?: string | undefined;
  /** The one document with this id. */
  id?: string | undefined;
  trackingCode?: string | undefined;
  /** Epoch milliseconds (sandbox clock): documents created at or after it. */
  since?: number | undefined;
  /** Documents kept for this `customer.customerId` (the key a one-click checkout's tokens are found by). */
  customerId?: string | undefined;
}

/** The WHERE clause and its arguments for a filter (a bare string is a business id, as before). */
function whereOf(filter: string | BrowseFilter | undefined): { where: string; args: Array<string | number> } {
  const f: BrowseFilter = typeof filter === 'string' ? { businessId: filter } : (filter ?? {});
  const parts: string[] = [];
  const args: Array<string | number> = [];
  const add = (clause: string, value: string | number) => {
    parts.push(clause);
    args.push(value);
  };
  if (f.businessId) add('business_id = ?', f.businessId);
  if (f.id !== undefined) add('id = ?', f.id);
  if (f.trackingCode !== undefined) add('tracking_code = ?', f.trackingCode);
  if (f.since !== undefined) add('created_at >= ?', f.since);
  if (f.customerId !== undefined) add("CAST(json_extract(data, '$.customer.customerId') AS TEXT) = ?", f.customerId);
  return { where: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', args };
}

/**
 * Read-only listings behind the dashboard and its data endpoints: resources newest first, and the
 * payments related to a payment or a token. Paging rules (sizes, bounds) are the caller's.
 */
export class BrowseRepository {
  private readonly statements: StatementCache;
  private readonly followUpsStmt;
  private readonly withTokenStmt;

  constructor(db: Db) {
    this.statements = new StatementCache(db);
    // Columns kept beside the document (open.ts) with partial indexes (migration 8): json_extract over the
    // data scanned every payment (408 ms at 86,000 payments, blocking every other request meanwhile).
    this.followUpsStmt = db.prepare('SELECT data FROM payments WHERE parent_payment_id = ? ORDER BY rowid').pluck();
    this.withTokenStmt = db.prepare('SELECT data FROM payments WHERE token_id = ? ORDER BY rowid DESC LIMIT 50').pluck();
  }

  /** How many documents `table` holds that match `filter` (a string: of that business). */
  count(table: ResourceTable, filter?: string | BrowseFilter): number {
    const { where, args } = whereOf(filter);
    return this.statements
      .get(`SELECT COUNT(*) FROM ${table} ${where}`)
      .pluck()
      .get(...args) as number;
  }

  /** Documents of `table` that match `filter`, newest first, `limit` of them (-1: all) after skipping `offset`. */
  newest<K extends ResourceTable>(table: K, limit: number, offset: number, filter?: string | BrowseFilter): Array<RecordOf[K]> {
    const { where, args } = whereOf(filter);
    const rows = this.statements
      .get(`SELECT data FROM ${table} ${where} ORDER BY rowid DESC LIMIT ? OFFSET ?`)
      .pluck()
      .all(...args, limit, offset) as string[];
    return rows.map((data) => JSON.parse(data) as RecordOf[K]);
  }

  /** Captures, cancels and refunds of a payment, oldest first. */
  followUpsOf(paymentId: string): PaymentRecord[] {
    return (this.followUpsStmt.all(paymentId) as string[]).map((data) => JSON.parse(data) as PaymentRecord);
  }

  /** Payments made with a token, newest first (at most 50). */
  paymentsWithToken(token: string): PaymentRecord[] {
    return (this.withTokenStmt.all(token) as string[]).map((data) => JSON.parse(data) as PaymentRecord);
  }
}
