import type { TokenRecord } from '../domain/records.js';
import type { Db } from './db.js';
import { DocumentTable } from './document-table.js';

/** Saved cards: the document table, plus the lookup by a card's keyed fingerprint. */
export class TokenTable extends DocumentTable<TokenRecord> {
  private readonly byFingerprintStmt;

  constructor(db: Db) {
    super(db, { table: 'tokens', columns: { fingerprint: (t) => t.fingerprint } });
    this.byFingerprintStmt = db.prepare('SELECT id FROM tokens WHERE business_id = ? AND fingerprint = ?').pluck();
  }

  /** The token of a business with this card fingerprint. */
  byFingerprint(businessId: string, fingerprint: string): TokenRecord | undefined {
    const id = this.byFingerprintStmt.get(businessId, fingerprint) as string | undefined;
    return id === undefined ? undefined : this.get(id);
  }
}
