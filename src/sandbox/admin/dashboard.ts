/**
 * The dashboard at `/` and its pages under `/__sandbox/dashboard/`: links, checkouts, payments and tokens
 * with their states, a detail view of each (attempts, redirect, requests), the request log, the clock, and
 * buttons to open the hosted page or pay as the customer. Behind the admin token when the sandbox has one;
 * a `?token=` is traded for an HttpOnly SameSite=Strict cookie and dropped from the address.
 */
import { formatClockOffset, isoUtc } from '../domain/clock.js';
import { checkoutState, linkStatus } from '../domain/lifecycle.js';
import type { CheckoutRecord, LinkRecord, PaymentRecord, TokenRecord } from '../domain/records.js';
import { cardForOutcome, OUTCOME_NAMES, THREE_DS_APPROVE_CODE, type OutcomeName } from '../domain/test-cards.js';
import { invalidValue, notFound } from '../errors.js';
import { readForm } from '../http/request.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import type { ResourceTable } from '../services/admin-browse.js';
import type { LoggedRequest, RequestFilter } from '../services/request-log.js';
import type { CustomerPlay } from '../services/submission.js';
import { endingOf, parentState, parentStatus, paymentStateText, type Parent } from '../domain/lifecycle.js';
import { hostedPageUrl, libraryDemoPath, merchantRedirect } from '../domain/paths.js';
import { testCardCvv } from '../domain/hosted-form.js';
import { brandById } from '../domain/brands.js';
import { maskIban } from '../domain/iban.js';
import { oneClickSummary } from '../domain/one-click.js';
import { threeDSecureSummary } from '../domain/three-d-secure.js';
import { formatAmount } from '../domain/money.js';
import { describeFiredFault } from '../domain/faults.js';
import { BANK_PENDING_MS, CHALLENGE_OPEN_MS, timeSettlementOf, WALLET_PENDING_MS, type TimeSettlement } from '../domain/time-settles.js';
import { simulatorFlow } from '../services/bank.js';
import type { ActionView, Cell, ClockPanel, DetailView, RequestsPanel, RequestView, TableView } from '../../pages/dashboard/model.js';
import { renderDetail, renderList, renderOverview, renderRequestLog } from '../../pages/dashboard/pages.js';

const BASE = '/__sandbox/dashboard';

/** The page allows no script at all, styles inline only, and forms posting to itself. */
const HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

/** Outcomes the pay button offers: every test-card outcome, plus the decline button. */
const PAY_CHOICES: readonly string[] = [...OUTCOME_NAMES, 'decline-button'];

function page(text: string): Reply {
  return Reply.html(200, text, HEADERS);
}

function safeBack(value: string | null): string {
  // Only a path of this sandbox: never `//host` or a scheme (open redirect); printable ASCII only, since
  // it goes into the Location header as is (a `€` there was a 500).
  return value && /^\/(?![/\\])[\x21-\x7e]*$/.test(value) ? value : '/';
}

// ---- View helpers ----

function clockPanel(sandbox: SandboxView, back: string): ClockPanel {
  const view = sandbox.services.admin.clock();
  return { now: view.now, offset: formatClockOffset(view.offsetMs), frozen: view.frozen, action: `${BASE}/clock`, back };
}

function money(amount: number, currency: string): string {
  return formatAmount(amount, currency);
}

function detailHref(kind: 'links' | 'checkouts' | 'payments' | 'tokens', id: string): string {
  return `${BASE}/${kind}/${encodeURIComponent(id)}`;
}

/** A time in a table row: short (`2026-11-23 14:19`), the full ISO time on hover. */
function when(epochMs: number): Cell {
  const full = isoUtc(epochMs);
  return { text: full.slice(0, 16).replace('T', ' '), title: full };
}

/** A brand for people: its name (`VISA`), the id on hover. */
function brandText(id: number): string {
  return brandById(id)?.name ?? String(id);
}

