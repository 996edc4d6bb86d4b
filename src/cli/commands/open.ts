/**
 * `paylink open <id>`: opens the hosted page of a link or checkout in the default browser, or prints its
 * URL where no browser can be opened (no display, CI, `--print`).
 */
import type { CommandContext } from '../context.js';
import { findResource, type ResourceKind } from '../customer.js';
import { ApiResponseError } from '../errors.js';

export interface OpenResult {
  kind: ResourceKind;
  id: string;
  url: string;
  opened: boolean;
}

/** True when a browser can plausibly be opened: a desktop session, not CI. */
export function canOpenBrowser(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return false;
  if (platform === 'linux') return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY || env.WSL_DISTRO_NAME);
  return true;
}

export async function openPage(id: string, flags: { print?: boolean }, ctx: CommandContext, opener?: (url: string) => Promise<unknown>): Promise<OpenResult> {
  const { kind, response } = await ctx.ui.spin(`Looking up ${id}`, () => findResource(ctx.client, id));
  const resource = kind === 'link' ? response.body?.body?.link : response.body?.body?.checkout;
  const url: string | undefined = resource?.redirect?.url;
  if (!url) throw new ApiResponseError(`The ${kind} ${id} has no redirect.url.`, response.status, response.body);
  let opened = false;
  if (!flags.print && (opener || canOpenBrowser())) {
    try {
      const open = opener ?? (async (u: string) => (await import('open')).default(u, { wait: false }));
      await open(url);
      opened = true;
    } catch {
      opened = false;
    }
  }
  const result = { kind, id, url, opened };
  if (ctx.ui.options.json) ctx.ui.json(result);
  else {
    if (opened) ctx.ui.info(`Opened the hosted page of ${kind} ${id} in your browser:`);
    else if (!flags.print) ctx.ui.info('No browser to open here; the hosted page is at:');
    ctx.ui.line(url);
  }
  return result;
}
