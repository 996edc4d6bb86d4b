/**
 * `paylink checkout create|get`: checkouts (docs/api.md). One API call each; `--json` prints the API's
 * envelope unchanged.
 */
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import { generateTrackingCode } from '../options.js';
import type { checkoutCreate as createSpec, checkoutGet as getSpec } from './checkout.spec.js';
import { callApi, getResource, reportCreated, resolveCreateInput } from './shared.js';

/** Creates a checkout (valid 30 minutes); asks for missing values on a TTY. Returns the API envelope. */
export async function checkoutCreate(_args: Args<typeof createSpec>, flags: Options<typeof createSpec>, ctx: CommandContext): Promise<any> {
  const input = await resolveCreateInput(flags, ctx.ui);
  const trackingCode = input.trackingCode ?? generateTrackingCode('checkout');
  const { body } = await callApi(ctx, 'Creating the checkout', () =>
    ctx.client.api.checkouts.create({
      transaction: { amount: input.amount, currencyCode: input.currencyCode, authorizationMode: input.authorizationMode, trackingCode },
      checkout: { brandIds: input.brandIds, returnUrl: input.returnUrl, tokenize: input.tokenize ?? 'false' },
    }),
  );
  reportCreated(ctx, 'checkout', body, input.returnUrl);
  return body;
}

/** Reads a checkout by id or by `--tracking-code`. */
export async function checkoutGet({ checkoutId }: Args<typeof getSpec>, flags: Options<typeof getSpec>, ctx: CommandContext): Promise<any> {
  return getResource(ctx, 'checkout', checkoutId, flags.trackingCode);
}