function linkRow(l: LinkRecord, now: number): Cell[] {
  return [
    { text: l.id, href: detailHref('links', l.id), mono: true },
    l.businessId,
    l.trackingCode ?? '',
    money(l.transaction.amount, l.transaction.currencyCode),
    { text: linkStatus(l, now), state: linkStatus(l, now) },
    when(l.createdAt),
    when(l.expiresAt),
  ];
}
const LINK_COLUMNS = ['link', 'business', 'tracking code', 'amount', 'status', 'created', 'expires'];

function checkoutRow(c: CheckoutRecord, now: number): Cell[] {
  const state = checkoutState(c, now);
  return [
    { text: c.id, href: detailHref('checkouts', c.id), mono: true },
    c.businessId,
    c.trackingCode ?? '',
    money(c.transaction.amount, c.transaction.currencyCode),
    { text: state, state },
    when(c.createdAt),
    when(c.expiresAt),
  ];
}
const CHECKOUT_COLUMNS = ['checkout', 'business', 'tracking code', 'amount', 'state', 'created', 'expires'];

function parentCell(p: PaymentRecord): Cell {
  // Ids start with their creation time, so neighbours share a prefix: show the random tail instead.
  if (p.parentKind && p.parentId)
    return { text: `${p.parentKind} …${p.parentId.slice(-12)}`, href: detailHref(p.parentKind === 'link' ? 'links' : 'checkouts', p.parentId) };
  if (p.parentPaymentId) return { text: `payment …${p.parentPaymentId.slice(-12)}`, href: detailHref('payments', p.parentPaymentId) };
  return 'API';
}

function paymentRow(p: PaymentRecord): Cell[] {
  const state = paymentStateText(p);
  return [
    { text: p.id, href: detailHref('payments', p.id), mono: true },
    p.businessId,
    p.action.toLowerCase(),
    money(p.amount, p.currencyCode),
    { text: state, state },
    p.card ? `${p.card.firstSixDigits}…${p.card.lastFourDigits}` : p.token ? p.token.displayHint : '',
    parentCell(p),
    when(p.createdAt),
  ];
}
const PAYMENT_COLUMNS = ['payment', 'business', 'action', 'amount', 'result', 'card', 'made from', 'created'];

function tokenRow(t: TokenRecord): Cell[] {
  return [
    { text: t.token, href: detailHref('tokens', t.id), mono: true },
    t.businessId,
    t.displayHint,
    brandText(t.brandId),
    t.holderName,
    `${t.expiryMonth}/${t.expiryYear}`,
    when(t.createdAt),
  ];
}
const TOKEN_COLUMNS = ['token', 'business', 'card', 'brand', 'holder', 'expiry', 'created'];

function requestView(r: LoggedRequest): RequestView {
  return {
    seq: r.seq,
    at: r.at,
    method: r.method,
    path: r.query ? `${r.path}?${r.query}` : r.path,
    status: r.status,
    durationMs: r.durationMs,
    businessId: r.businessId ?? '',
    request: r.request === undefined ? undefined : JSON.stringify(r.request, null, 2),
    response: r.response === undefined ? undefined : JSON.stringify(r.response, null, 2),
    fault: r.fault === undefined ? undefined : describeFiredFault(r.fault),
  };
}

function requestsFor(sandbox: SandboxView, id: string): RequestsPanel {
  const rows = sandbox.services.admin.requestLog().list({ path: id, limit: 30 }).reverse();
  return {
    title: 'Requests',
    rows: rows.map(requestView),
    empty: 'No logged request names this id.',
    more: { href: `${BASE}/requests?path=${encodeURIComponent(id)}`, label: 'In the request log' },
  };
}

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

// ---- Pages ----

const TABLE_TITLES: Record<ResourceTable, string> = { links: 'Payment links', checkouts: 'Checkouts', payments: 'Payments', tokens: 'Tokens' };

