/**
 * `paylink link create|get|cancel`: payment links (docs/api.md). One API call each; `--json` prints the
 * API's envelope unchanged.
 */
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import { generateTrackingCode, parseDuration } from '../options.js';
import type { linkCancel as cancelSpec, linkCreate as createSpec, linkGet as getSpec } from './link.spec.js';
import { callApi, getResource, printResource, reportCreated, resolveCreateInput } from './shared.js';

/** Creates a payment link; asks for missing values on a TTY. Returns the API envelope. */
export async function linkCreate(_args: Args<typeof createSpec>, flags: Options<typeof createSpec>, ctx: CommandContext): Promise<any> {
  const duration = flags.duration === undefined ? undefined : parseDuration(flags.duration);
  const input = await resolveCreateInput(flags, ctx.ui);
  const trackingCode = input.trackingCode ?? generateTrackingCode('link');
  const link: Record<string, unknown> = { brandIds: input.brandIds, returnUrl: input.returnUrl, duration: duration ?? 'P1D' };
  if (input.tokenize !== undefined) link.tokenize = input.tokenize;
  if (flags.threeDs) link.threeDSecure = true;
  const { body } = await callApi(ctx, 'Creating the payment link', () =>
    ctx.client.api.links.create({
      transaction: { amount: input.amount, currencyCode: input.currencyCode, authorizationMode: input.authorizationMode, trackingCode },
      link,
    }),
  );
  reportCreated(ctx, 'link', body, input.returnUrl);
  return body;
}

/** Reads a link by id or by `--tracking-code`. */
export async function linkGet({ linkId }: Args<typeof getSpec>, flags: Options<typeof getSpec>, ctx: CommandContext): Promise<any> {
  return getResource(ctx, 'link', linkId, flags.trackingCode);
}

/** Cancels a READY or PENDING link. */
export async function linkCancel({ linkId }: Args<typeof cancelSpec>, _flags: Options<typeof cancelSpec>, ctx: CommandContext): Promise<any> {
  const { body } = await callApi(ctx, 'Cancelling the payment link', () => ctx.client.api.links.cancel(linkId));
  if (ctx.ui.options.json) ctx.ui.json(body);
  else printResource(ctx.ui, 'link', body, 'Payment link cancelled');
  return body;
}
