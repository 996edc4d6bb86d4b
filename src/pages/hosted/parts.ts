/** Pieces shared by several hosted pages. */
import { PAGE_MARKS } from '../../sandbox/domain/hosted-form.js';
import { html, type SafeHtml } from '../html.js';

/** What the customer is paying, as every page shows it. */
export interface OrderSummary {
  /** The merchant as the sandbox knows it: its business id. */
  merchant: string;
  /** `12.50 EUR`. */
  amountText: string;
  trackingCode?: string | undefined;
}

/** The heading block with the merchant, the amount and the slot for the library's logo. */
export function orderHead(order: OrderSummary): SafeHtml {
  return html`<div class="pl-head">
  <div>
    <p class="pl-merchant">${order.merchant}</p>
    <p class="pl-amount" id="pl-amount">${order.amountText}</p>
    ${order.trackingCode !== undefined ? html`<p class="pl-ref">Reference ${order.trackingCode}</p>` : ''}
  </div>
  <img id="pl-logo" class="pl-logo pl-hidden" alt="Shop logo">
</div>`;
}

/** The alert region: errors are announced to screen readers as they appear. */
export function alertRegion(message: string | undefined, tone: 'error' | 'info' = 'error'): SafeHtml {
  return html`<div id="pl-alert" ${PAGE_MARKS.alert}="${tone}" class="pl-alert${tone === 'info' ? ' pl-info' : ''}" role="alert" aria-live="assertive">${message ?? ''}</div>`;
}