function tableOf(sandbox: SandboxView, table: ResourceTable, pageNo: number, pageSize: number, businessId: string | undefined, withPager: boolean): TableView {
  const now = sandbox.clock.now();
  const paged = sandbox.services.admin.list(table, { page: pageNo, pageSize, businessId });
  const rows: Cell[][] =
    table === 'links'
      ? (paged.items as LinkRecord[]).map((l) => linkRow(l, now))
      : table === 'checkouts'
        ? (paged.items as CheckoutRecord[]).map((c) => checkoutRow(c, now))
        : table === 'payments'
          ? (paged.items as PaymentRecord[]).map(paymentRow)
          : (paged.items as TokenRecord[]).map(tokenRow);
  const columns = table === 'links' ? LINK_COLUMNS : table === 'checkouts' ? CHECKOUT_COLUMNS : table === 'payments' ? PAYMENT_COLUMNS : TOKEN_COLUMNS;
  const href = (n: number) => `${BASE}/${table}?page=${n}${businessId ? `&businessId=${encodeURIComponent(businessId)}` : ''}`;
  return {
    id: table,
    title: `${TABLE_TITLES[table]}${withPager ? '' : ` (${paged.total})`}`,
    columns,
    rows,
    empty: `No ${TABLE_TITLES[table].toLowerCase()} yet.`,
    more: withPager || paged.total <= pageSize ? undefined : { href: `${BASE}/${table}`, label: `All ${paged.total} ${TABLE_TITLES[table].toLowerCase()}` },
    pager: withPager
      ? {
          page: paged.page,
          pages: paged.pages,
          total: paged.total,
          prevHref: paged.page > 1 ? href(paged.page - 1) : undefined,
          nextHref: paged.page < paged.pages ? href(paged.page + 1) : undefined,
        }
      : undefined,
  };
}

/** What each store holds against its bound (docs/reliability.md, "Retention"), and warnings first. */
function storageTable(sandbox: SandboxView): TableView {
  const s = sandbox.services.admin.storage(true);
  const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  const rows: Cell[][] = [
    ...(s.warnings ?? []).map((w): Cell[] => ['warning', w, '']),
    ['database', mib(s.databaseBytes), s.diskFreeBytes == null ? '' : `${mib(s.diskFreeBytes)} free on the disk`],
    ['events', `${s.events.count}`, `newest ${s.events.kept} kept, older ones pruned once settled`],
    ['deliveries', `${s.deliveries.count} (${s.deliveries.pending} pending)`, 'pruned with their events; pending ones give up after the last retry'],
    ['request log', `${s.requestLog.rows} rows, ${mib(s.requestLog.bytes)}`, `${s.requestLog.maxRows} rows, ${mib(s.requestLog.maxBytes)}`],
    ['used form tokens', `${s.formTokens.count}`, 'kept a day'],
    ['snapshots', `${s.snapshots.count}, ${mib(s.snapshots.bytes)}`, `${mib(s.snapshots.maxBytes)}; a save past it is refused`],
  ];
  return { id: 'storage', title: 'Storage', columns: ['store', 'holds', 'bound'], rows, empty: '' };
}

/** SEPA credits on their way (1 Waiting) and when each settles by the sandbox clock; none: no table. */
async function waitingCreditsTable(sandbox: SandboxView): Promise<TableView[]> {
  const waiting = await sandbox.services.credits.waiting();
  if (waiting.length === 0) return [];
  return [
    {
      id: 'waiting-credits',
      title: `Credits waiting to settle (${waiting.length})`,
      columns: ['credit', 'business', 'amount', 'to', 'settles at'],
      rows: waiting.map((p): Cell[] => [
        { text: p.id, href: detailHref('payments', p.id), mono: true },
        p.businessId,
        money(p.amount, p.currencyCode),
        `${p.bank?.accountHolderName ?? ''} ${p.bank?.iban ?? ''}`.trim(),
        p.settlesAt !== undefined ? isoUtc(p.settlesAt) : '',
      ]),
      empty: 'None.',
    },
  ];
}

