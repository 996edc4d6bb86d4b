/**
 * `paylink follow <id>`: follows the returnUrl redirect of a completed link or checkout again, as the
 * customer's browser did. The API never returns a returnUrl, so the URL comes from the CLI's journal (the
 * redirect `paylink pay` saw, or the returnUrl given to `create`), from `--return-url`, or else from the
 * sandbox's admin API, which stores it (a link created by the merchant's code); the query is
 * built as the hosted page builds it (docs/hosted-pages.md, "The redirect to returnUrl").
 */
import { adminRequest, networkReason } from '../client.js';
import type { Args, Options } from '../command-spec.js';
import type { CommandContext } from '../context.js';
import type { follow as spec } from './follow.spec.js';
import { findResource, lifecycleOf, type ResourceKind } from '../customer.js';
import { ApiResponseError, UsageError } from '../errors.js';
import { parseHttpUrl } from '../options.js';

/** The `--json` output of `paylink follow`. */
export interface FollowResult {
  kind: ResourceKind;
  id: string;
  state: string;
  /** The URL visited. */
  url: string;
  /** Where the URL came from: the redirect `pay` saw, or a returnUrl plus the status. */
  source: 'last-redirect' | 'return-url';
  /** The merchant's HTTP status, or why there was none (not fatal). */
  merchant: { status?: number | undefined; location?: string | undefined; error?: string | undefined };
}

/** The redirect a hosted page answers for a finished link or checkout, or undefined when nothing finished. */
export function redirectFor(kind: ResourceKind, id: string, state: string, envelope: any, returnUrl: string): string | undefined {
  const payments: any[] = Array.isArray(envelope?.body?.payments) ? envelope.body.payments : [];
  const paid = payments.find((p) => p?.result === 0)?.body?.transaction?.id as string | undefined;
  const last = payments[payments.length - 1]?.body?.transaction?.id as string | undefined;
  const url = new URL(returnUrl);
  if (kind === 'link') {
    if (state !== 'PAID' && state !== 'DECLINED' && state !== 'DECLINEDBYCUSTOMER') return undefined;
    url.searchParams.set('linkId', id);
    const paymentId = state === 'PAID' ? paid : state === 'DECLINED' ? last : undefined;
    if (paymentId) url.searchParams.set('id', paymentId);
  } else {
    if (state !== 'PAID' && state !== 'DECLINED' && state !== 'DECLINEDBYCUSTOMER') return undefined;
    url.searchParams.set('checkoutId', id);
    if (state === 'PAID' && paid) url.searchParams.set('id', paid);
  }
  return url.href;
}

/**
 * The returnUrl the sandbox stored for the link or checkout (its admin list, found by the tracking code the
 * API answers and then by id), for one created elsewhere; undefined against an API that is not the sandbox
 * or without its admin token.
 */
async function sandboxReturnUrl(ctx: CommandContext, kind: ResourceKind, id: string, envelope: any): Promise<string | undefined> {
  const trackingCode = envelope?.body?.transaction?.trackingCode;
  if (typeof trackingCode !== 'string' || trackingCode === '') return undefined;
  const query = new URLSearchParams({ businessId: ctx.client.businessId, trackingCode, limit: '200' });
  try {
    const answer = await adminRequest<any>(ctx.admin, 'GET', `/__sandbox/${kind === 'link' ? 'links' : 'checkouts'}?${query}`);
    const items: any[] = answer.status === 200 && Array.isArray(answer.body?.body?.items) ? answer.body.body.items : [];
    const returnUrl = items.find((item) => item?.id === id)?.returnUrl;
    return typeof returnUrl === 'string' && /^https?:\/\//i.test(returnUrl) ? returnUrl : undefined;
  } catch {
    return undefined;
  }
}

export async function follow({ id }: Args<typeof spec>, flags: Options<typeof spec>, ctx: CommandContext): Promise<FollowResult> {
  const given = flags.returnUrl === undefined ? undefined : parseHttpUrl(flags.returnUrl, '--return-url');
  const result = await ctx.ui.spin(`Following the redirect of ${id}`, async (): Promise<FollowResult> => {
    const { kind, response } = await findResource(ctx.client, id, undefined, ctx.admin);
    const state = lifecycleOf(kind, response.body);
    if (state !== 'PAID' && state !== 'DECLINED' && state !== 'DECLINEDBYCUSTOMER') {
      throw new ApiResponseError(
        `follow: the ${kind} ${id} is ${state}: the customer has not finished, so there is no redirect to follow yet.`,
        response.status,
        undefined,
      );
    }
    const remembered = ctx.journal.get(id);
    let url: string | undefined;
    let source: FollowResult['source'] = 'return-url';
    if (given === undefined && remembered?.lastRedirect) {
      url = remembered.lastRedirect;
      source = 'last-redirect';
    } else {
      const returnUrl = given ?? remembered?.returnUrl ?? (await sandboxReturnUrl(ctx, kind, id, response.body));
      if (returnUrl === undefined) {
        throw new UsageError(
          `follow: the API does not tell the returnUrl of ${kind} ${id}, this folder's journal has none (it was created elsewhere) and the sandbox's admin API did not say. Give it with --return-url <url>.`,
        );
      }
      url = redirectFor(kind, id, state, response.body, returnUrl)!;
    }
    let merchant: FollowResult['merchant'];
    try {
      const answer = await ctx.client.visit(url);
      await answer.body?.cancel();
      merchant = { status: answer.status, location: answer.headers.get('location') ?? undefined };
    } catch (error) {
      merchant = { error: networkReason(error) };
    }
    return { kind, id, state, url, source, merchant };
  });
  const { ui } = ctx;
  if (ui.options.json) ui.json(result);
  else {
    ui.heading(`Followed the redirect of ${result.kind} ${result.id}`);
    ui.field('State', ui.state(result.state));
    ui.field('Went to', result.url);
    if (result.merchant.status !== undefined)
      ui.field('Merchant said', `HTTP ${result.merchant.status}${result.merchant.location ? ` -> ${result.merchant.location}` : ''}`);
    else ui.field('Merchant said', ui.color.dim(`nothing: ${result.merchant.error} (no server at returnUrl)`));
  }
  return result;
}
