/**
 * `paylink link list`, `checkout list`, `payment list`: the newest links, checkouts or payments of the
 * business, with their state now, from the sandbox's listing endpoints (`GET /__sandbox/links` ...). The
 * API v3 has no listing, so these work against a paylink sandbox only.
 */
import { formatAmount } from '../../sandbox/domain/money.js';
import { adminOk } from '../client.js';
import type { Args, Options, Run } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import { brandName } from '../options.js';
import type { ListKind, ListSpec } from './list.spec.js';
import type { tokenList } from './token.spec.js';

export type { ListKind } from './list.spec.js';

/**
 * The filters of a list (list.spec.ts): the state now (READY, PAID, EXPIRED... for links), tracking code,
 * since (ISO 8601 or a duration back from the sandbox's now), `limit` per page and which `page`, 1 the newest.
 */
export type ListFlags = Options<ListSpec>;

/** The `list` command of `kind`. */
export function listerOf(kind: ListKind): Run<ListSpec> {
  return (_args, flags, ctx) => listResources(kind, flags, ctx);
}

/**
 * The note under a list that does not show every match: which items these are and the flag that shows the
 * next ones (`--page`), so that lists past 200 can be read to their end.
 */
function pageNote(shown: number, total: number, limit: number, page: number): string | undefined {
  if (shown === 0 && page > 1) return `Page ${page} is past the end: ${total} match, ${Math.max(1, Math.ceil(total / limit))} page(s) of ${limit}.`;
  const first = (page - 1) * limit + 1;
  const last = first + shown - 1;
  if (first === 1 && last >= total) return undefined;
  const next = last < total ? `; --page ${page + 1} for the next ${Math.min(limit, total - last)}` : '';
  // The first page keeps the words it always had; later pages say which items they hold.
  const which = first === 1 ? `the newest ${shown} of ${total}` : `${first}-${last} of ${total}, newest first`;
  return `Showing ${which}${next} (--limit up to 200 per page).`;
}

/** One row of a list (`--json`: `items[]`). */
export interface ListItem {
  id: string;
  state: string;
  amount: number;
  currencyCode: string;
  trackingCode?: string | undefined;
  /** ISO 8601. */
  createdAt: string;
  /** Links and checkouts. */
  expiresAt?: string | undefined;
  /** Links and checkouts: card submissions so far. */
  attempts?: number | undefined;
  /** Payments. */
  result?: number | undefined;
  action?: string | undefined;
  brandId?: number | undefined;
  lastFourDigits?: string | undefined;
  /** Payments made on a hosted page: the link or checkout. */
  parentKind?: string | undefined;
  parentId?: string | undefined;
  /** Captures, cancels, refunds: the payment they follow. */
  parentPaymentId?: string | undefined;
}

/** The `--json` output. */
export interface ListResult {
  kind: ListKind;
  businessId: string;
  items: ListItem[];
  /** How many match the filters (more than `items` when `--limit` cut the list). */
  total: number;
  limit: number;
  /** Which page of `limit` items this is, 1 the newest (`--page`). */
  page: number;
}

const TABLES: Record<ListKind, string> = { link: 'links', checkout: 'checkouts', payment: 'payments' };
const NOUNS: Record<ListKind, string> = { link: 'payment links', checkout: 'checkouts', payment: 'payments' };

const iso = (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString() : undefined);

function itemOf(kind: ListKind, record: any): ListItem {
  const transaction = record.transaction ?? record;
  const item: ListItem = {
    id: String(record.id),
    state: String(kind === 'link' ? record.status : record.state),
    amount: Number(transaction.amount),
    currencyCode: String(transaction.currencyCode),
    trackingCode: record.trackingCode ?? transaction.trackingCode,
    createdAt: iso(record.createdAt) ?? '',
  };
  if (kind === 'payment') {
    Object.assign(item, {
      result: record.result,
      action: typeof record.action === 'string' ? record.action.toLowerCase() : undefined,
      brandId: record.brandId,
      lastFourDigits: record.card?.lastFourDigits,
      parentKind: record.parentKind,
      parentId: record.parentId,
      parentPaymentId: record.parentPaymentId,
    });
  } else {
    Object.assign(item, { expiresAt: iso(record.expiresAt), attempts: record.attempts });
  }
  return JSON.parse(JSON.stringify(item)) as ListItem;
}

/** `2026-11-23 11:28` (UTC): short enough for a table row. */
function shortTime(isoText: string): string {
  return isoText.slice(0, 16).replace('T', ' ');
}