async function overview(req: RouteRequest): Promise<Reply> {
  const { sandbox } = req;
  const waiting = await waitingCreditsTable(sandbox);
  const recent = sandbox.services.admin.requestLog().list({ limit: 15 }).reverse();
  return page(
    renderOverview({
      title: 'Overview',
      section: 'overview',
      clock: clockPanel(sandbox, '/'),
      notice: noticeOf(req),
      tables: [
        ...waiting,
        ...(['links', 'checkouts', 'payments', 'tokens'] as const).map((t) => tableOf(sandbox, t, 1, 10, undefined, false)),
        storageTable(sandbox),
      ],
      requests: {
        title: 'Latest requests',
        rows: recent.map(requestView),
        empty: 'No requests logged yet.',
        more: { href: `${BASE}/requests`, label: 'Request log' },
      },
    }),
  );
}

function listPage(table: ResourceTable) {
  return (req: RouteRequest): Reply => {
    const businessId = req.query.get('businessId') || undefined;
    return page(
      renderList({
        title: TABLE_TITLES[table],
        section: table,
        clock: clockPanel(req.sandbox, `${BASE}/${table}`),
        table: tableOf(req.sandbox, table, positiveInt(req.query.get('page'), 1), 25, businessId, true),
        businessFilter: { value: businessId ?? '', action: `${BASE}/${table}` },
      }),
    );
  };
}

/** The notice after an action, from fixed wording and validated values only (no free text from the query). */
function noticeOf(req: RouteRequest): string | undefined {
  const done = req.query.get('done');
  const state = req.query.get('state') ?? '';
  const safeState = /^[A-Z]{2,20}$/.test(state) ? state : '';
  if (done === 'paid') {
    const outcome = req.query.get('outcome') ?? '';
    if (!PAY_CHOICES.includes(outcome)) return undefined;
    return `Paid as the customer with outcome "${outcome}"${safeState ? `: now ${safeState}` : ''}.`;
  }
  if (done === 'copied') return 'Created a new link like the one it was made from.';
  if (done === 'clock') return 'The sandbox clock moved.';
  return undefined;
}

function linkDetail(req: RouteRequest): Reply {
  const { sandbox } = req;
  const link = sandbox.services.admin.record('links', req.params.id!);
  if (!link) throw notFound('Payment link');
  const now = sandbox.clock.now();
  const status = linkStatus(link, now);
  const payable = status === 'READY';
  const payments = sandbox.services.admin.paymentsOf(link.paymentIds);
  const parent: Parent = { kind: 'link', record: link };
  const ending = endingOf(parent, now);
  const lastPayment = link.paymentIds.at(-1);
  const actions: ActionView[] = [];
  if (payable) {
    actions.push({ kind: 'open', label: 'Open hosted page', href: hostedPageUrl('', 'link', link.id) });
    actions.push({ kind: 'open', label: 'Try it in the library demo', href: libraryDemoPath(link.id), id: 'open-demo' });
    actions.push({ kind: 'pay', label: 'Pay as customer', action: `${detailHref('links', link.id)}/pay`, outcomes: PAY_CHOICES, selected: 'approved' });
  }
  actions.push({ kind: 'post', label: 'New link like this', action: `${detailHref('links', link.id)}/copy`, id: 'copy-link' });
  const view: DetailView = {
    title: 'Payment link',
    section: 'links',
    clock: clockPanel(sandbox, detailHref('links', link.id)),
    notice: noticeOf(req),
    kind: 'link',
    id: link.id,
    state: status,
    fields: [
      ['Business', link.businessId],
      ['Tracking code', link.trackingCode ?? ''],
      ['Amount', money(link.transaction.amount, link.transaction.currencyCode)],
      ['Authorization mode', link.transaction.authorizationMode],
      ['Status', { text: status, state: status }],
      ['Created', isoUtc(link.createdAt)],
      ['Expires', `${isoUtc(link.expiresAt)} (${link.duration})`],
      ['Brands', link.brandIds.map(brandText).join(', ')],
      ['Tokenize', link.tokenize],
      ['3-D Secure', link.threeDSecure ? 'yes' : 'no'],
      ['Attempts', String(link.attempts)],
      ['Hosted page (redirect.url)', { text: hostedPageUrl(sandbox.baseUrl, 'link', link.id), mono: true }],
      ['Return URL', { text: link.returnUrl, mono: true }],
      ['Customer sent to', ending ? { text: merchantRedirect(parent, ending, lastPayment), mono: true } : 'not yet'],
    ],
    actions,
    tables: [
      {
        id: 'attempts',
        title: `Attempts (${payments.length})`,
        columns: PAYMENT_COLUMNS,
        rows: payments.map(paymentRow),
        empty: 'The customer has not submitted the form yet.',
      },
    ],
    requests: requestsFor(sandbox, link.id),
  };
  return page(renderDetail(view));
}

