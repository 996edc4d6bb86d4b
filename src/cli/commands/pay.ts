/**
 * `paylink pay <id>`: plays the customer through the real hosted form of a link or checkout, or the bank or
 * wallet page of an iDEAL, Sofort, Giropay, EPS or PayPal payment, over HTTP (see `customer.ts`), then
 * follows the redirect to returnUrl and prints the resulting status. `--json` prints the documented
 * {@link PlayResult} object.
 */
import { OUTCOME_NAMES, TEST_CARDS, THREE_DS_APPROVE_CODE, type OutcomeName } from '../../sandbox/domain/test-cards.js';
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import type { pay as spec } from './pay.spec.js';
import { resolveKind } from '../client.js';
import {
  findResource,
  locatePaymentPage,
  notPayable,
  playCardPage,
  playCustomer,
  playSimulator,
  SIMULATOR_OUTCOMES,
  type PaymentPage,
  type PlayResult,
  type ResourceKind,
  type SimulatorOutcome,
} from '../customer.js';
import { ApiResponseError, UsageError } from '../errors.js';
import { brandName, parseMonth, parseOutcome, parseYear } from '../options.js';
import type { Ui } from '../ui.js';

/** `pay`'s options (pay.spec.ts); `follow` is false with `--no-follow`. */
export type PayFlags = Options<typeof spec>;

type Choice = { outcome: OutcomeName } | { decline: true };

/**
 * Pays or declines a link or checkout, or presses a button on a bank or wallet payment's page, as the customer
 * would; exit 3 when the outcome is not the one asked for.
 */
export async function pay({ id }: Args<typeof spec>, flags: PayFlags, ctx: CommandContext): Promise<PlayResult> {
  const { ui } = ctx;
  if (flags.card !== undefined && flags.outcome !== undefined) throw new UsageError('pay: give --card or --outcome, not both.');
  if (flags.decline && (flags.card !== undefined || flags.outcome !== undefined))
    throw new UsageError('pay: --decline presses the decline button; it takes no --card or --outcome.');
  if ([flags.link, flags.checkout, flags.payment].filter(Boolean).length > 1) throw new UsageError('pay: --link, --checkout and --payment exclude each other.');
  if (flags.threeDsCancel && flags.threeDsCode !== undefined) throw new UsageError('pay: --3ds-code and --3ds-cancel exclude each other.');
  let kind: ResourceKind | undefined = flags.link ? 'link' : flags.checkout ? 'checkout' : undefined;
  if (kind === undefined) {
    // One lookup says what the id is; a link or checkout is then played without asking again.
    const resolved = flags.payment ? 'payment' : await resolveKind(ctx.admin, id, ctx.client.businessId);
    if (resolved === 'payment') return paySimulator(id, flags, ctx);
    if (resolved === 'link' || resolved === 'checkout') kind = resolved;
  }
  let outcome = flags.outcome === undefined ? undefined : parseOutcome(flags.outcome);
  let decline = flags.decline === true;
  if (flags.card === undefined && outcome === undefined && !decline) {
    // A link or checkout that cannot be paid any more says so before a person is asked what to do.
    if (ui.asks) {
      const found = await ui.spin(`Looking up ${id}`, () => findResource(ctx.client, id, kind, ctx.admin));
      kind = found.kind;
      const closed = notPayable(found.kind, id, found.response.body);
      if (closed !== undefined) throw new ApiResponseError(closed, found.response.status, undefined);
    }
    // A person picks the outcome; a script without --card/--outcome pays with the approve card.
    const choice = await ui.offer<Choice>(undefined, { outcome: 'approved' }, (p) =>
      p.select<Choice>({
        message: 'What should the customer do?',
        choices: [
          ...OUTCOME_NAMES.map((name) => ({
            name: `${name.padEnd(20)} ${TEST_CARDS.find((c) => c.outcome === name)?.label ?? ''}`,
            value: { outcome: name } as Choice,
          })),
          { name: `${'decline'.padEnd(20)} press the decline button`, value: { decline: true } as Choice },
        ],
      }),
    );
    if ('decline' in choice) decline = true;
    else outcome = choice.outcome;
  }
  const result = await ui.spin(`Paying ${id} as the customer`, (spinner) =>
    playCustomer(ctx.client, id, {
      kind,
      admin: ctx.admin,
      ...cardInputOf(flags),
      outcome,
      decline,
      savedCard: flags.savedCard,
      onStep: (text) => spinner.text(`${text}...`),
    }),
  );
  if (result.returnUrl && result.kind !== 'payment')
    ctx.journal.remember(id, { kind: result.kind, baseUrl: ctx.connection.baseUrl, lastRedirect: result.returnUrl });
  return report(result, ctx);
}

