/**
 * `paylink payment create|get|capture|cancel|refund`: direct payments (docs/api.md "Payments
 * and tokens"). One API call each; `--json` prints the API's envelope unchanged.
 */
import { detectBrand, OUTCOME_NAMES, TEST_CARDS, cardForOutcome, testCard, type OutcomeName } from '../../sandbox/domain/test-cards.js';
import { clockYear, expectOk, type ApiResponse } from '../client.js';
import type { Args, Options, Run } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { brandById, type Brand } from '../../sandbox/domain/brands.js';
import { defaultCardFields } from '../../sandbox/domain/hosted-form.js';
import { pathOf } from '../../sandbox/domain/routes.js';
import { brandName, generateTrackingCode, money, parseAmount, parseBrand, parseHttpUrl, parseMonth, parseOutcome, parseYear } from '../options.js';
import type { Ui } from '../ui.js';
import type { paymentCapture, paymentCreate as createSpec, paymentGet as getSpec } from './payment.spec.js';
import { resolveAmount } from './shared.js';

/** Card flags of `payment create` that `token create` takes too (it has no `--cvv`). */
export type CardFlags = Partial<Pick<Options<typeof createSpec>, 'card' | 'outcome' | 'expiryMonth' | 'expiryYear' | 'cvv' | 'holder' | 'brand'>>;

/**
 * The card to send: `--card`, else the `--outcome` test card, else the approve card; asked on a terminal
 * only while the command is being filled in (another value was asked), never when every needed flag was given.
 * Without `--expiry-year`, the expiry is counted from the sandbox clock's year ({@link clockYear}).
 */
export async function resolveCard(
  flags: CardFlags,
  ctx: Pick<CommandContext, 'ui' | 'admin'>,
): Promise<{
  number: string;
  brandId: number | undefined;
  outcome: OutcomeName | undefined;
  cvv: string;
  expiryMonth: string;
  expiryYear: string;
  holderName: string;
}> {
  const { ui } = ctx;
  if (flags.card !== undefined && flags.outcome !== undefined) throw new UsageError('give --card or --outcome, not both.');
  let number: string;
  if (flags.card !== undefined) {
    number = flags.card.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(number))
      throw new UsageError(
        `--card: expected 12 to 19 digits (spaces and dashes allowed); the value given is not (not repeated here: it may be a real card number).`,
      );
  } else {
    const outcome =
      flags.outcome !== undefined
        ? parseOutcome(flags.outcome)
        : await ui.offerAlong<OutcomeName>(undefined, 'approved', (p) =>
            p.select({
              message: 'Which test card?',
              choices: OUTCOME_NAMES.map((name) => ({ name: `${name.padEnd(20)} ${TEST_CARDS.find((c) => c.outcome === name)?.label ?? ''}`, value: name })),
            }),
          );
    number = cardForOutcome(outcome)!.number;
  }
  const brandId = flags.brand !== undefined ? parseBrand(flags.brand) : detectBrand(number);
  const known = testCard(number);
  // Only the default expiry needs the sandbox clock's year (one request): an --expiry-year given replaces it.
  const filled = defaultCardFields(brandId, flags.expiryYear === undefined ? await clockYear(ctx.admin) : new Date().getUTCFullYear());
  return {
    number,
    brandId,
    outcome: known?.outcome,
    cvv: flags.cvv ?? filled.cvv,
    expiryMonth: flags.expiryMonth === undefined ? filled.expiryMonth : parseMonth(flags.expiryMonth),
    expiryYear: flags.expiryYear === undefined ? filled.expiryYear : parseYear(flags.expiryYear),
    holderName: flags.holder ?? filled.holderName,
  };
}

/** A payment envelope for people. */
export function printPayment(ui: Ui, envelope: any, title: string): void {
  const body = envelope?.body ?? {};
  const t = body.transaction ?? {};
  ui.heading(title);
  if (t.id !== undefined) ui.field('Payment id', String(t.id));
  ui.field('Result', ui.result(envelope?.result, envelope?.description));
  if (t.action) ui.field('Action', String(t.action));
  if (t.amount !== undefined) ui.field('Amount', money(t.amount, t.currencyCode));
  if (t.trackingCode !== undefined) ui.field('Tracking code', String(t.trackingCode));
  if (t.parentId !== undefined) ui.field('Original', String(t.parentId));
  if (t.capturedAmount) ui.field('Captured', money(t.capturedAmount, t.currencyCode));
  if (t.refundedAmount) ui.field('Refunded', money(t.refundedAmount, t.currencyCode));
  if (t.cancelled) ui.field('Cancelled', 'yes');
  if (body.card?.lastFourDigits)
    ui.field('Card', `${brandName(t.brandId)} ····${body.card.lastFourDigits}${body.card.approvalCode ? `  approval ${body.card.approvalCode}` : ''}`);
  if (body.token?.token) ui.field('Token', `${body.token.token}  (${body.token.displayHint ?? ''})`);
  if (body.redirect?.url)
    ui.field(
      /\/web\/wallet\//.test(String(body.redirect.url)) ? 'Wallet page' : /\/web\/bank\//.test(String(body.redirect.url)) ? 'Bank page' : 'Card form',
      ui.color.cyan(String(body.redirect.url)),
    );
  if (body.error?.message) ui.field('Error', `${body.error.message} (code ${body.error.code})`);
}

