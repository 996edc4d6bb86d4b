/**
 * The sandbox bank and wallet page (redirect payments of iDEAL, Sofort, Giropay, EPS and PayPal): the
 * customer approves, cancels or makes the payment fail. Pure rendering from a view model; every value is
 * escaped by the `html` template.
 */
import { html } from './html.js';

export interface BankPageView {
  paymentId: string;
  /** `bank` for the bank brands, `wallet` for PayPal. */
  kind: 'bank' | 'wallet';
  /** The brand's name (iDEAL, Sofort, PayPal...). */
  brandName: string;
  amount: string;
  /** The bank the customer chose (iDEAL's issuer), when the merchant sent one. */
  issuerId?: string | undefined;
  /** `form` while the payment waits for the customer; `result` once it is settled. */
  state: 'form' | 'result';
  /** What happened, once settled. */
  outcome?: string | undefined;
  /** The form's target (this page). */
  action: string;
  /** The merchant's return address (with `id=`), offered as a link once settled. */
  returnUrl?: string | undefined;
}

/** The whole page. */
export function renderBankPage(view: BankPageView): string {
  const where = view.kind === 'wallet' ? 'wallet' : 'bank';
  const issuer = view.issuerId !== undefined && view.issuerId !== '' ? html` (issuer ${view.issuerId})` : '';
  const content =
    view.state === 'form'
      ? html`<p>Pay <strong>${view.amount}</strong> with ${view.brandName}${issuer}.</p>
          <form method="post" action="${view.action}">
            <button type="submit" name="action" value="approve">Approve payment</button>
            <button type="submit" name="action" value="cancel">Cancel</button>
            <button type="submit" name="action" value="fail">Make it fail</button>
          </form>
          <p><small>Approve: 0 Ok. Cancel: -10 (code 3011). Make it fail: -2 (code 3006).</small></p>`
      : html`<p role="status" aria-live="polite">${view.outcome ?? ''}</p>${
          view.returnUrl !== undefined ? html`<p><a id="pl-return" href="${view.returnUrl}">Return to the shop</a></p>` : html`<p>You can close this window.</p>`
        }`;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>paylink sandbox ${where} · ${view.brandName}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1rem;margin:0 .5rem .5rem 0}</style>
</head>
<body data-paylink-state="${view.state}" data-paylink-brand="${view.brandName}">
<h1>Sandbox ${where}: ${view.brandName}</h1>
<p><em>Test environment: no real ${where} is involved.</em></p>
<div role="alert" aria-live="assertive"></div>
${content}
</body>
</html>`.toString();
}