function checkoutDetail(req: RouteRequest): Reply {
  const { sandbox } = req;
  const checkout = sandbox.services.admin.record('checkouts', req.params.id!);
  if (!checkout) throw notFound('Checkout');
  const now = sandbox.clock.now();
  const state = checkoutState(checkout, now);
  const parent: Parent = { kind: 'checkout', record: checkout };
  const open = parentState(parent, now) === 'open';
  const ending = endingOf(parent, now);
  const payments = sandbox.services.admin.paymentsOf(checkout.paymentIds);
  const actions: ActionView[] = open
    ? [
        { kind: 'open', label: 'Open hosted page', href: hostedPageUrl('', 'checkout', checkout.id) },
        { kind: 'open', label: 'Try it in the library demo', href: libraryDemoPath(checkout.id), id: 'open-demo' },
        { kind: 'pay', label: 'Pay as customer', action: `${detailHref('checkouts', checkout.id)}/pay`, outcomes: PAY_CHOICES, selected: 'approved' },
      ]
    : [];
  return page(
    renderDetail({
      title: 'Checkout',
      section: 'checkouts',
      clock: clockPanel(sandbox, detailHref('checkouts', checkout.id)),
      notice: noticeOf(req),
      kind: 'checkout',
      id: checkout.id,
      state,
      fields: [
        ['Business', checkout.businessId],
        ['Tracking code', checkout.trackingCode ?? ''],
        ['Amount', money(checkout.transaction.amount, checkout.transaction.currencyCode)],
        ['Authorization mode', checkout.transaction.authorizationMode],
        ['State', { text: state, state }],
        ['Created', isoUtc(checkout.createdAt)],
        ['Expires', isoUtc(checkout.expiresAt)],
        ['Brands', checkout.brandIds.map(brandText).join(', ')],
        ['Tokenize', checkout.tokenize],
        ['Attempts', String(checkout.attempts)],
        ['Hosted page (redirect.url)', { text: hostedPageUrl(sandbox.baseUrl, 'checkout', checkout.id), mono: true }],
        ['Return URL', { text: checkout.returnUrl, mono: true }],
        ['Customer sent to', ending ? { text: merchantRedirect(parent, ending, checkout.paymentIds.at(-1)), mono: true } : 'not yet'],
        ...oneClickFields(checkout),
      ],
      actions,
      tables: [
        ...savedCardsTable(sandbox, checkout),
        {
          id: 'attempts',
          title: `Attempts (${payments.length})`,
          columns: PAYMENT_COLUMNS,
          rows: payments.map(paymentRow),
          empty: 'The customer has not submitted the form yet.',
        },
      ],
      requests: requestsFor(sandbox, checkout.id),
    }),
  );
}

/** A one-click checkout's offer: what it asked for and its customer id (none for another checkout). */
function oneClickFields(checkout: CheckoutRecord): Array<[string, Cell]> {
  if (checkout.oneClick === undefined) return [];
  const fields: Array<[string, Cell]> = [['One-click', oneClickSummary(checkout.oneClick, checkout.customerId)]];
  if (checkout.customerId !== undefined) fields.push(['Customer id', { text: checkout.customerId, mono: true }]);
  return fields;
}