/**
 * Presses a button on the bank or wallet page of a pending iDEAL, Sofort, Giropay, EPS or PayPal payment:
 * `--outcome approved|cancelled|failed|declined` (asked on a terminal, approved otherwise). The card flags have no
 * place there and are refused.
 */
async function paySimulator(id: string, flags: PayFlags, ctx: CommandContext): Promise<PlayResult> {
  const { ui } = ctx;
  const located = await ui.spin(`Finding the page payment ${id} waits on`, () => locatePaymentPage(ctx.client, id));
  if (located.page === '3ds' || located.page === 'card-form') return payCardPage(id, located, flags, ctx);
  refuseFlags(
    flags,
    ['--card', '--decline', '--save-card', '--saved-card', '--3ds-code', '--3ds-cancel', '--expiry-month', '--expiry-year', '--cvv'],
    `${id} is a bank or wallet payment, paid on its bank or wallet page without a card`,
    `Use --outcome ${SIMULATOR_OUTCOMES.join('|')}.`,
  );
  const outcome =
    flags.outcome !== undefined
      ? parseSimulatorOutcome(flags.outcome)
      : await ui.offer<SimulatorOutcome>(undefined, 'approved', (p) =>
          p.select<SimulatorOutcome>({
            message: 'What should the customer do on the bank or wallet page?',
            choices: [
              { name: 'approved    press Approve payment (0 Ok)', value: 'approved' },
              { name: 'cancelled   press Cancel (-10, code 3011)', value: 'cancelled' },
              { name: 'failed      press Make it fail (-2, code 3006)', value: 'failed' },
              { name: 'declined    press Decline (-4, code 3001)', value: 'declined' },
            ],
          }),
        );
  const result = await ui.spin(`Paying ${id} as the customer`, (spinner) =>
    playSimulator(ctx.client, id, { outcome, follow: flags.follow !== false, onStep: (text) => spinner.text(`${text}...`) }, located),
  );
  return report(result, ctx);
}

/** Whether each card flag of `pay` was given. */
const CARD_FLAG_GIVEN = {
  '--card': (f: PayFlags) => f.card !== undefined,
  '--outcome': (f: PayFlags) => f.outcome !== undefined,
  '--decline': (f: PayFlags) => f.decline === true,
  '--save-card': (f: PayFlags) => f.saveCard === true,
  '--saved-card': (f: PayFlags) => f.savedCard === true,
  '--3ds-code': (f: PayFlags) => f.threeDsCode !== undefined,
  '--3ds-cancel': (f: PayFlags) => f.threeDsCancel === true,
  '--expiry-month': (f: PayFlags) => f.expiryMonth !== undefined,
  '--expiry-year': (f: PayFlags) => f.expiryYear !== undefined,
  '--cvv': (f: PayFlags) => f.cvv !== undefined,
} as const;

/** A usage error naming the given flags among `names` that the page the payment waits on has no place for. */
function refuseFlags(flags: PayFlags, names: Array<keyof typeof CARD_FLAG_GIVEN>, where: string, instead: string): void {
  const given = names.filter((name) => CARD_FLAG_GIVEN[name](flags));
  if (given.length > 0) throw new UsageError(`pay: ${where}: ${given.join(', ')} ${given.length === 1 ? 'has' : 'have'} no place there. ${instead}`);
}

/**
 * A direct card payment waiting on its 3-D Secure page (`--3ds-code`, `--3ds-cancel`; 1234 by default), or
 * a card redirect payment waiting on its card form (`--card`/`--outcome`, `--decline`, the card flags).
 */
async function payCardPage(
  id: string,
  located: Extract<PaymentPage, { page: '3ds' | 'card-form' }>,
  flags: PayFlags,
  ctx: CommandContext,
): Promise<PlayResult> {
  if (located.page === '3ds') {
    refuseFlags(
      flags,
      ['--card', '--outcome', '--decline', '--save-card', '--expiry-month', '--expiry-year', '--cvv'],
      `payment ${id} waits on its 3-D Secure page, where the card is already given`,
      `Use --3ds-code <code> (${THREE_DS_APPROVE_CODE} approves) or --3ds-cancel.`,
    );
  }
  const outcome = flags.outcome === undefined ? undefined : parseOutcome(flags.outcome);
  const result = await ctx.ui.spin(`Paying ${id} as the customer`, (spinner) =>
    playCardPage(ctx.client, id, located, {
      ...cardInputOf(flags),
      outcome,
      decline: flags.decline === true,
      onStep: (text) => spinner.text(`${text}...`),
    }),
  );
  return report(result, ctx);
}

