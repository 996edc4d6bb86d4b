import type { TokenRecord } from '../domain/records.js';
import type { Db } from './db.js';
import { DocumentTable, type DocumentTableOptions } from './document-table.js';

/** Saved cards: the document table, plus the lookup by a card's keyed fingerprint. */
export class TokenTable extends DocumentTable<TokenRecord> {
  private readonly byFingerprintStmt;
  private readonly readByFingerprintStmt;

  constructor(db: Db, reads?: DocumentTableOptions<TokenRecord>['reads']) {
    super(db, { table: 'tokens', columns: { fingerprint: (t) => t.fingerprint }, reads });
    const sql = 'SELECT id FROM tokens WHERE business_id = ? AND fingerprint = ?';
    this.byFingerprintStmt = db.prepare(sql).pluck();
    this.readByFingerprintStmt = reads === undefined || reads.reader === db ? this.byFingerprintStmt : reads.reader.prepare(sql).pluck();
  }

  /** The token of a business with this card fingerprint. */
  byFingerprint(businessId: string, fingerprint: string): TokenRecord | undefined {
    const id = (this.inWrite ? this.byFingerprintStmt : this.readByFingerprintStmt).get(businessId, fingerprint) as string | undefined;
    return id === undefined ? undefined : this.get(id);
  }
}
