/**
 * `paylink token create|get`: saved card tokens (spec 4.8, SANDBOX.md "Payments and tokens"). One API call
 * each; `--json` prints the API's envelope unchanged.
 */
import type { Command } from 'commander';
import { OUTCOME_NAMES } from '../../sandbox/domain/test-cards.js';
import { expectOk } from '../client.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Ui } from '../ui.js';
import { resolveCard, type CardFlags } from './payment.js';
import { brandName } from '../options.js';

function printToken(ui: Ui, envelope: any, title: string): void {
  const body = envelope?.body ?? {};
  ui.heading(title);
  ui.field('Token', String(body.token ?? body.tokenId ?? '-'));
  if (body.displayHint) ui.field('Card', `${body.brandId ? `${brandName(body.brandId)} ` : ''}${body.displayHint}`);
  if (body.trackingCode) ui.field('Tracking code', String(body.trackingCode));
  ui.field('Result', ui.result(envelope?.result, envelope?.description));
}

/** Saves a card as a token (the same card and expiry give the same token). */
export async function tokenCreate(flags: CardFlags & { customer?: string }, ctx: CommandContext): Promise<any> {
  const card = await resolveCard(flags, ctx.ui);
  if (card.brandId === undefined) throw new UsageError('token create: cannot tell the brand of this card number; give --brand.');
  const body: Record<string, unknown> = {
    brandId: card.brandId,
    card: { holderName: card.holderName, number: card.number, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
  };
  if (flags.customer !== undefined) {
    try {
      body.customer = JSON.parse(flags.customer);
    } catch {
      throw new UsageError(`--customer: expected a JSON object such as '{"email":"a@b.example"}', got "${flags.customer}".`);
    }
  }
  const envelope = expectOk(await ctx.ui.spin('Saving the card as a token', () => ctx.client.post('/gateway/v3/tokens', { body }))).body;
  if (ctx.ui.options.json) ctx.ui.json(envelope);
  else printToken(ctx.ui, envelope, 'Token created');
  return envelope;
}

export async function tokenGet(token: string, ctx: CommandContext): Promise<any> {
  const envelope = expectOk(await ctx.ui.spin('Reading the token', () => ctx.client.get(`/gateway/v3/tokens/${encodeURIComponent(token)}`))).body;
  if (ctx.ui.options.json) ctx.ui.json(envelope);
  else printToken(ctx.ui, envelope, 'Token');
  return envelope;
}

export function registerToken(program: Command, run: (cmd: Command, action: (ctx: CommandContext) => Promise<unknown>) => Promise<void>): void {
  const token = program.command('token').description('Saved card tokens: create, read')
    .addHelpText('after', '\nExamples:\n  $ paylink token create --card 5555555555554444\n  $ paylink token get <token> --json');
  token
    .command('create')
    .description('Save a card as a token (the approve test card unless told otherwise)')
    .option('--card <number>', 'card number')
    .option('--outcome <name>', `test-card outcome the token replays: ${OUTCOME_NAMES.join(', ')}`)
    .option('--brand <id|name>', 'brand id (default: from the card number)')
    .option('--expiry-month <mm>', 'default 12')
    .option('--expiry-year <yyyy>', 'default: three years ahead')
    .option('--holder <name>', 'card holder name (default Test Customer)')
    .option('--customer <json>', 'customer data to keep with the token, as JSON')
    .addHelpText('after', '\nExamples:\n  $ paylink token create\n  $ paylink token create --card 5555555555554444 --json | jq -r .body.token')
    .action((_o, cmd: Command) => run(cmd, (ctx) => tokenCreate(cmd.opts(), ctx)));
  token
    .command('get <token>')
    .description('Read a token')
    .addHelpText('after', '\nExamples:\n  $ paylink token get 5d0c...')
    .action((value: string, _o, cmd: Command) => run(cmd, (ctx) => tokenGet(value, ctx)));
}
