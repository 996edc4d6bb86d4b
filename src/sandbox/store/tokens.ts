import type { TokenRecord } from '../domain/records.js';
import type { Db } from './db.js';
import { DocumentTable, type DocumentTableOptions } from './document-table.js';

/** Saved cards: the document table, plus the lookup by a card's keyed fingerprint. */
export class TokenTable extends DocumentTable<TokenRecord> {
  private readonly byFingerprintStmt;
  private readonly readByFingerprintStmt;
  private readonly byCustomerStmt;
  private readonly readByCustomerStmt;

  constructor(db: Db, reads?: DocumentTableOptions<TokenRecord>['reads']) {
    super(db, { table: 'tokens', columns: { fingerprint: (t) => t.fingerprint }, reads });
    const sql = 'SELECT id FROM tokens WHERE business_id = ? AND fingerprint = ?';
    this.byFingerprintStmt = db.prepare(sql).pluck();
    this.readByFingerprintStmt = reads === undefined || reads.reader === db ? this.byFingerprintStmt : reads.reader.prepare(sql).pluck();
    const customerSql = "SELECT id FROM tokens WHERE business_id = ? AND CAST(json_extract(data, '$.customer.customerId') AS TEXT) = ? ORDER BY created_at, id";
    this.byCustomerStmt = db.prepare(customerSql).pluck();
    this.readByCustomerStmt = reads === undefined || reads.reader === db ? this.byCustomerStmt : reads.reader.prepare(customerSql).pluck();
  }

  /** The tokens of a business saved for this customer id (`customer.customerId`), oldest first. */
  byCustomerId(businessId: string, customerId: string): TokenRecord[] {
    const ids = (this.inWrite ? this.byCustomerStmt : this.readByCustomerStmt).all(businessId, customerId) as string[];
    return ids.flatMap((id) => {
      const token = this.get(id);
      return token ? [token] : [];
    });
  }

  /** The token of a business with this card fingerprint. */
  byFingerprint(businessId: string, fingerprint: string): TokenRecord | undefined {
    const id = (this.inWrite ? this.byFingerprintStmt : this.readByFingerprintStmt).get(businessId, fingerprint) as string | undefined;
    return id === undefined ? undefined : this.get(id);
  }
}
