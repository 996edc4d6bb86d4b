/**
 * `paylink status <id>`: one view of a link, checkout or payment (lifecycle, attempts, amounts, token),
 * whichever the id names. `--json` prints the documented {@link StatusView}.
 */
import { adminOk, expectOk, resolveKind } from '../client.js';
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import type { status as spec } from './status.spec.js';
import { lifecycleOf } from '../customer.js';
import { ApiResponseError, UsageError, type ErrorEnvelope } from '../errors.js';
import { brandName, money } from '../options.js';
import { maskIban } from '../../sandbox/domain/iban.js';
import { oneClickSummary } from '../../sandbox/domain/one-click.js';
import { threeDSecureSummary } from '../../sandbox/domain/three-d-secure.js';
import { pathOfId, type RouteName } from '../../sandbox/domain/routes.js';

export type StatusKind = 'link' | 'checkout' | 'payment' | 'credit';

/** One attempt (payment entry) in a status view. */
export interface AttemptView {
  id: string | undefined;
  result: number;
  description: string;
  action?: string | undefined;
  brandId?: number | undefined;
  lastFourDigits?: string | undefined;
  token?: string | undefined;
  error?: { code?: number; message?: string } | undefined;
}

/** The `--json` output of `paylink status`. */
export interface StatusView {
  kind: StatusKind;
  id: string;
  /** Link status (READY, PAID...), checkout lifecycle (PENDING, PAID, DECLINED, DECLINEDBYCUSTOMER, TIMEOUT), or the payment's description. */
  state: string;
  result: number;
  description: string;
  amount?: number | undefined;
  currencyCode?: string | undefined;
  trackingCode?: string | undefined;
  expirationTime?: string | undefined;
  /** Every attempt, oldest first (for a payment: the payment itself). */
  attempts: AttemptView[];
  /** The saved card token, when the successful attempt tokenized (or the token a one-click payment used). */
  token?: string | undefined;
  /** A bank payment's account (SEPA Direct Debit 6010): the bank or brand, the holder, the IBAN masked. */
  account?: { name?: string | undefined; accountHolderName?: string | undefined; iban?: string | undefined } | undefined;
  /** A card payment's 3-D Secure results, as `body.threeDSecure` answers them (version, flow, enrollment and authentication results, eci). */
  threeDSecure?: Record<string, string> | undefined;
  /** A one-click checkout: what it asked for (`body.checkout.oneClick`), its customer id and the saved cards its form offers now (sandbox only). */
  oneClick?: OneClickView | undefined;
  /** The API's envelope, unchanged. */
  envelope: any;
}

/** A one-click checkout in a status view. */
export interface OneClickView {
  useCustomerTokens?: boolean | undefined;
  tokens?: string[] | undefined;
  requireCvv?: boolean | undefined;
  threeDSecure?: boolean | undefined;
  customerId?: string | undefined;
  /** The saved cards the checkout's form offers, as the sandbox resolves them; absent against an API that cannot say. */
  savedCards?: Array<{ token: string; brandId: number; displayHint: string; lastFourDigits: string }> | undefined;
}

const READ_ROUTE: Record<StatusKind, RouteName> = { link: 'links.get', checkout: 'checkouts.get', payment: 'payments.get', credit: 'credits.get' };

function attempt(entry: any): AttemptView {
  return {
    id: entry?.body?.transaction?.id,
    result: Number(entry?.result),
    description: String(entry?.description ?? ''),
    action: entry?.body?.transaction?.action,
    brandId: entry?.body?.transaction?.brandId,
    lastFourDigits: entry?.body?.card?.lastFourDigits,
    token: entry?.body?.token?.token,
    error: entry?.body?.error,
  };
}

