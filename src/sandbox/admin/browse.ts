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


/** Highest page number served; beyond it every page is empty anyway. */
const MAX_PAGE = 1_000_000;

/** A whole number from 1 to `max`; `fallback` for anything that is not a finite number. */
function clampWhole(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(Math.max(Math.trunc(value), 1), max);
}

/** One page of a resource table, newest first. */
export function listRecords<K extends ResourceTable>(sandbox: Sandbox, table: K, query: PageQuery = {}): Paged<RecordOf[K]> {
  const pageSize = clampWhole(query.pageSize, 20, 200);
  // Capped so that the OFFSET stays an integer SQLite takes (page=1e308 was a datatype mismatch, a 500).
  const page = clampWhole(query.page, 1, MAX_PAGE);
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