function printEnvelope(ctx: CommandContext, envelope: any, title: string): void {
  if (ctx.ui.options.json) ctx.ui.json(envelope);
  else printPayment(ctx.ui, envelope, title);
}

/**
 * Creates a direct payment. A declined payment is an API error (exit 3) unless `--outcome` asked for exactly
 * that result: then it is what the command was asked to do (exit 0).
 */
export async function paymentCreate(_args: Args<typeof createSpec>, flags: Options<typeof createSpec>, ctx: CommandContext): Promise<any> {
  const { ui } = ctx;
  if (flags.token !== undefined && (flags.card !== undefined || flags.outcome !== undefined))
    throw new UsageError('payment create: --token replaces the card; give no --card or --outcome with it.');
  const brand = flags.brand !== undefined && flags.token === undefined ? brandById(parseBrand(flags.brand)) : undefined;
  if (brand !== undefined && brand.kind !== 'card') return paymentByBrand(brand, flags, ctx);
  if (flags.returnUrl !== undefined || flags.issuer !== undefined) {
    throw new UsageError(
      `payment create: ${flags.returnUrl !== undefined ? '--return-url' : '--issuer'} is for bank and wallet brands (--brand ideal, sofort, giropay, eps, paypal); a card payment answers at once.`,
    );
  }
  const { amount, currencyCode } = await resolveAmount(flags, ui);
  const transaction: Record<string, unknown> = { amount, currencyCode, trackingCode: flags.trackingCode ?? generateTrackingCode('payment') };
  const body: Record<string, unknown> = { transaction };
  let expected: number | undefined;
  if (flags.token !== undefined) {
    transaction.token = flags.token;
    if (flags.brand !== undefined) transaction.brandId = parseBrand(flags.brand);
  } else {
    const card = await resolveCard(flags, ctx);
    if (card.brandId !== undefined) transaction.brandId = card.brandId;
    body.card = { number: card.number, cvv: card.cvv, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, holderName: card.holderName };
    if (flags.outcome !== undefined && card.outcome !== undefined && card.outcome !== '3ds') expected = testCard(card.number)?.result;
  }
  if (flags.tokenize) transaction.tokenize = true;
  const response = await ui.spin('Creating the payment', () => ctx.client.api.payments.create(body, { action: flags.authorize ? 'authorize' : 'payment' }));
  const envelope = response.body;
  const asked = response.status >= 400 && expected !== undefined && envelope?.result === expected && envelope?.body?.transaction?.id !== undefined;
  if (!asked) expectOk(response);
  printEnvelope(ctx, envelope, asked ? 'Payment declined, as asked' : 'Payment created');
  return envelope;
}

/**
 * A payment by a brand that takes no card (docs/api.md, "Redirect payments"): a bank brand (iDEAL, Sofort,
 * Giropay, EPS) or PayPal answers 2 Pending with `redirect` to its bank or wallet page, which `paylink pay
 * <paymentId>` plays; AfterPay answers 0 at once. Card flags have no place here and are refused by name.
 */
