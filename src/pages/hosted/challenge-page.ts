/**
 * The 3-D Secure challenge of the sandbox's 3-D Secure test card (contract 3): a one-time code (`1234`
 * approves) or cancel, posted to the page's own path with a one-time `formToken`.
 */
import { THREE_DS_APPROVE_CODE } from '../../sandbox/domain/test-cards.js';
import { CHALLENGE_FIELDS as C, FORM_ACTIONS, PAGE_FORMS, PAGE_MARKS as M } from '../../sandbox/domain/hosted-form.js';
import { html } from '../html.js';
import { hostedLayout } from './layout.js';
import { alertRegion, orderHead, type OrderSummary } from './parts.js';

export interface ChallengeView extends OrderSummary {
  action: string;
  formToken: string;
  /** `VISA •••• 3220`. */
  cardHint: string;
  error?: string | undefined;
  /** The payment has no link or checkout: the merchant may frame this page itself (the embedded flow). */
  embeddable?: boolean | undefined;
  /** `threeDSecure.additionalInfo.challengeWindowSize` of the payment: the embedded window's size code. */
  windowSize?: string | undefined;
  /** The check runs as 3-D Secure 1.0 where 2.0 was asked (the issuer knows 1.0 only). */
  downgraded?: boolean | undefined;
}

/** The challenge page. */
export function renderChallengePage(view: ChallengeView): string {
  const content = html`<section class="pl-panel" aria-labelledby="pl-title">
${orderHead(view)}
<h1 id="pl-title">Confirm it's you</h1>
${alertRegion(view.error)}
<p>Your bank asks you to confirm this payment with the card ${view.cardHint}. Enter the code it sent you.</p>
${view.downgraded ? html`<p class="pl-notice" ${M.downgraded}="1">Your bank uses 3-D Secure 1.0 for this card, so this check runs on 1.0 instead of 2.0.</p>` : ''}
<p class="pl-notice">Sandbox: the code <strong>${THREE_DS_APPROVE_CODE}</strong> approves; any other code or Cancel fails the check.</p>
<form id="pl-challenge-form" method="post" action="${view.action}" ${M.form}="${PAGE_FORMS.challenge}">
  <input type="hidden" name="${C.formToken}" value="${view.formToken}">
  <input type="hidden" name="${C.framed}" value="">
  <div class="pl-field">
    <label for="pl-code">Verification code</label>
    <input type="text" id="pl-code" name="${C.code}" ${M.field}="${C.code}" class="pl-code" inputmode="numeric" autocomplete="one-time-code" maxlength="12" autofocus>
  </div>
  <div class="pl-actions">
    <button type="submit" class="pl-pay" id="pl-submit" name="${C.action}" value="${FORM_ACTIONS.submit}" ${M.action}="${FORM_ACTIONS.submit}">Confirm</button>
    <button type="submit" class="pl-decline" id="pl-cancel" name="${C.action}" value="${FORM_ACTIONS.cancel}" ${M.action}="${FORM_ACTIONS.cancel}">Cancel</button>
  </div>
</form>
</section>`;
  return hostedLayout({
    title: '3-D Secure',
    state: 'challenge',
    content,
    challengeWindow: view.windowSize,
    ...(view.embeddable ? { config: { embeddable: true } } : {}),
  });
}