/** The saved cards a one-click checkout's form offers now, each linked to its token's page. */
function savedCardsTable(sandbox: SandboxView, checkout: CheckoutRecord): TableView[] {
  if (checkout.oneClick === undefined) return [];
  const cards = sandbox.services.hosted.savedCards(checkout);
  return [
    {
      id: 'saved-cards',
      title: `Saved cards offered (${cards.length})`,
      columns: ['Token', 'Card', 'Expiry', 'Customer id'],
      rows: cards.map((t): Cell[] => [
        { text: t.token, href: detailHref('tokens', t.id), mono: true },
        `${brandText(t.brandId)} ${t.displayHint}`,
        `${t.expiryMonth}/${t.expiryYear}`,
        customerIdOf(t) ?? '',
      ]),
      empty: 'None: no token of the business matches what the checkout asked for.',
    },
  ];
}

/** The `customer.customerId` a token is keyed by, if it was saved with one. */
function customerIdOf(t: TokenRecord): string | undefined {
  const id = t.customer?.customerId;
  return id === undefined || id === null ? undefined : String(id);
}

/** What time does to a waiting payment, as its detail page says it (docs/test-cards.md, "What time settles"). */
const SETTLE_TEXT: Record<TimeSettlement['kind'], string> = {
  'challenge-abandoned': `the 3-D Secure challenge is abandoned (-10, 3014) unless answered before (${CHALLENGE_OPEN_MS / 60_000} min window)`,
  'bank-expired': `expires as 4 Timeout unless the customer finishes on the bank page before (${BANK_PENDING_MS / 60_000} min window; amounts 1.xx, 2.xx, 3.xx, 5.xx end as their convention says)`,
  'wallet-expired': `expires as 4 Timeout unless the customer finishes on the wallet page before (${WALLET_PENDING_MS / 3_600_000} h window)`,
  'credit-settled': 'the SEPA credit settles 0 Ok (the next business day)',
};

function paymentDetail(req: RouteRequest): Reply {
  const { sandbox } = req;
  const p = sandbox.services.admin.record('payments', req.params.id!);
  if (!p) throw notFound('Payment');
  const state = paymentStateText(p);
  const followUps = sandbox.services.admin.followUpsOf(p.id);
  const fields: Array<[string, Cell]> = [
    ['Business', p.businessId],
    ['Tracking code', p.trackingCode ?? ''],
    ['Action', p.action.toLowerCase()],
    ['Amount', money(p.amount, p.currencyCode)],
    ['Result', `${p.result} ${p.description}`],
    ['Request code', { text: p.requestCode, mono: true }],
    ['Time', p.requestTimestamp],
    ['Brand', brandText(p.brandId)],
    ['Made from', parentCell(p)],
  ];
  if (p.error) fields.push(['Error', `${p.error.code}: ${p.error.message}`]);
  if (p.card)
    fields.push([
      'Card',
      `${p.card.firstSixDigits}…${p.card.lastFourDigits} ${p.card.expiryMonth}/${p.card.expiryYear} ${p.card.holderName} (approval ${p.card.approvalCode}, CVV ${p.card.cvvResult})`,
    ]);
  if (p.token) fields.push(['Token', { text: p.token.token, href: detailHref('tokens', p.token.token), mono: true }]);
  if (p.threeDSecure) fields.push(['3-D Secure', threeDSecureSummary(p.threeDSecure)]);
  // A SEPA Direct Debit's account: the IBAN masked (a credit's destination below is the merchant's own).
  if (p.action !== 'CREDIT' && p.bank?.iban !== undefined) fields.push(['Account', `${p.bank.accountHolderName ?? ''} ${maskIban(p.bank.iban)}`.trim()]);
  if (p.redirect) fields.push(['Redirect', { text: p.redirect.url, mono: true }]);
  if (p.capturedAmount !== undefined) fields.push(['Captured', money(p.capturedAmount, p.currencyCode)]);
  if (p.refundedAmount !== undefined) fields.push(['Refunded', money(p.refundedAmount, p.currencyCode)]);
  if (p.cancelled) fields.push(['Cancelled', 'yes']);
  const settles = timeSettlementOf(p, simulatorFlow(p));
  if (settles !== undefined) fields.push(['Settles by time', `${isoUtc(settles.dueAt)}: ${SETTLE_TEXT[settles.kind]}`]);
  if (p.settlesAt !== undefined) fields.push(['Settles at', `${isoUtc(p.settlesAt)} (sandbox clock: advancing the clock past it settles the credit)`]);
  if (p.action === 'CREDIT' && p.bank?.iban !== undefined)
    fields.push(['Paid to', `${p.bank.accountHolderName ?? ''} ${p.bank.iban}${p.bank.bic ? ` (${p.bank.bic})` : ''}`.trim()]);
  return page(
    renderDetail({
      title: 'Payment',
      section: 'payments',
      clock: clockPanel(sandbox, detailHref('payments', p.id)),
      kind: 'payment',
      id: p.id,
      state,
      fields,
      // The bank page's path on this sandbox, whatever origin the stored URL names (a tunnel's, say).
      actions: p.redirect ? [{ kind: 'open', label: 'Open bank page', href: p.redirect.url.replace(/^https?:\/\/[^/]+/i, '') || '/' }] : [],
      tables: [{ id: 'follow-ups', title: 'Captures, cancels and refunds', columns: PAYMENT_COLUMNS, rows: followUps.map(paymentRow), empty: 'None.' }],
      requests: requestsFor(sandbox, p.id),
    }),
  );
}