async function paymentByBrand(brand: Brand, flags: Options<typeof createSpec>, ctx: CommandContext): Promise<any> {
  const { ui } = ctx;
  if (brand.kind === 'debit') {
    throw new UsageError(
      `payment create: ${brand.name} debits a bank account this command does not take: send it with paylink api POST ${pathOf('payments.create')} and body.bank {iban, accountHolderName} (docs/api.md, "SEPA Direct Debit").`,
    );
  }
  const cardFlags = (
    [
      ['--card', flags.card],
      ['--outcome', flags.outcome],
      ['--expiry-month', flags.expiryMonth],
      ['--expiry-year', flags.expiryYear],
      ['--cvv', flags.cvv],
      ['--holder', flags.holder],
      ['--tokenize', flags.tokenize],
      ...(brand.kind === 'invoice' ? [] : ([['--authorize', flags.authorize]] as const)),
    ] as const
  )
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([flag]) => flag);
  const paidOn = brand.kind === 'wallet' ? 'its wallet page' : brand.kind === 'bank' ? 'its bank page' : 'an invoice, approved at once';
  if (cardFlags.length > 0) {
    const play = brand.kind === 'invoice' ? '' : ` Create it, then play the page: paylink pay <paymentId> --outcome approved|cancelled|failed.`;
    throw new UsageError(
      `payment create: ${brand.name} takes no card (it is paid on ${paidOn}): ${cardFlags.join(', ')} ${cardFlags.length === 1 ? 'has' : 'have'} no place here.${play}`,
    );
  }
  if (flags.issuer !== undefined && brand.id !== 3010)
    throw new UsageError(`payment create: --issuer is iDEAL's (the customer's bank); ${brand.name} takes none.`);
  if (flags.returnUrl !== undefined && brand.kind === 'invoice')
    throw new UsageError(`payment create: ${brand.name} answers at once and sends the customer nowhere: --return-url has no place here.`);
  const { amount, currencyCode } = await resolveAmount(flags, ui);
  const transaction: Record<string, unknown> = { amount, currencyCode, brandId: brand.id, trackingCode: flags.trackingCode ?? generateTrackingCode('payment') };
  if (flags.returnUrl !== undefined) transaction.returnUrl = parseHttpUrl(flags.returnUrl, '--return-url');
  const body: Record<string, unknown> = { transaction };
  if (brand.kind === 'bank') body.bank = flags.issuer !== undefined ? { issuerId: flags.issuer } : {};
  const action = brand.kind === 'invoice' && flags.authorize ? 'authorize' : 'payment';
  const response = await ui.spin(`Creating the ${brand.name} payment`, () => ctx.client.api.payments.create(body, { action }));
  const envelope = expectOk(response).body;
  printEnvelope(ctx, envelope, envelope?.result === 2 ? `${brand.name} payment created: waiting for the customer` : 'Payment created');
  if (!ui.options.json && envelope?.body?.redirect?.url && envelope?.body?.transaction?.id) {
    ui.field('Next', `paylink pay ${envelope.body.transaction.id} --outcome approved|cancelled|failed`);
  }
  return envelope;
}

/** A stored payment's envelope: a declined payment is still a payment that was found (exit 0). */
function foundPayment(response: ApiResponse): any {
  if (response.status === 400 && (response.body as any)?.body?.transaction?.id !== undefined) return response.body;
  return expectOk(response).body;
}

export async function paymentGet({ paymentId: id }: Args<typeof getSpec>, flags: Options<typeof getSpec>, ctx: CommandContext): Promise<any> {
  if ((id === undefined) === (flags.trackingCode === undefined)) throw new UsageError('payment get: give a payment id or --tracking-code (one of them).');
  const response = await ctx.ui.spin('Reading the payment', () =>
    id !== undefined ? ctx.client.api.payments.get(id) : ctx.client.api.payments.byTrackingCode<any>(flags.trackingCode),
  );
  if (id === undefined) {
    // By tracking code the API answers an array of payment envelopes (docs/test-cards.md).
    const list = expectOk(response).body;
    if (ctx.ui.options.json) ctx.ui.json(list);
    else for (const item of Array.isArray(list) ? list : (list?.body ?? [list])) printPayment(ctx.ui, item, 'Payment');
    return list;
  }
  const envelope = foundPayment(response);
  printEnvelope(ctx, envelope, 'Payment');
  return envelope;
}

/** capture, cancel or refund an earlier payment; `--amount` for a partial capture or refund. */
export async function paymentFollowUp(
  verb: 'capture' | 'cancel' | 'refund',
  id: string,
  flags: { amount?: string | undefined },
  ctx: CommandContext,
): Promise<any> {
  const transaction: Record<string, unknown> = {};
  if (flags.amount !== undefined) transaction.amount = parseAmount(flags.amount);
  const response = await ctx.ui.spin(`${verb[0]!.toUpperCase()}${verb.slice(1)} of ${id}`, () => ctx.client.api.payments.followUp(verb, id, { transaction }));
  const envelope = expectOk(response).body;
  printEnvelope(ctx, envelope, { capture: 'Captured', cancel: 'Cancelled', refund: 'Refunded' }[verb]);
  return envelope;
}

/** `payment capture`, `cancel` or `refund` (the same declaration but for `--amount`, which cancel has not). */
export function followUpOf(verb: 'capture' | 'cancel' | 'refund'): Run<typeof paymentCapture> {
  return ({ paymentId }, flags, ctx) => paymentFollowUp(verb, paymentId, flags, ctx);
}
