/**
 * Pages without a card form: where a customer lands on a link or checkout that can no longer be paid
 * (expired, cancelled, paid, declined...), the unknown-id page, and the end of a framed flow that hands the
 * merchant's `returnUrl` to the library (`{redirect}`) instead of a 303.
 */
import { html, type SafeHtml } from '../html.js';
import { hostedLayout, type HostedState } from './layout.js';
import type { HostedPageConfig, TerminalError as PageTerminalError } from './page-config.js';
import { alertRegion, orderHead, type OrderSummary } from './parts.js';

/** What a framed page reports to the library with `{error}` (docs/hosted-pages.md, the library protocol). */
export interface TerminalError extends PageTerminalError {
  state: string;
}

export interface StatePageView {
  state: HostedState;
  title: string;
  message: string;
  tone: 'good' | 'bad' | 'warn' | 'neutral';
  order?: OrderSummary | undefined;
  /** Shown in the alert region, e.g. why a submission was refused. */
  alert?: string | undefined;
  /** Posted to the parent as `{error}` when framed. */
  terminal?: TerminalError | undefined;
  /** The merchant's return address, offered as a link (and, on the framed end page, posted as `{redirect}`). */
  returnUrl?: string | undefined;
  /** True for the end of a framed flow: the script posts `{redirect: returnUrl}`. */
  redirect?: boolean | undefined;
  /** The end of an embedded 3-D Secure check: what the frame tells its parent, then where the frame goes. */
  embeddedEnd?: HostedPageConfig['embeddedEnd'];
}

const ICONS: Record<StatePageView['tone'], string> = { good: '✓', bad: '!', warn: '!', neutral: 'i' };

/** A page that says what happened and offers no form. */
export function renderStatePage(view: StatePageView): string {
  const returnLink: SafeHtml | string =
    view.returnUrl !== undefined
      ? html`<p><a id="pl-return" href="${view.returnUrl}" target="${view.embeddedEnd ? '_self' : '_top'}" rel="noopener">Return to the shop</a></p>`
      : '';
  const content = html`<section class="pl-panel pl-state pl-${view.tone}" aria-labelledby="pl-title">
${view.order ? orderHead(view.order) : html`<img id="pl-logo" class="pl-logo pl-hidden" alt="Shop logo">`}
<div class="pl-icon" aria-hidden="true">${ICONS[view.tone]}</div>
<h1 id="pl-title">${view.title}</h1>
${alertRegion(view.alert)}
<p id="pl-message">${view.message}</p>
${returnLink}
</section>`;
  const config = {
    ...(view.terminal ? { terminal: view.terminal } : {}),
    ...(view.redirect && view.returnUrl !== undefined ? { redirect: view.returnUrl } : {}),
    ...(view.embeddedEnd ? { embeddedEnd: view.embeddedEnd } : {}),
  };
  return hostedLayout({ title: view.title, state: view.state, content, config });
}
