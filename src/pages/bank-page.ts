/**
 * The sandbox bank page (iDEAL redirect payments): the customer approves or cancels. Pure rendering from a
 * view model; every value is escaped by the `html` template.
 */
import { html } from './html.js';

export interface BankPageView {
  paymentId: string;
  amount: string;
  issuerId: string;
  /** `form` while the payment waits for the customer; `result` once it is settled. */
  state: 'form' | 'result';
  /** What happened, once settled. */
  outcome?: string;
  /** The form's target (this page). */
  action: string;
}

/** The whole page. */
export function renderBankPage(view: BankPageView): string {
  const content =
    view.state === 'form'
      ? html`<p>Pay <strong>${view.amount}</strong> with iDEAL (issuer ${view.issuerId}).</p>
          <form method="post" action="${view.action}">
            <button type="submit" name="action" value="approve">Approve payment</button>
            <button type="submit" name="action" value="cancel">Cancel</button>
          </form>`
      : html`<p role="status" aria-live="polite">${view.outcome ?? ''}</p><p>You can close this window.</p>`;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>paylink sandbox bank</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.5rem 1rem;margin-right:.5rem}</style>
</head>
<body data-paylink-state="${view.state}">
<h1>Sandbox bank</h1>
<p><em>Test environment: no real bank is involved.</em></p>
<div role="alert" aria-live="assertive"></div>
${content}
</body>
</html>`.toString();
}
