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
    this.followUpsStmt = db.prepare("SELECT data FROM payments WHERE json_extract(data, '$.parentPaymentId') = ? ORDER BY rowid").pluck();
    this.withTokenStmt = db.prepare("SELECT data FROM payments WHERE json_extract(data, '$.token.token') = ? ORDER BY rowid DESC LIMIT 50").pluck();
  }

  /** How many documents `table` holds, of one business when `businessId` is given. */
  count(table: ResourceTable, businessId?: string): number {
    const where = businessId ? 'WHERE business_id = ?' : '';
    const args = businessId ? [businessId] : [];
    return this.statements.get(`SELECT COUNT(*) FROM ${table} ${where}`).pluck().get(...args) as number;
  }

  /** Documents of `table`, newest first, `limit` of them after skipping `offset`. */
  newest<K extends ResourceTable>(table: K, limit: number, offset: number, businessId?: string): Array<RecordOf[K]> {
    const where = businessId ? 'WHERE business_id = ?' : '';
    const args = businessId ? [businessId] : [];
    const rows = this.statements.get(`SELECT data FROM ${table} ${where} ORDER BY rowid DESC LIMIT ? OFFSET ?`)
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
