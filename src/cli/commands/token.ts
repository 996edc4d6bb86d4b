/**
 * `paylink token create|get`: saved card tokens (docs/test-cards.md, "Direct payments"). One API call
 * each; `--json` prints the API's envelope unchanged.
 */
import { expectOk } from '../client.js';
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { Ui } from '../ui.js';
import { resolveCard } from './payment.js';
import type { tokenCreate as createSpec, tokenGet as getSpec } from './token.spec.js';
import { brandName } from '../options.js';
import { brandById } from '../../sandbox/domain/brands.js';

function printToken(ui: Ui, envelope: any, title: string): void {
  const body = envelope?.body ?? {};
  ui.heading(title);
  ui.field('Token', String(body.token ?? body.tokenId ?? '-'));
  if (body.displayHint) ui.field('Card', `${body.brandId ? `${brandName(body.brandId)} ` : ''}${body.displayHint}`);
  if (body.trackingCode) ui.field('Tracking code', String(body.trackingCode));
  ui.field('Result', ui.result(envelope?.result, envelope?.description));
}

/** Saves a card as a token (the same card and expiry give the same token). */
export async function tokenCreate(_args: Args<typeof createSpec>, flags: Options<typeof createSpec>, ctx: CommandContext): Promise<any> {
  const card = await resolveCard(flags, ctx);
  if (card.brandId === undefined) throw new UsageError('token create: cannot tell the brand of this card number; give --brand.');
  const brand = brandById(card.brandId);
  if (brand !== undefined && brand.kind !== 'card')
    throw new UsageError(`--brand ${brand.name}: a token saves a card; give a card brand (visa, mastercard, amex...).`);
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
  const envelope = expectOk(await ctx.ui.spin('Saving the card as a token', () => ctx.client.api.tokens.create(body))).body;
  if (ctx.ui.options.json) ctx.ui.json(envelope);
  else printToken(ctx.ui, envelope, 'Token created');
  return envelope;
}

export async function tokenGet({ token }: Args<typeof getSpec>, _flags: Options<typeof getSpec>, ctx: CommandContext): Promise<any> {
  const envelope = expectOk(await ctx.ui.spin('Reading the token', () => ctx.client.api.tokens.get(token))).body;
  if (ctx.ui.options.json) ctx.ui.json(envelope);
  else printToken(ctx.ui, envelope, 'Token');
  return envelope;
}
