/**
 * `paylink pay <id>`: plays the customer through the real hosted form over HTTP (see `customer.ts`), then
 * follows the redirect to returnUrl and prints the resulting status. `--json` prints the documented
 * {@link PlayResult} object.
 */
import { OUTCOME_NAMES, TEST_CARDS, type OutcomeName } from '../../sandbox/domain/test-cards.js';
import type { CommandContext } from '../context.js';
import { playCustomer, type PlayResult, type ResourceKind } from '../customer.js';
import { ApiResponseError, UsageError } from '../errors.js';
import { brandName, parseMonth, parseOutcome, parseYear } from '../options.js';
import type { Ui } from '../ui.js';

export interface PayFlags {
  card?: string;
  outcome?: string;
  saveCard?: boolean;
  decline?: boolean;
  threeDsCode?: string;
  threeDsCancel?: boolean;
  expiryMonth?: string;
  expiryYear?: string;
  cvv?: string;
  holder?: string;
  link?: boolean;
  checkout?: boolean;
  /** `false` with `--no-follow`. */
  follow?: boolean;
}

type Choice = { outcome: OutcomeName } | { decline: true };

/** Pays or declines a link or checkout as the customer would; exit 3 when the outcome is not the one asked for. */
export async function pay(id: string, flags: PayFlags, ctx: CommandContext): Promise<PlayResult> {
  const { ui } = ctx;
  if (flags.card !== undefined && flags.outcome !== undefined) throw new UsageError('pay: give --card or --outcome, not both.');
  if (flags.decline && (flags.card !== undefined || flags.outcome !== undefined)) throw new UsageError('pay: --decline presses the decline button; it takes no --card or --outcome.');
  if (flags.link && flags.checkout) throw new UsageError('pay: --link and --checkout exclude each other.');
  if (flags.threeDsCancel && flags.threeDsCode !== undefined) throw new UsageError('pay: --3ds-code and --3ds-cancel exclude each other.');
  const kind: ResourceKind | undefined = flags.link ? 'link' : flags.checkout ? 'checkout' : undefined;
  let outcome = flags.outcome === undefined ? undefined : parseOutcome(flags.outcome);
  let decline = flags.decline === true;
  if (flags.card === undefined && outcome === undefined && !decline) {
    // A person picks the outcome; a script without --card/--outcome pays with the approve card.
    const choice = await ui.offer<Choice>(undefined, { outcome: 'approved' }, (p) =>
      p.select<Choice>({
        message: 'What should the customer do?',
        choices: [
          ...OUTCOME_NAMES.map((name) => ({ name: `${name.padEnd(20)} ${TEST_CARDS.find((c) => c.outcome === name)?.label ?? ''}`, value: { outcome: name } as Choice })),
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
      card: flags.card,
      outcome,
      decline,
      saveCard: flags.saveCard,
      threeDSCode: flags.threeDsCancel ? null : flags.threeDsCode,
      expiryMonth: flags.expiryMonth === undefined ? undefined : parseMonth(flags.expiryMonth),
      expiryYear: flags.expiryYear === undefined ? undefined : parseYear(flags.expiryYear),
      cvv: flags.cvv,
      holderName: flags.holder,
      follow: flags.follow !== false,
      onStep: (text) => spinner.text(`${text}...`),
    }),
  );
  if (result.returnUrl) ctx.journal.remember(id, { kind: result.kind, baseUrl: ctx.connection.baseUrl, lastRedirect: result.returnUrl });
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
  ui.field('Hosted page', ui.color.cyan(result.pageUrl));
  if (result.card) ui.field('Card', `${brandName(result.card.brandId)} ····${result.card.lastFourDigits}${result.card.outcome ? ` (test card: ${result.card.outcome})` : ''}`);
  for (const step of result.steps) {
    const what = { pay: 'Submitted card', decline: 'Pressed decline', '3ds-submit': '3-D Secure code', '3ds-cancel': '3-D Secure cancel' }[step.action];
    const where = step.location ? ` -> ${/\/3ds\//.test(step.location) ? '3-D Secure challenge' : 'returnUrl'}` : step.state ? ` (page: ${step.state})` : '';
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
