/**
 * Pieces shared by the create/get commands of links and checkouts: asking for missing values, printing an
 * envelope for people, and the one-call command shape (`--json` prints the envelope unchanged).
 */
import { expectOk, type ApiResponse } from '../client.js';
import type { CommandContext } from '../context.js';
import type { HOSTED_CREATE_FLAGS, OptionsOf } from '../flags.js';
import { UsageError } from '../errors.js';
import { brandById } from '../../sandbox/domain/brands.js';
import { TEST_CARDS } from '../../sandbox/domain/test-cards.js';
import { brandName, DEFAULT_BRANDS, money, parseAmount, parseBrands, parseCurrency, parseHttpUrl, parseTokenize, type TokenizeMode } from '../options.js';
import type { Ui } from '../ui.js';
import { pathOf } from '../../sandbox/domain/routes.js';

/** Options common to `link create` and `checkout create` (flags.ts), and their `--tokenize`. */
export type CreateFlags = OptionsOf<typeof HOSTED_CREATE_FLAGS> & { tokenize?: string | undefined };

export interface CreateInput {
  amount: number;
  currencyCode: string;
  brandIds: number[];
  returnUrl: string;
  trackingCode: string | undefined;
  tokenize: TokenizeMode | undefined;
  authorizationMode: 'payment' | 'authorize';
}

/**
 * Amount and currency from the flags, else asked on a TTY: the currency first, so the amount is checked
 * against its decimals as it is typed, with the API's own rules (domain/money.ts). Every answer is
 * checked where it is typed, so nothing typed later is lost to a refusal at the end.
 */
export async function resolveAmount(
  flags: { amount?: string | undefined; currency?: string | undefined },
  ui: Ui,
): Promise<{ amount: number; currencyCode: string }> {
  // Without a person to ask, every missing flag is named at once.
  ui.require({ '--amount': flags.amount, '--currency': flags.currency });
  const given = flags.amount === undefined ? undefined : parseAmount(flags.amount);
  const currencyCode = await ui.need(flags.currency === undefined ? undefined : parseCurrency(flags.currency), '--currency', async (p) =>
    parseCurrency(
      await p.input({
        message: 'Currency',
        default: 'EUR',
        validate: (v) => validates(() => (given === undefined ? parseCurrency(v) : parseAmount(flags.amount!, '--amount', parseCurrency(v)))),
      }),
    ),
  );
  const amount =
    given !== undefined
      ? parseAmount(flags.amount!, '--amount', currencyCode)
      : await ui.need(undefined, '--amount', async (p) =>
          parseAmount(
            await p.input({ message: `Amount (${currencyCode})`, validate: (v) => validates(() => parseAmount(v, '--amount', currencyCode)) }),
            '--amount',
            currencyCode,
          ),
        );
  return { amount, currencyCode };
}

/** Resolves flags, asking on a TTY for what is missing (currency, amount, return URL, brands). */
export async function resolveCreateInput(flags: CreateFlags, ui: Ui): Promise<CreateInput> {
  ui.require({ '--amount': flags.amount, '--currency': flags.currency, '--return-url': flags.returnUrl });
  const { amount, currencyCode } = await resolveAmount(flags, ui);
  const returnUrl = await ui.need(flags.returnUrl === undefined ? undefined : parseHttpUrl(flags.returnUrl, '--return-url'), '--return-url', async (p) =>
    parseHttpUrl(
      await p.input({
        message: 'Return URL (where the customer goes after paying)',
        default: 'http://localhost:3000/return',
        validate: (v) => validates(() => parseHttpUrl(v, 'URL')),
      }),
      '--return-url',
    ),
  );
  // Asked only beside a missing --amount, --currency or --return-url: with those given the command runs as
  // typed. Ticked: the brands a test card can pay; a choice nobody could pay is refused where it is made.
  const brandIds = await ui.offerAlong(parseBrands(flags.brand), [...DEFAULT_BRANDS], (p) =>
    p.checkbox({
      message: 'Card brands offered',
      choices: DEFAULT_BRANDS.map((id) => ({ name: `${brandName(id)} (${id})`, value: id, checked: hasTestCard(id) })),
      validate: (values) => (values.length > 0 ? validates(() => checkPayable([...values], ui, false)) : 'Pick at least one brand.'),
    }),
  );
  checkPayable(brandIds, ui, flags.brand !== undefined);
  return {
    amount,
    currencyCode,
    brandIds,
    returnUrl,
    trackingCode: flags.trackingCode,
    tokenize: flags.tokenize === undefined ? undefined : parseTokenize(flags.tokenize),
    authorizationMode: flags.authorize ? 'authorize' : 'payment',
  };
}

/**
 * Refuses brands of which no test card exists (iDEAL, PayPal...): the hosted form of such a link or checkout
 * takes only cards of those brands, so nobody could pay it in the sandbox. Warns when only some lack one.
 */
export function checkPayable(brandIds: number[], ui: Ui, warn = true): void {
  const without = brandIds.filter((id) => !hasTestCard(id));
  if (without.length === 0) return;
  const names = without.map((id) => brandName(id)).join(', ');
  const banks = without.filter((id) => brandById(id)?.kind !== 'card').map((id) => brandName(id));
  const note =
    banks.length > 0 ? ` (${banks.join(', ')} ${banks.length === 1 ? 'is not a card brand' : 'are not card brands'}: the hosted form takes cards only)` : '';
  if (without.length === brandIds.length) {
    const withCards = [...new Set(TEST_CARDS.map((card) => card.brandId))].map((id) => brandName(id)).join(', ');
    throw new UsageError(
      `--brand: no test card exists for ${names}${note}, so the hosted form could not be paid in the sandbox. Offer a brand that has test cards: ${withCards} (docs/test-cards.md).`,
    );
  }
  if (warn) ui.warn(`no test card exists for ${names}${note}: the customer can pay only with the other brands offered.`);
}