/** Lists, prints and returns the newest links, checkouts or payments matching `flags`. */
export async function listResources(kind: ListKind, flags: ListFlags, ctx: CommandContext): Promise<ListResult> {
  const limit = flags.limit ?? 20;
  const pageNumber = flags.page ?? 1;
  const query = new URLSearchParams({ businessId: ctx.client.businessId, limit: String(limit) });
  if (pageNumber > 1) query.set('page', String(pageNumber));
  if (flags.status) query.set('status', flags.status.trim().toUpperCase());
  if (flags.trackingCode) query.set('trackingCode', flags.trackingCode);
  if (flags.since) query.set('since', flags.since.trim());
  const page = await ctx.ui.spin(`Listing ${NOUNS[kind]}`, () => adminOk(ctx.admin, 'GET', `/__sandbox/${TABLES[kind]}?${query}`));
  const body = page.body as { items: unknown[]; total: number };
  const result: ListResult = {
    kind,
    businessId: ctx.client.businessId,
    items: body.items.map((r) => itemOf(kind, r)),
    total: body.total,
    limit,
    page: pageNumber,
  };
  const { ui } = ctx;
  if (ui.options.json) {
    ui.json(result);
    return result;
  }
  if (result.items.length === 0) {
    ui.info(pageNote(0, result.total, limit, pageNumber) ?? `No ${NOUNS[kind]} of business ${result.businessId} match.`);
    return result;
  }
  const state = (s: string) => (kind === 'payment' ? (s === 'OK' ? ui.color.green(s) : ui.color.red(s)) : ui.state(s));
  if (kind === 'payment') {
    ui.table(
      ['PAYMENT ID', 'STATE', 'ACTION', 'AMOUNT', 'CARD', 'TRACKING CODE', 'CREATED'],
      result.items.map((i) => [
        i.id,
        state(i.state),
        i.action ?? '-',
        formatAmount(i.amount, i.currencyCode),
        i.lastFourDigits ? `${brandName(i.brandId)} ····${i.lastFourDigits}` : '-',
        i.trackingCode ?? '-',
        shortTime(i.createdAt),
      ]),
    );
  } else {
    ui.table(
      [kind === 'link' ? 'LINK ID' : 'CHECKOUT ID', 'STATE', 'AMOUNT', 'TRACKING CODE', 'ATTEMPTS', 'CREATED'],
      result.items.map((i) => [
        i.id,
        state(i.state),
        formatAmount(i.amount, i.currencyCode),
        i.trackingCode ?? '-',
        String(i.attempts ?? 0),
        shortTime(i.createdAt),
      ]),
    );
  }
  const note = pageNote(result.items.length, result.total, limit, pageNumber);
  if (note !== undefined) ui.info(note);
  return result;
}

/** One saved card token in `token list` (`--json`: `items[]`). Never a card number: its last four digits. */
export interface TokenItem {
  token: string;
  brandId: number;
  displayHint: string;
  lastFourDigits: string;
  expiry: string;
  holderName: string;
  /** The test-card outcome payments with this token replay. */
  behaviour: string;
  trackingCode?: string | undefined;
  /** The `customer.customerId` the token is keyed by (a one-click checkout offers the customer's tokens). */
  customerId?: string | undefined;
  /** ISO 8601. */
  createdAt: string;
}

/** `paylink token list`: the newest saved card tokens of the business (sandbox only). */
export async function listTokens(
  _args: Args<typeof tokenList>,
  flags: Options<typeof tokenList>,
  ctx: CommandContext,
): Promise<{ kind: 'token'; businessId: string; items: TokenItem[]; total: number; limit: number; page: number }> {
  const limit = flags.limit ?? 20;
  const pageNumber = flags.page ?? 1;
  const query = new URLSearchParams({ businessId: ctx.client.businessId, limit: String(limit) });
  if (pageNumber > 1) query.set('page', String(pageNumber));
  if (flags.trackingCode) query.set('trackingCode', flags.trackingCode);
  if (flags.since) query.set('since', flags.since.trim());
  if (flags.customer !== undefined) query.set('customerId', flags.customer);
  const page = await ctx.ui.spin('Listing tokens', () => adminOk(ctx.admin, 'GET', `/__sandbox/tokens?${query}`));
  const body = page.body as { items: any[]; total: number };
  const items: TokenItem[] = body.items.map(
    (r) =>
      JSON.parse(
        JSON.stringify({
          token: String(r.token ?? r.id),
          brandId: Number(r.brandId),
          displayHint: String(r.displayHint ?? ''),
          lastFourDigits: String(r.lastFourDigits ?? ''),
          expiry: `${r.expiryMonth}/${r.expiryYear}`,
          holderName: String(r.holderName ?? ''),
          behaviour: String(r.behaviour ?? ''),
          trackingCode: r.trackingCode,
          customerId: r.customer?.customerId === undefined ? undefined : String(r.customer.customerId),
          createdAt: iso(r.createdAt) ?? '',
        }),
      ) as TokenItem,
  );
  const result = { kind: 'token' as const, businessId: ctx.client.businessId, items, total: body.total, limit, page: pageNumber };
  const { ui } = ctx;
  if (ui.options.json) {
    ui.json(result);
    return result;
  }
  if (items.length === 0) {
    ui.info(pageNote(0, result.total, limit, pageNumber) ?? `No tokens of business ${result.businessId} match.`);
    return result;
  }
  ui.table(
    ['TOKEN', 'CARD', 'EXPIRY', 'REPLAYS', 'CUSTOMER', 'TRACKING CODE', 'CREATED'],
    items.map((t) => [
      t.token,
      `${brandName(t.brandId)} ····${t.lastFourDigits}`,
      t.expiry,
      t.behaviour,
      t.customerId ?? '-',
      t.trackingCode ?? '-',
      shortTime(t.createdAt),
    ]),
  );
  const note = pageNote(items.length, result.total, limit, pageNumber);
  if (note !== undefined) ui.info(note);
  return result;
}
