/**
 * Paging over the read-only listings behind the dashboard and its data endpoints (the queries are
 * store/browse.ts's): resources newest first, paged, optionally for one business, and the follow-up
 * payments of a payment.
 */
import { urlPasswordsMasked } from '../domain/mask.js';
import type { Deps } from './deps.js';
import { checkoutState, linkStatus } from '../domain/lifecycle.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord } from '../domain/records.js';
import type { RecordOf, ResourceTable } from '../store/browse.js';

export type { RecordOf, ResourceTable } from '../store/browse.js';
export const RESOURCE_TABLES: readonly ResourceTable[] = ['links', 'checkouts', 'payments', 'tokens'];

export interface PageQuery {
  /** 1-based. @default 1 */
  page?: number | undefined;
  /** @default 20 */
  pageSize?: number | undefined;
  businessId?: string | undefined;
  /** Only the document with this id. */
  id?: string | undefined;
  /** Only documents with this tracking code. */
  trackingCode?: string | undefined;
  /** Only documents created at or after this time (epoch ms, sandbox clock). */
  since?: number | undefined;
  /** Only documents kept for this `customer.customerId` (tokens of a one-click customer). */
  customerId?: string | undefined;
  /** Only documents in this state now ({@link stateOf}), compared without regard to case. */
  state?: string | undefined;
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

/**
 * What a document is now, as the lists show and filter it: a link's status and a checkout's state (both
 * following the sandbox clock: EXPIRED, TIMEOUT), a payment's description in upper-case letters only
 * (OK, DECLINED, FAILED, FAILEDRETRY, PENDING...), a token's ACTIVE.
 */
export function stateOf(table: ResourceTable, record: RecordOf[ResourceTable], now: number): string {
  if (table === 'links') return linkStatus(record as LinkRecord, now);
  if (table === 'checkouts') return checkoutState(record as CheckoutRecord, now);
  if (table === 'payments') return (record as PaymentRecord).description.toUpperCase().replace(/[^A-Z]+/g, '');
  return 'ACTIVE';
}

/** One page of a resource table, newest first, filtered by business, tracking code, creation time and state. */
export function listRecords<K extends ResourceTable>(sandbox: Pick<Deps, 'browse' | 'clock'>, table: K, query: PageQuery = {}): Paged<RecordOf[K]> {
  const pageSize = clampWhole(query.pageSize, 20, 200);
  // Capped so that the OFFSET stays an integer SQLite takes (page=1e308 was a datatype mismatch, a 500).
  const page = clampWhole(query.page, 1, MAX_PAGE);
  const filter = { businessId: query.businessId, id: query.id, trackingCode: query.trackingCode, since: query.since, customerId: query.customerId };
  const offset = (page - 1) * pageSize;
  let total: number;
  let items: Array<RecordOf[K]>;
  if (query.state === undefined) {
    total = sandbox.browse.count(table, filter);
    items = sandbox.browse.newest(table, pageSize, offset, filter);
  } else {
    // The state follows the clock (an expired link is stored READY), so it is computed, not queried.
    const wanted = query.state.toUpperCase().replace(/[^A-Z]+/g, '');
    const now = sandbox.clock.now();
    const matching = sandbox.browse.newest(table, -1, 0, filter).filter((record) => stateOf(table, record, now) === wanted);
    total = matching.length;
    items = matching.slice(offset, offset + pageSize);
  }
  // A notifyUrl's password stays the merchant's: the operator's listings show it masked.
  return { items: items.map(urlPasswordsMasked), page, pageSize, total, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** Captures, cancels and refunds of a payment, oldest first. */
export function followUpsOf(sandbox: Pick<Deps, 'browse'>, paymentId: string): PaymentRecord[] {
  return sandbox.browse.followUpsOf(paymentId);
}

/** Payments made with a token, newest first (at most 50). */
export function paymentsWithToken(sandbox: Pick<Deps, 'browse'>, token: string): PaymentRecord[] {
  return sandbox.browse.paymentsWithToken(token);
}

/** A record of any business by its id (the operator sees every business), or undefined. */
export function recordById<K extends ResourceTable>(
  deps: Pick<Deps, 'links' | 'checkouts' | 'payments' | 'tokens'>,
  table: K,
  id: string,
): RecordOf[K] | undefined {
  return deps[table].get(id) as RecordOf[K] | undefined;
}

/** The stored records with these ids, in that order (the payments of a link or checkout); unknown ids are skipped. */
export function paymentsOf(deps: Pick<Deps, 'payments'>, ids: readonly string[]): PaymentRecord[] {
  return ids.flatMap((id) => deps.payments.get(id) ?? []);
}

/** What an id names (`link`, `checkout`, `payment`, `token`), or null; only the business's own when one is given. */
export function kindOfId(
  deps: Pick<Deps, 'links' | 'checkouts' | 'payments' | 'tokens'>,
  id: string,
  businessId?: string,
): 'link' | 'checkout' | 'payment' | 'credit' | 'token' | null {
  const tables = [
    ['link', deps.links],
    ['checkout', deps.checkouts],
    ['payment', deps.payments],
    ['token', deps.tokens],
  ] as const;
  for (const [kind, table] of tables) {
    const doc = table.get(id);
    if (doc === undefined || (businessId !== undefined && doc.businessId !== businessId)) continue;
    // A credit is a payment record, read at its own endpoint ({api}/credits).
    return kind === 'payment' && (doc as { action?: string }).action === 'CREDIT' ? 'credit' : kind;
  }
  return null;
}