function tokenDetail(req: RouteRequest): Reply {
  const { sandbox } = req;
  const t = sandbox.services.admin.record('tokens', req.params.id!);
  if (!t) throw notFound('Token');
  return page(
    renderDetail({
      title: 'Token',
      section: 'tokens',
      clock: clockPanel(sandbox, detailHref('tokens', t.id)),
      kind: 'token',
      id: t.id,
      fields: [
        ['Business', t.businessId],
        ['Card', `${t.displayHint} (${t.firstSixDigits}…${t.lastFourDigits})`],
        ['Expiry', `${t.expiryMonth}/${t.expiryYear}`],
        ['Holder', t.holderName],
        ['Brand', brandText(t.brandId)],
        ['Behaves like', t.behaviour],
        ['Customer id', customerIdOf(t) ?? 'none (not offered by customer on one-click checkouts)'],
        ['Created', isoUtc(t.createdAt)],
      ],
      actions: [],
      tables: [
        {
          id: 'token-payments',
          title: 'Payments that returned this token',
          columns: PAYMENT_COLUMNS,
          rows: sandbox.services.admin.paymentsWithToken(t.token).map(paymentRow),
          empty: 'None.',
        },
      ],
      requests: requestsFor(sandbox, t.id),
    }),
  );
}

function requestLogPage(req: RouteRequest): Reply {
  const path = req.query.get('path') ?? '';
  const status = req.query.get('status') ?? '';
  const businessId = req.query.get('businessId') ?? '';
  const before = positiveInt(req.query.get('before'), 0) || undefined;
  const filter: RequestFilter = { path: path || undefined, businessId: businessId || undefined, before, limit: 50 };
  if (/^([1-5]\d\d|[1-5]xx)$/i.test(status)) filter.status = status;
  const rows = req.sandbox.services.admin.requestLog().list(filter).reverse();
  const keep = new URLSearchParams();
  if (path) keep.set('path', path);
  if (filter.status) keep.set('status', status);
  if (businessId) keep.set('businessId', businessId);
  const oldest = rows.at(-1)?.seq;
  return page(
    renderRequestLog({
      title: 'Request log',
      section: 'requests',
      clock: clockPanel(req.sandbox, `${BASE}/requests`),
      requests: {
        title: 'Newest first (card data masked)',
        rows: rows.map(requestView),
        empty: 'No requests match.',
        filters: { path, status, businessId, action: `${BASE}/requests` },
        pager: {
          olderHref: rows.length === 50 && oldest !== undefined ? `${BASE}/requests?${new URLSearchParams([...keep, ['before', String(oldest)]])}` : undefined,
          newerHref: before !== undefined ? `${BASE}/requests${keep.size > 0 ? `?${keep}` : ''}` : undefined,
        },
      },
    }),
  );
}