/** Builds the status view of an envelope. */
export function statusView(kind: StatusKind, id: string, envelope: any): StatusView {
  const body = envelope?.body ?? {};
  if (kind === 'payment' || kind === 'credit') {
    const self = attempt(envelope);
    return {
      kind,
      id,
      state: String(envelope?.description ?? ''),
      result: Number(envelope?.result),
      description: String(envelope?.description ?? ''),
      amount: body.transaction?.amount,
      currencyCode: body.transaction?.currencyCode,
      trackingCode: body.transaction?.trackingCode,
      attempts: [self],
      token: self.token,
      account: kind === 'payment' ? accountOf(body.bank) : undefined,
      threeDSecure: body.threeDSecure && typeof body.threeDSecure === 'object' ? { ...body.threeDSecure } : undefined,
      envelope,
    };
  }
  const resource = kind === 'link' ? body.link : body.checkout;
  const attempts = Array.isArray(body.payments) ? body.payments.map(attempt) : [];
  return {
    kind,
    id,
    state: lifecycleOf(kind, envelope),
    result: Number(envelope?.result),
    description: String(envelope?.description ?? ''),
    amount: body.transaction?.amount,
    currencyCode: body.transaction?.currencyCode,
    trackingCode: body.transaction?.trackingCode,
    expirationTime: resource?.expirationTime,
    attempts,
    token: attempts.find((a: AttemptView) => a.result === 0 && a.token)?.token,
    oneClick: kind === 'checkout' && resource?.oneClick ? { ...resource.oneClick } : undefined,
    envelope,
  };
}

/** A payment's `body.bank` with the IBAN masked (a SEPA Direct Debit's account); a SEPA credit's is its own. */
function accountOf(bank: any): StatusView['account'] {
  if (!bank || typeof bank !== 'object' || typeof bank.iban !== 'string') return undefined;
  return JSON.parse(JSON.stringify({ name: bank.name, accountHolderName: bank.accountHolderName, iban: maskIban(bank.iban) })) as StatusView['account'];
}

/**
 * The customer id and saved cards of a one-click checkout, from the sandbox's admin listing (the API answers
 * what was asked, not what the form offers). Left as it is against an API without one.
 */
async function withSavedCards(ctx: CommandContext, view: StatusView): Promise<StatusView> {
  if (view.oneClick === undefined) return view;
  try {
    const query = new URLSearchParams({ businessId: ctx.client.businessId, id: view.id });
    const page = await adminOk<{ body: { items: any[] } }>(ctx.admin, 'GET', `/__sandbox/checkouts?${query}`);
    const record = page.body.items[0];
    if (record === undefined) return view;
    if (record.customerId !== undefined) view.oneClick!.customerId = String(record.customerId);
    if (Array.isArray(record.savedCards)) view.oneClick!.savedCards = record.savedCards;
  } catch {
    // Not a sandbox (or its admin API is closed to us): the API's answer is all there is.
  }
  return view;
}

/**
 * Finds what the id names and reads it: `kind` when given, else what the sandbox says the id is (one API
 * request, no 404s in its request log), else, against an API that cannot say, link, then checkout, then
 * payment.
 */
export async function readStatus(ctx: CommandContext, id: string, kind?: StatusKind): Promise<StatusView> {
  if (!kind) {
    const resolved = await resolveKind(ctx.admin, id, ctx.client.businessId);
    if (resolved === 'token')
      throw new ApiResponseError(`${id} is a saved card token, not a link, checkout or payment: read it with \`paylink token get ${id}\`.`, 404, undefined);
    if (resolved === null) {
      // Nothing has that id: one request, so that the API's own 404 envelope is what --json prints (the
      // checkout's: a payment's 404 has no body, as the provider's).
      const response = await ctx.client.get(pathOfId(READ_ROUTE.checkout, id));
      throw notFound(ctx, id, response.status, response.body as ErrorEnvelope);
    }
    if (resolved !== undefined) kind = resolved;
  }
  const kinds: StatusKind[] = kind ? [kind] : ['link', 'checkout', 'payment'];
  let last: { status: number; body: unknown } | undefined;
  for (const k of kinds) {
    const response = await ctx.client.get(pathOfId(READ_ROUTE[k], id));
    // A payment's status can be a failure envelope with HTTP 400 (a declined payment): still a status.
    if (k === 'payment' && response.status === 400 && (response.body as any)?.body?.transaction?.id) return statusView(k, id, response.body);
    if (response.status !== 404 || kind) return withSavedCards(ctx, statusView(k, id, expectOk(response, `${k} ${id}`).body));
    last = response;
  }
  throw notFound(ctx, id, 404, last?.body as ErrorEnvelope | undefined);
}

/**
 * Nothing has the id: said of all three kinds, with the API's envelope kept for --json. Not the envelope's
 * own text, which names the one kind last asked ("Checkout not found") and misleads about the rest.
 */
