/**
 * `paylink link create|get|cancel`: payment links (docs/api.md). One API call each; `--json` prints the
 * API's envelope unchanged.
 */
import type { CommandContext } from '../context.js';
import { generateTrackingCode, parseDuration } from '../options.js';
import { callApi, getResource, printResource, reportCreated, resolveCreateInput, type CreateFlags } from './shared.js';

export interface LinkCreateFlags extends CreateFlags {
  duration?: string;
  threeDs?: boolean;
}

/** Creates a payment link; asks for missing values on a TTY. Returns the API envelope. */
export async function linkCreate(flags: LinkCreateFlags, ctx: CommandContext): Promise<any> {
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
export async function linkGet(id: string | undefined, flags: { trackingCode?: string }, ctx: CommandContext): Promise<any> {
  return getResource(ctx, 'link', id, flags.trackingCode);
}

/** Cancels a READY or PENDING link. */
export async function linkCancel(id: string, ctx: CommandContext): Promise<any> {
  const { body } = await callApi(ctx, 'Cancelling the payment link', () => ctx.client.api.links.cancel(id));
  if (ctx.ui.options.json) ctx.ui.json(body);
  else printResource(ctx.ui, 'link', body, 'Payment link cancelled');
  return body;
}
