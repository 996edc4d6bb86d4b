/**
 * Every address the sandbox hands out, built from the route table (routes.ts): hosted pages, the card form of a redirect
 * payment, the 3-D Secure page, the bank and wallet pages and the redirect back to the merchant.
 * Root-relative paths keep a redirect on the origin the browser used; `…Url` functions prefix the sandbox's
 * public base URL for what the API answers.
 */
import type { Ending, Parent } from './lifecycle.js';
import { providerPageUrl } from './provider-hosts.js';
import { pathOf } from './routes.js';

/** Path of the hosted page of a link or checkout. */
export function hostedPath(kind: Parent['kind'], id: string): string {
  return kind === 'link' ? pathOf('hosted.link', { linkId: id }) : pathOf('hosted.checkout', { checkoutId: id });
}

/** Address of a hosted page (`redirect.url` of a link or checkout). */
export function hostedPageUrl(baseUrl: string, kind: Parent['kind'], id: string): string {
  return providerPageUrl(baseUrl, kind, id) ?? baseUrl + hostedPath(kind, id);
}

/** Path of the 3-D Secure page of a payment. */
export function challengePath(paymentId: string): string {
  return pathOf('challenge.page', { paymentId });
}

/** Path of the sandbox bank page of a bank payment. */
export function bankPath(paymentId: string): string {
  return pathOf('bank.page', { paymentId });
}

/** Path of the hosted card form of a card redirect payment (a payment created without card data). */
export function paymentFormPath(paymentId: string): string {
  return pathOf('hosted.payment', { paymentId });
}

/** Path of the sandbox wallet page (PayPal) of a wallet payment. */
export function walletPath(paymentId: string): string {
  return pathOf('wallet.page', { paymentId });
}

/** Path of the simulator page of a bank or wallet payment. */
export function simulatorPath(flow: 'bank' | 'wallet', paymentId: string): string {
  return flow === 'wallet' ? walletPath(paymentId) : bankPath(paymentId);
}

/**
 * Where the browser goes once the customer acted on a redirect payment: its `returnUrl` with
 * `id=<paymentId>`; the merchant reads the outcome with the API's `payments.get`.
 */
export function paymentReturnUrl(returnUrl: string, paymentId: string): string {
  return returnUrlWith(returnUrl, [['id', paymentId]]);
}

/** The sandbox's demo merchant page that embeds a link or checkout with the browser library. */
export function libraryDemoPath(id: string): string {
  return pathOf('library.demo', { id });
}

/**
 * `returnUrl` with the given parameters appended; the merchant's own query string is kept as it was (not
 * re-encoded), and a fragment stays at the end.
 */
export function returnUrlWith(returnUrl: string, params: Array<[string, string]>): string {
  const url = new URL(returnUrl);
  const extra = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const existing = url.search.slice(1);
  url.search = existing ? `${existing}&${extra}` : extra;
  return url.href;
}

/**
 * The redirect of docs/hosted-pages.md: link `linkId=<id>&id=<paymentId>` (no `id` after the decline
 * button); checkout `checkoutId=<id>`, plus `&id=<paymentId>` when paid.
 */
export function merchantRedirect(parent: Parent, ending: Ending, paymentId?: string): string {
  const params: Array<[string, string]> = [];
  if (parent.kind === 'link') {
    params.push(['linkId', parent.record.id]);
    if (paymentId !== undefined && ending !== 'declinedbycustomer') params.push(['id', paymentId]);
  } else {
    params.push(['checkoutId', parent.record.id]);
    if (paymentId !== undefined && ending === 'paid') params.push(['id', paymentId]);
  }
  return returnUrlWith(parent.record.returnUrl, params);
}
