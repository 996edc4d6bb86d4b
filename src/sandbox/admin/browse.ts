/**
 * Paging over the read-only listings behind the dashboard and its data endpoints (the queries are
 * store/browse.ts's): resources newest first, paged, optionally for one business, and the follow-up
 * payments of a payment.
 */
import type { Sandbox } from '../context.js';
import type { PaymentRecord } from '../domain/records.js';
import type { RecordOf, ResourceTable } from '../store/browse.js';

export type { RecordOf, ResourceTable } from '../store/browse.js';
export const RESOURCE_TABLES: readonly ResourceTable[] = ['links', 'checkouts', 'payments', 'tokens'];

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
  const total = sandbox.browse.count(table, query.businessId);
  const items = sandbox.browse.newest(table, pageSize, (page - 1) * pageSize, query.businessId);
  return { items, page, pageSize, total, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** Captures, cancels and refunds of a payment, oldest first. */
export function followUpsOf(sandbox: Sandbox, paymentId: string): PaymentRecord[] {
  return sandbox.browse.followUpsOf(paymentId);
}

/** Payments made with a token, newest first (at most 50). */
export function paymentsWithToken(sandbox: Sandbox, token: string): PaymentRecord[] {
  return sandbox.browse.paymentsWithToken(token);
}
