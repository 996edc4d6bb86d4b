/**
 * `paylink checkout create|get`: checkouts (docs/api.md). One API call each; `--json` prints the API's
 * envelope unchanged.
 */
import type { CommandContext } from '../context.js';
import { generateTrackingCode } from '../options.js';
import { callApi, getResource, reportCreated, resolveCreateInput, type CreateFlags } from './shared.js';

/** Creates a checkout (valid 30 minutes); asks for missing values on a TTY. Returns the API envelope. */
export async function checkoutCreate(flags: CreateFlags, ctx: CommandContext): Promise<any> {
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
export async function checkoutGet(id: string | undefined, flags: { trackingCode?: string }, ctx: CommandContext): Promise<any> {
  return getResource(ctx, 'checkout', id, flags.trackingCode);
}