function notFound(ctx: CommandContext, id: string, status: number, envelope: ErrorEnvelope | undefined): ApiResponseError {
  const error = ApiResponseError.fromEnvelope(status, envelope);
  return new ApiResponseError(
    `No payment link, checkout or payment ${id} for business ${ctx.client.businessId}: check the id and the business id (each business sees only its own).`,
    error.status,
    error.envelope,
  );
}

/** `paylink status`: prints the view for people, or as JSON. */
export async function status({ id }: Args<typeof spec>, flags: Options<typeof spec>, ctx: CommandContext): Promise<StatusView> {
  const chosen = (['link', 'checkout', 'payment'] as const).filter((k) => flags[k]);
  if (chosen.length > 1) throw new UsageError('status: give at most one of --link, --checkout, --payment.');
  const view = await ctx.ui.spin(`Reading ${id}`, () => readStatus(ctx, id, chosen[0]));
  const { ui } = ctx;
  if (ui.options.json) {
    ui.json(view);
    return view;
  }
  ui.heading(`${view.kind === 'link' ? 'Payment link' : view.kind === 'checkout' ? 'Checkout' : view.kind === 'credit' ? 'Credit' : 'Payment'} ${view.id}`);
  ui.field('State', ui.state(view.state));
  ui.field('Result', ui.result(view.result, view.description));
  if (view.amount !== undefined) ui.field('Amount', money(view.amount, view.currencyCode));
  if (view.trackingCode !== undefined) ui.field('Tracking code', view.trackingCode);
  if (view.expirationTime) ui.field('Expires', view.expirationTime);
  if (view.token) ui.field('Token', view.token);
  const p = view.envelope?.body?.transaction;
  if (view.kind === 'credit') {
    // A SEPA credit on its way: 1 Waiting, and when it settles by the sandbox clock.
    if (p?.settlesAt) ui.field('Settles', `${String(p.settlesAt)} (sandbox clock; \`paylink clock set\` moves it)`);
    const bank = view.envelope?.body?.bank;
    if (bank?.iban) ui.field('To', `${String(bank.accountHolderName ?? '')} ${String(bank.iban)}`.trim());
  }
  if (view.kind === 'payment') {
    if (p?.action) ui.field('Action', String(p.action));
    if (p?.parentId) ui.field('Original', String(p.parentId));
    if (p?.capturedAmount) ui.field('Captured', money(p.capturedAmount, view.currencyCode));
    if (p?.refundedAmount) ui.field('Refunded', money(p.refundedAmount, view.currencyCode));
    if (p?.cancelled) ui.field('Cancelled', 'yes');
    if (view.account) {
      ui.field('Brand', brandName(p?.brandId));
      ui.field('Account', `${view.account.accountHolderName ?? ''} ${view.account.iban ?? ''}`.trim());
    }
    if (view.threeDSecure) ui.field('3-D Secure', threeDSecureSummary(view.threeDSecure));
  }
  if (view.oneClick) {
    const o = view.oneClick;
    ui.field('One-click', oneClickSummary(o, o.customerId));
    if (o.savedCards !== undefined)
      ui.field(
        'Saved cards',
        o.savedCards.length === 0 ? 'none offered' : o.savedCards.map((c) => `${brandName(c.brandId)} ····${c.lastFourDigits} (${c.token})`).join(', '),
      );
  }
  if (view.kind === 'link' || view.kind === 'checkout') {
    ui.line();
    ui.line(`  ${ui.color.bold(`Attempts (${view.attempts.length})`)}`);
    if (view.attempts.length > 0) {
      ui.table(
        ['#', 'RESULT', 'PAYMENT ID', 'CARD', 'TOKEN'],
        view.attempts.map((a, i) => [
          String(i + 1),
          ui.result(a.result, a.description),
          a.id ?? '-',
          a.lastFourDigits ? `${brandName(a.brandId)} ····${a.lastFourDigits}` : '-',
          a.token ?? '-',
        ]),
      );
    }
  } else if (view.attempts[0]?.lastFourDigits) {
    ui.field('Card', `${brandName(view.attempts[0].brandId)} ····${view.attempts[0].lastFourDigits}`);
  }
  if ((view.kind === 'link' || view.kind === 'checkout') && view.attempts.length > 0 && view.attempts[view.attempts.length - 1]!.error?.message) {
    ui.field('Last error', view.attempts[view.attempts.length - 1]!.error!.message!);
  }
  return view;
}