// ---- Actions ----

async function postClock(req: RouteRequest): Promise<Reply> {
  const form = await readForm(req.event.node.req);
  const back = safeBack(form.get('back'));
  if (form.get('reset')) await req.sandbox.services.admin.changeClock({ reset: true });
  else await req.sandbox.services.admin.changeClock({ advance: form.get('advance') ?? '' });
  return Reply.redirect(`${back}${back.includes('?') ? '&' : '?'}done=clock`, 303);
}

/**
 * Pays a link or checkout as the customer would, in this process: the same one-time form token and
 * submission as the hosted form (services/attempts.ts), and the challenge answered with the approving
 * code for the 3-D Secure card.
 */
async function payAsCustomer(req: RouteRequest, kind: 'link' | 'checkout'): Promise<Reply> {
  const { sandbox } = req;
  const id = req.params.id!;
  const form = await readForm(req.event.node.req);
  const choice = form.get('outcome') ?? 'approved';
  if (!PAY_CHOICES.includes(choice)) throw invalidValue('outcome', `Use one of: ${PAY_CHOICES.join(', ')}.`);
  const ended = await sandbox.services.hosted.playCustomer(kind, id, (parent): CustomerPlay => {
    // A card of a brand this link or checkout accepts, when the outcome has one.
    const card = choice === 'decline-button' ? undefined : cardForOutcome(choice as OutcomeName, parent.record.brandIds);
    return card ? { action: 'pay', card: { number: card.number, cvv: testCardCvv(card.brandId) }, threeDsCode: THREE_DS_APPROVE_CODE } : { action: 'decline' };
  });
  const state = parentStatus(ended, sandbox.clock.now());
  const table = kind === 'link' ? 'links' : 'checkouts';
  return Reply.redirect(`${detailHref(table, id)}?done=paid&outcome=${encodeURIComponent(choice)}&state=${encodeURIComponent(state)}`, 303);
}

/** A new READY link with the same amount, brands, return URL and duration, and a fresh tracking code. */
async function copyLink(req: RouteRequest): Promise<Reply> {
  const link = await req.sandbox.services.links.copy(req.params.id!);
  return Reply.redirect(`${detailHref('links', link.id)}?done=copied`, 303);
}

/** The dashboard's routes (page kind, so failures render as HTML; each checks the admin token itself). */
export const dashboardRoutes: Route[] = [
  { route: 'home', handler: overview },
  { route: 'dashboard.overview', handler: overview },
  { route: 'dashboard.links', handler: listPage('links') },
  { route: 'dashboard.checkouts', handler: listPage('checkouts') },
  { route: 'dashboard.payments', handler: listPage('payments') },
  { route: 'dashboard.tokens', handler: listPage('tokens') },
  { route: 'dashboard.requests', handler: requestLogPage },
  { route: 'dashboard.link', handler: linkDetail },
  { route: 'dashboard.checkout', handler: checkoutDetail },
  { route: 'dashboard.payment', handler: paymentDetail },
  { route: 'dashboard.token', handler: tokenDetail },
  { route: 'dashboard.clock', handler: postClock },
  { route: 'dashboard.link.pay', handler: (req) => payAsCustomer(req, 'link') },
  { route: 'dashboard.checkout.pay', handler: (req) => payAsCustomer(req, 'checkout') },
  { route: 'dashboard.link.copy', handler: copyLink },
];