/** Can a test card pay a form that offers brand `id`? */
function hasTestCard(id: number): boolean {
  return TEST_CARDS.some((card) => card.brandId === id);
}

/** A prompt's `validate`: true, or the usage error's message without the flag name. */
export function validates(check: () => unknown): true | string {
  try {
    check();
    return true;
  } catch (error) {
    return (error as Error).message.replace(/^[^:]+: /, '');
  }
}

/** Runs one API call under a spinner; a non-2xx answer becomes an `ApiResponseError` (exit 3). */
export async function callApi(ctx: CommandContext, text: string, call: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const response = await ctx.ui.spin(text, call);
  return expectOk(response);
}

/** The transaction lines of an envelope body. */
export function printTransaction(ui: Ui, transaction: any): void {
  if (!transaction) return;
  ui.field('Amount', `${money(transaction.amount, transaction.currencyCode)}${transaction.authorizationMode ? ` (${transaction.authorizationMode})` : ''}`);
  if (transaction.trackingCode !== undefined) ui.field('Tracking code', String(transaction.trackingCode));
}

/** A link or checkout envelope for people. */
export function printResource(ui: Ui, kind: 'link' | 'checkout', envelope: any, title: string): void {
  const body = envelope?.body ?? {};
  const resource = kind === 'link' ? body.link : body.checkout;
  ui.heading(title);
  ui.field(kind === 'link' ? 'Link id' : 'Checkout id', String(kind === 'link' ? resource?.linkId : resource?.checkoutId));
  ui.field('Result', ui.result(envelope.result, envelope.description));
  if (kind === 'link' && resource?.status) ui.field('Status', ui.state(resource.status));
  printTransaction(ui, body.transaction);
  if (Array.isArray(resource?.brandIds)) ui.field('Brands', resource.brandIds.map((id: number) => brandName(id)).join(', '));
  if (resource?.tokenize) ui.field('Tokenize', String(resource.tokenize));
  if (resource?.threeDSecure) ui.field('3-D Secure', 'always');
  if (resource?.expirationTime) ui.field('Expires', String(resource.expirationTime));
  if (resource?.redirect?.url) ui.field('Hosted page', ui.color.cyan(resource.redirect.url));
  if (Array.isArray(body.payments)) printPayments(ui, body.payments);
}

/** The attempts of a link or checkout as a table. */
export function printPayments(ui: Ui, payments: any[]): void {
  ui.line();
  ui.line(`  ${ui.color.bold(`Payments (${payments.length})`)}`);
  if (payments.length === 0) return;
  ui.table(
    ['#', 'RESULT', 'PAYMENT ID', 'CARD', 'TOKEN'],
    payments.map((p, i) => [
      String(i + 1),
      ui.result(p.result, p.description),
      String(p.body?.transaction?.id ?? '-'),
      p.body?.card ? `${brandName(p.body?.transaction?.brandId)} ····${p.body.card.lastFourDigits}` : '-',
      p.body?.token?.token ? String(p.body.token.token) : '-',
    ]),
  );
}

const RESOURCE = {
  link: { path: pathOf('links.create'), noun: 'payment link', title: 'Payment link', idOf: (body: any) => body?.body?.link?.linkId },
  checkout: { path: pathOf('checkouts.create'), noun: 'checkout', title: 'Checkout', idOf: (body: any) => body?.body?.checkout?.checkoutId },
} as const;

/**
 * After a link or checkout was created: remembers its return URL for `paylink follow`, then prints the
 * envelope (`--json`) or a summary with the next step.
 */
export function reportCreated(ctx: CommandContext, kind: 'link' | 'checkout', body: any, returnUrl: string): void {
  const id = RESOURCE[kind].idOf(body);
  if (typeof id === 'string') ctx.journal.remember(id, { kind, baseUrl: ctx.connection.baseUrl, returnUrl });
  if (ctx.ui.options.json) {
    ctx.ui.json(body);
    return;
  }
  printResource(ctx.ui, kind, body, `${RESOURCE[kind].title} created`);
  ctx.ui.info(`\nNext: paylink pay ${id}   (or: paylink open ${id})`);
}

/** `paylink link get` / `checkout get`: by id or by `--tracking-code` (exactly one of them). */
export async function getResource(ctx: CommandContext, kind: 'link' | 'checkout', id: string | undefined, trackingCode: string | undefined): Promise<any> {
  const { path, noun, title } = RESOURCE[kind];
  if ((id === undefined) === (trackingCode === undefined)) throw new UsageError(`${kind} get: give a ${kind} id or --tracking-code (one of them).`);
  const { body } = await callApi(ctx, `Reading the ${noun}`, () =>
    id !== undefined ? (kind === 'link' ? ctx.client.api.links.get(id) : ctx.client.api.checkouts.get(id)) : ctx.client.get(path, { trackingCode }),
  );
  if (ctx.ui.options.json) ctx.ui.json(body);
  else printResource(ctx.ui, kind, body, title);
  return body;
}