/** The card and the customer's steps as the flags give them, for a hosted form and a payment's own card page alike. */
function cardInputOf(flags: PayFlags) {
  return {
    card: flags.card,
    saveCard: flags.saveCard,
    threeDSCode: flags.threeDsCancel ? null : flags.threeDsCode,
    expiryMonth: flags.expiryMonth === undefined ? undefined : parseMonth(flags.expiryMonth),
    expiryYear: flags.expiryYear === undefined ? undefined : parseYear(flags.expiryYear),
    cvv: flags.cvv,
    holderName: flags.holder,
    follow: flags.follow !== false,
  };
}

function parseSimulatorOutcome(value: string): SimulatorOutcome {
  const name = value.trim().toLowerCase();
  if ((SIMULATOR_OUTCOMES as readonly string[]).includes(name)) return name as SimulatorOutcome;
  throw new UsageError(
    `--outcome: a bank or wallet page offers ${SIMULATOR_OUTCOMES.join(', ')}; "${value}" is not one of them (test-card outcomes are for card forms).`,
  );
}

/** Prints the play (or its JSON) and turns an outcome other than the one asked for into exit 3. */
function report(result: PlayResult, ctx: CommandContext): PlayResult {
  const { ui } = ctx;
  if (ui.options.json) {
    if (!result.asExpected) throw new ApiResponseError(mismatch(result), undefined, undefined, result);
    ui.json(result);
    return result;
  }
  printPlay(ui, result);
  if (!result.asExpected) throw new ApiResponseError(mismatch(result), undefined, undefined);
  return result;
}

function mismatch(result: PlayResult): string {
  if (result.paidByAnother !== undefined) {
    return `the ${result.kind} was paid by another payment (${result.paidByAnother}) while this customer was on its page: this play made no payment.`;
  }
  const last = result.steps[result.steps.length - 1];
  const got = result.payment ? `${result.payment.description} (${result.payment.result})` : 'no payment was made';
  const want = result.expectedResult === undefined ? 'a processed payment' : `result ${result.expectedResult}`;
  // The page's sentence ends with its own full stop ("... (2 attempts left)."): no second one after it.
  const says = last?.message ? `; the page says: ${last.message.replace(/\.+$/, '')}` : '';
  return `the ${result.kind} did not end as asked: expected ${want}, got ${got}${says}.`;
}

/** The play for people: each step, where the browser went, the merchant's answer and the status. */
export function printPlay(ui: Ui, result: PlayResult): void {
  ui.heading(`Played the customer on ${result.kind} ${result.id}`);
  const pageName = { bank: 'Bank page', wallet: 'Wallet page', '3ds': '3-D Secure page', 'card-form': 'Card form' }[result.page ?? 'bank'];
  ui.field(result.page === undefined ? 'Hosted page' : pageName, ui.color.cyan(result.pageUrl));
  if (result.card)
    ui.field('Card', `${brandName(result.card.brandId)} ····${result.card.lastFourDigits}${result.card.outcome ? ` (test card: ${result.card.outcome})` : ''}`);
  for (const step of result.steps) {
    const what = {
      pay: 'Submitted card',
      decline: 'Pressed decline',
      '3ds-submit': '3-D Secure code',
      '3ds-cancel': '3-D Secure cancel',
      approve: 'Pressed Approve payment',
      cancel: 'Pressed Cancel',
      fail: 'Pressed Make it fail',
    }[step.action];
    const target =
      step.location === undefined
        ? undefined
        : step.location === result.returnUrl
          ? 'returnUrl'
          : /\/3ds\//.test(step.location)
            ? '3-D Secure challenge'
            : `the ${result.page ?? 'hosted'} page`;
    const where = target ? ` -> ${target}` : step.state ? ` (page: ${step.state})` : '';
    ui.field(what, `HTTP ${step.status}${where}`);
    if (step.message) ui.field('Page says', ui.color.yellow(step.message));
  }
  if (result.returnUrl) {
    ui.field('Redirected to', result.returnUrl);
    if (result.merchant?.status !== undefined) ui.field('Merchant said', `HTTP ${result.merchant.status}`);
    else if (result.merchant?.error) ui.field('Merchant said', ui.color.dim(`nothing: ${result.merchant.error} (no server at returnUrl; that is fine)`));
  }
  if (result.payment) {
    ui.field('Payment', `${ui.result(result.payment.result, result.payment.description)}${result.payment.id ? `  ${result.payment.id}` : ''}`);
    if (result.payment.token) ui.field('Token', result.payment.token);
  }
  ui.field('Status now', ui.state(result.state));
  ui.field('As asked', result.asExpected ? ui.color.green('yes') : ui.color.red('no'));
}
