/**
 * The sandbox bank and wallet page (redirect payments of iDEAL, Sofort, Giropay, EPS and PayPal): the
 * customer approves, cancels or makes the payment fail. It wears the hosted pages' frame, stylesheet and
 * parts (banner, panel, order heading, alert region, buttons), so it looks like the card form it stands
 * beside. Pure rendering from a view model; every value is escaped by the `html` template.
 */
import { PAGE_MARKS } from '../sandbox/domain/hosted-form.js';
import { html } from './html.js';
import { hostedLayout } from './hosted/layout.js';
import { alertRegion, orderHead, type OrderSummary } from './hosted/parts.js';

export interface BankPageView extends OrderSummary {
  paymentId: string;
  /** `bank` for the bank brands, `wallet` for PayPal. */
  kind: 'bank' | 'wallet';
  /** The brand's name (iDEAL, Sofort, PayPal...). */
  brandName: string;
  /** The bank the customer chose (iDEAL's issuer), when the merchant sent one. */
  issuerId?: string | undefined;
  /** The name of that bank, when the sandbox knows it. */
  bankLabel?: string | undefined;
  /** iDEAL without an issuer sent: the banks the customer picks from (`issuerId` posted with the button). */
  banks?: ReadonlyArray<{ issuerId: string; label: string }> | undefined;
  /** `form` while the payment waits for the customer; `result` once it is settled. */
  state: 'form' | 'result';
  /** What happened, once settled. */
  outcome?: string | undefined;
  /** How it ended, for the result's icon: approved, or not. */
  approved?: boolean | undefined;
  /** The form's target (this page). */
  action: string;
  /** The merchant's return address (with `id=`), offered as a link once settled. */
  returnUrl?: string | undefined;
}

/** The whole page. */
export function renderBankPage(view: BankPageView): string {
  const where = view.kind === 'wallet' ? 'wallet' : 'bank';
  const issuer =
    view.bankLabel !== undefined ? html` at ${view.bankLabel}` : view.issuerId !== undefined && view.issuerId !== '' ? html` (issuer ${view.issuerId})` : '';
  const choice =
    view.banks !== undefined && view.banks.length > 0
      ? html`<p class="pl-field"><label for="pl-issuer">Your bank</label>
  <select id="pl-issuer" name="issuerId">${view.banks.map((bank) => html`<option value="${bank.issuerId}">${bank.label}</option>`)}</select></p>`
      : '';
  const content =
    view.state === 'form'
      ? html`<section class="pl-panel pl-simulator" aria-labelledby="pl-title" ${PAGE_MARKS.brand}="${view.brandName}">
${orderHead(view)}
<h1 id="pl-title">Pay with ${view.brandName}</h1>
${alertRegion(undefined)}
<p>Confirm the payment of <strong>${view.amountText}</strong> with ${view.brandName}${issuer}.</p>
<p class="pl-notice">Sandbox ${where}: <em>Approve payment</em> gives 0 Ok, <em>Cancel</em> -10 (code 3011), <em>Make it fail</em> -2 (code 3006), <em>Decline</em> -4 (code 3001, declined by the ${where}).</p>
<form id="pl-bank-form" method="post" action="${view.action}">
  ${choice}
  <div class="pl-actions">
    <button type="submit" class="pl-pay" id="pl-approve" name="action" value="approve">Approve payment</button>
    <button type="submit" class="pl-decline" id="pl-cancel" name="action" value="cancel">Cancel</button>
    <button type="submit" class="pl-decline" id="pl-fail" name="action" value="fail">Make it fail</button>
    <button type="submit" class="pl-decline" id="pl-bank-decline" name="action" value="decline">Decline</button>
  </div>
</form>
</section>`
      : html`<section class="pl-panel pl-state pl-${view.approved ? 'good' : 'bad'} pl-simulator" aria-labelledby="pl-title" ${PAGE_MARKS.brand}="${view.brandName}">
${orderHead(view)}
<div class="pl-icon" aria-hidden="true">${view.approved ? '✓' : '!'}</div>
<h1 id="pl-title">${view.brandName}: ${view.approved ? 'payment approved' : 'payment not completed'}</h1>
<p id="pl-message" role="status" aria-live="polite">${view.outcome ?? ''}</p>
${view.returnUrl !== undefined ? html`<p><a id="pl-return" href="${view.returnUrl}">Return to the shop</a></p>` : html`<p>You can close this window.</p>`}
</section>`;
  return hostedLayout({
    title: `Sandbox ${where} · ${view.brandName}`,
    state: view.state,
    content,
    notice: `no real ${where} is involved.`,
  });
}
