/**
 * Sandbox-only endpoints under `/__sandbox/` (reset, clock, request log, dashboard data). Open on loopback;
 * behind the admin token when the sandbox listens beyond loopback or has a public URL.
 */
import { envelope } from '../http/envelope.js';
import { invalidValue, RESULTS } from '../errors.js';
import type { Route, RouteRequest, SandboxView } from '../http/router.js';
import type { RequestFilter } from '../services/request-log.js';
import { snapshotRoutes } from './snapshots.js';
import { advisorRoutes } from './advisor.js';
import { RESOURCE_TABLES, stateOf, type ResourceTable } from '../services/admin-browse.js';
import { checkoutState, linkStatus } from '../domain/lifecycle.js';
import { parseClockStep } from '../domain/clock.js';
import type { CheckoutRecord, LinkRecord, TokenRecord } from '../domain/records.js';

/** Longest a follower's request waits for new rows (`wait` is capped to it). */
const MAX_WAIT_SECONDS = 30;

function optionalInteger(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw invalidValue(name, `Use a whole number from ${min} to ${max}.`);
  return value;
}

/** The filters of `GET /__sandbox/requests`, validated. */
export function requestFilterOf(query: URLSearchParams): RequestFilter {
  const status = query.get('status') || undefined;
  if (status !== undefined && !/^([1-5]\d\d|[1-5]xx)$/i.test(status)) throw invalidValue('status', 'Use a status such as 402 or a class such as 4xx.');
  const method = query.get('method') || undefined;
  if (method !== undefined && !/^[a-z]+$/i.test(method)) throw invalidValue('method');
  return {
    path: query.get('path') || undefined,
    status,
    businessId: query.get('businessId') || undefined,
    method,
    since: optionalInteger(query, 'since', 0, Number.MAX_SAFE_INTEGER),
    limit: optionalInteger(query, 'limit', 1, 1000),
  };
}

async function listRequests({ sandbox, query }: RouteRequest) {
  const log = sandbox.services.admin.requestLog();
  const filter = requestFilterOf(query);
  const wait = optionalInteger(query, 'wait', 0, MAX_WAIT_SECONDS);
  const requests = wait !== undefined && filter.since !== undefined ? await log.follow({ ...filter, since: filter.since }, wait * 1000) : log.list(filter);
  // `lastSeq` lets a follower start after what it already saw, even when the filter matched nothing.
  const lastSeq = filter.since !== undefined && requests.length > 0 ? requests.at(-1)!.seq : Math.max(log.lastSeq(), filter.since ?? 0);
  return envelope(sandbox, RESULTS.ok, { requests, lastSeq });
}

async function postClock(req: RouteRequest) {
  const body = await req.json();
  return envelope(req.sandbox, RESULTS.ok, await req.sandbox.services.admin.changeClock(body));
}

/**
 * `since`: epoch milliseconds, an ISO 8601 date-time, or a duration back from the sandbox's now (`1h`,
 * `2d`, `PT30M`), as `paylink link list --since` passes it along.
 */
function sinceOf(sandbox: SandboxView, query: URLSearchParams): number | undefined {
  const text = query.get('since')?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(Date.parse(text))) return Date.parse(text);
  const back = parseClockStep(text);
  if (back === undefined || back < 0)
    throw invalidValue('since', 'Use an ISO 8601 date-time, epoch milliseconds, or a duration back from now such as "1h" or "2d".');
  return sandbox.clock.now() - back;
}

/**
 * Dashboard and list data: one page of a resource table, newest first, with the state each has now (links'
 * `status`, checkouts' `state`, both following the sandbox clock, and `state` on every item). Filters:
 * `businessId`, `id`, `trackingCode`, `since`, `customerId` (`customer.customerId`), `status` (the state); `limit` is the page size. Token fingerprints
 * stay internal.
 */
function listResource(table: ResourceTable) {
  return ({ sandbox, query }: RouteRequest) => {
    const page = optionalInteger(query, 'page', 1, 1_000_000);
    const pageSize = optionalInteger(query, 'limit', 1, 200) ?? optionalInteger(query, 'pageSize', 1, 200);
    const state = query.get('status') || undefined;
    if (state !== undefined && !/^[a-z]+$/i.test(state)) throw invalidValue('status', 'Use a state such as READY, PAID or DECLINED.');
    const paged = sandbox.services.admin.list(table, {
      page,
      pageSize,
      businessId: query.get('businessId') || undefined,
      id: query.get('id') || undefined,
      trackingCode: query.get('trackingCode') || undefined,
      customerId: query.get('customerId') || undefined,
      since: sinceOf(sandbox, query),
      state,
    });
    const now = sandbox.clock.now();
    const items = paged.items.map((record) => {
      const current = stateOf(table, record, now);
      if (table === 'links') return { ...record, status: linkStatus(record as LinkRecord, now), state: current };
      if (table === 'checkouts') {
        const checkout = record as CheckoutRecord;
        // A one-click checkout: the saved cards its form offers now (token, brand, last four digits).
        if (checkout.oneClick === undefined) return { ...record, state: checkoutState(checkout, now) };
        const savedCards = sandbox.services.hosted
          .savedCards(checkout)
          .map((t) => ({ token: t.id, brandId: t.brandId, displayHint: t.displayHint, lastFourDigits: t.lastFourDigits }));
        return { ...record, state: checkoutState(checkout, now), savedCards };
      }
      if (table === 'tokens') {
        const { fingerprint: _internal, ...rest } = record as TokenRecord;
        return rest;
      }
      return { ...record, state: current };
    });
    return envelope(sandbox, RESULTS.ok, { ...paged, items });
  };
}

/**
 * `GET /__sandbox/resolve/:id?businessId=`: what an id names (`link`, `checkout`, `payment`, `token`, or
 * null), so that `paylink status <id>` asks the API once, for the right thing, instead of trying each kind
 * and leaving 404s in the request log. Only the business's own documents count when it is given.
 */
function resolveId({ sandbox, params, query }: RouteRequest) {
  const id = params.id ?? '';
  const businessId = query.get('businessId') || undefined;
  return envelope(sandbox, RESULTS.ok, { id, kind: sandbox.services.admin.kindOfId(id, businessId) });
}

export const adminRoutes: Route[] = [
  ...RESOURCE_TABLES.map((table): Route => ({ route: `admin.${table}`, handler: listResource(table) })),
  {
    route: 'admin.health',
    // `storage`: what each store holds and its bound, and warnings before a disk fills (docs/reliability.md, "Retention").
    handler: ({ sandbox }) => envelope(sandbox, RESULTS.ok, { status: 'up', baseUrl: sandbox.baseUrl, storage: sandbox.services.admin.storage() }),
  },
  { route: 'admin.clock', handler: ({ sandbox }) => envelope(sandbox, RESULTS.ok, sandbox.services.admin.clock()) },
  { route: 'admin.clock.set', handler: postClock },
  {
    route: 'admin.reset',
    // `?businessId=` deletes that business's data only.
    handler: async ({ sandbox, query }) => {
      const businessId = query.get('businessId');
      if (businessId === null) return envelope(sandbox, RESULTS.ok, await sandbox.services.admin.reset());
      if (businessId.trim() === '' || businessId.length > 100)
        throw invalidValue('businessId', 'Use the business id whose data to delete (1 to 100 characters).');
      return envelope(sandbox, RESULTS.ok, await sandbox.services.admin.resetBusiness(businessId));
    },
  },
  ...snapshotRoutes,
  { route: 'admin.requests', handler: listRequests },
  { route: 'admin.resolve', handler: resolveId },
  ...advisorRoutes,
];
