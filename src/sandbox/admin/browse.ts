/**
 * Read-only queries behind the dashboard and its data endpoints: resources newest first, paged, optionally
 * for one business, and the follow-up payments of a payment.
 */
import type { Sandbox } from '../context.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord, TokenRecord } from '../domain/records.js';

export type ResourceTable = 'links' | 'checkouts' | 'payments' | 'tokens';
export const RESOURCE_TABLES: readonly ResourceTable[] = ['links', 'checkouts', 'payments', 'tokens'];

export interface RecordOf {
  links: LinkRecord;
  checkouts: CheckoutRecord;
  payments: PaymentRecord;
  tokens: TokenRecord;
}

export interface PageQuery {
  /** 1-based. @default 1 */
  page?: number | undefined;
  /** @default 20 */
  pageSize?: number | undefined;
  businessId?: string | undefined;
}

export interface Paged<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  pages: number;
}


/** One page of a resource table, newest first. */
export function listRecords<K extends ResourceTable>(sandbox: Sandbox, table: K, query: PageQuery = {}): Paged<RecordOf[K]> {
  const pageSize = Math.min(Math.max(query.pageSize ?? 20, 1), 200);
  const page = Math.max(query.page ?? 1, 1);
  const where = query.businessId ? 'WHERE business_id = ?' : '';
  const args = query.businessId ? [query.businessId] : [];
  const total = sandbox.statement(`SELECT COUNT(*) FROM ${table} ${where}`).pluck().get(...args) as number;
  const rows = sandbox.statement(`SELECT data FROM ${table} ${where} ORDER BY rowid DESC LIMIT ? OFFSET ?`)
    .pluck()
    .all(...args, pageSize, (page - 1) * pageSize) as string[];
  return { items: rows.map((data) => JSON.parse(data) as RecordOf[K]), page, pageSize, total, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** Captures, cancels and refunds of a payment, oldest first. */
export function followUpsOf(sandbox: Sandbox, paymentId: string): PaymentRecord[] {
  const rows = sandbox.statement("SELECT data FROM payments WHERE json_extract(data, '$.parentPaymentId') = ? ORDER BY rowid")
    .pluck()
    .all(paymentId) as string[];
  return rows.map((data) => JSON.parse(data) as PaymentRecord);
}

/** Payments made with a token, newest first (at most 50). */
export function paymentsWithToken(sandbox: Sandbox, token: string): PaymentRecord[] {
  const rows = sandbox.statement("SELECT data FROM payments WHERE json_extract(data, '$.token.token') = ? ORDER BY rowid DESC LIMIT 50")
    .pluck()
    .all(token) as string[];
  return rows.map((data) => JSON.parse(data) as PaymentRecord);
}
