/**
 * The card form of a payment link, checkout or card redirect payment (contract 3): a plain
 * `<form method="post">` that works without JavaScript, with the one-time `formToken`, labelled fields with
 * `autocomplete` hints, the offered brands, the save-card choice for `tokenize` INQUIRE (a notice for TRUE),
 * a pay and a decline button.
 */
import { CARD_FIELDS as F, FIELD_LIMITS, FORM_ACTIONS, PAGE_FORMS, PAGE_MARKS as M, SAVE_CARD_ON } from '../../sandbox/domain/hosted-form.js';
import { html, type SafeHtml } from '../html.js';
import { hostedLayout } from './layout.js';
import { alertRegion, orderHead, type OrderSummary } from './parts.js';

export interface CardFormView extends OrderSummary {
  /** What is paid: a link, a checkout, or a card redirect payment (one attempt, no attempts count). */
  kind: 'link' | 'checkout' | 'payment';
  /** Path the form posts to (the page's own). */
  action: string;
  formToken: string;
  /** Brands offered, in the merchant's order. */
  brands: Array<{ id: number; name: string }>;
  tokenize: 'FALSE' | 'INQUIRE' | 'TRUE';
  /** One-click checkouts: the saved cards offered beside the card form (brand, last four digits, expiry). */
  savedCards?: SavedCardView[] | undefined;
  /** Whether a saved card is paid with its security code (the checkout's `oneClick.requireCvv`, default true). */
  savedCardCvv?: boolean | undefined;
  /** Why the last attempt failed, or why the form is shown again. */
  error?: string | undefined;
  /** Attempts left after a failed one (shown with the error). */
  attemptsLeft?: number | undefined;
  /** Values kept after a failed attempt; never the card number or CVV. */
  values?: { holderName?: string; expiryMonth?: string; expiryYear?: string; saveCard?: boolean } | undefined;
  /** The sandbox clock's year and month, for the past-expiry check (the clock can be moved). */
  now: { year: number; month: number };
}

/** A saved card as the form shows it: never more of the number than its last four digits. */
export interface SavedCardView {
  token: string;
  brandId: number;
  brandName: string;
  lastFourDigits: string;
  expiry: string;
  cvvLength: number;
}

/**
 * The saved cards of a one-click checkout: a form of its own after the card form (same one-time token, same
 * page address, so whatever reads the page's first form still finds the card form) with one radio button
 * per card, the security code and a pay button.
 */
function savedCardsForm(view: CardFormView): SafeHtml | '' {
  const cards = view.savedCards ?? [];
  if (cards.length === 0) return '';
  const longest = Math.max(...cards.map((c) => c.cvvLength));
  const items = cards.map(
    (c, i) =>
      html`<li><label class="pl-check" for="pl-saved-${i}"><input type="radio" id="pl-saved-${i}" name="${F.savedToken}" value="${c.token}" ${M.savedCard}="${c.lastFourDigits}" ${M.savedBrand}="${String(c.brandId)}"${i === 0 ? html` checked` : ''} required> ${c.brandName} •••• ${c.lastFourDigits} <span class="pl-muted">(expires ${c.expiry})</span></label></li>`,
  );
  return html`<form id="pl-saved-form" method="post" action="${view.action}" ${M.form}="${PAGE_FORMS.saved}" aria-labelledby="pl-saved-title">
  <input type="hidden" name="${F.formToken}" value="${view.formToken}">
  <input type="hidden" name="${F.framed}" value="">
  <h2 id="pl-saved-title" class="pl-subtitle">Or pay with a saved card</h2>
  <ul class="pl-saved-cards">${items}</ul>
  ${
    view.savedCardCvv !== false
      ? html`<div class="pl-field">
    <label for="pl-savedCvv">Security code of the saved card</label>
    <input type="password" id="pl-savedCvv" name="${F.cvv}" inputmode="numeric" autocomplete="cc-csc" maxlength="${longest}" required placeholder="CVV">
  </div>`
      : ''
  }
  <div class="pl-actions">
    <button type="submit" class="pl-pay" id="pl-pay-saved" name="${F.action}" value="${FORM_ACTIONS.pay}">Pay ${view.amountText} with the saved card</button>
  </div>
</form>`;
}

/** The card form page. */
export function renderCardFormPage(view: CardFormView): string {
  const values = view.values ?? {};
  const message =
    view.error !== undefined
      ? `${view.error}${view.attemptsLeft !== undefined ? ` You can try again (${view.attemptsLeft} ${view.attemptsLeft === 1 ? 'attempt' : 'attempts'} left).` : ''}`
      : undefined;
  const brandList = view.brands.map((b) => html`<li class="pl-brand" ${M.brand}="${b.id}" data-brand-id="${b.id}">${b.name}</li>`);
  const content = html`<section class="pl-panel" aria-labelledby="pl-title">
${orderHead(view)}
<h1 id="pl-title" class="pl-sr">Pay by card</h1>
${alertRegion(message)}
<p class="pl-sr" id="pl-brands-label">Accepted cards</p>
<ul class="pl-brands" aria-labelledby="pl-brands-label">${brandList}</ul>
<span id="pl-brand-live" class="pl-sr" aria-live="polite"></span>
<form id="pl-card-form" method="post" action="${view.action}" autocomplete="on" ${M.form}="${PAGE_FORMS.card}">
  <input type="hidden" name="${F.formToken}" value="${view.formToken}">
  <input type="hidden" name="${F.framed}" value="">
  <div class="pl-field">
    <label for="pl-cardNumber">Card number</label>
    <input type="text" id="pl-cardNumber" name="${F.cardNumber}" ${M.field}="${F.cardNumber}" inputmode="numeric" autocomplete="cc-number" maxlength="${FIELD_LIMITS.cardNumber}" required aria-describedby="pl-error-cardNumber" placeholder="1234 5678 9012 3456">
    <p class="pl-field-error" id="pl-error-cardNumber"></p>
  </div>
  <fieldset class="pl-row pl-fieldset">
    <legend class="pl-sr">Expiry date</legend>
    <div class="pl-field">
      <label for="pl-expiryMonth">Expiry month</label>
      <input type="text" id="pl-expiryMonth" name="${F.expiryMonth}" ${M.field}="${F.expiryMonth}" inputmode="numeric" autocomplete="cc-exp-month" maxlength="${FIELD_LIMITS.expiryMonth}" required placeholder="MM" value="${values.expiryMonth ?? ''}" aria-describedby="pl-error-expiryMonth">
      <p class="pl-field-error" id="pl-error-expiryMonth"></p>
    </div>
    <div class="pl-field">
      <label for="pl-expiryYear">Expiry year</label>
      <input type="text" id="pl-expiryYear" name="${F.expiryYear}" ${M.field}="${F.expiryYear}" inputmode="numeric" autocomplete="cc-exp-year" maxlength="${FIELD_LIMITS.expiryYear}" required placeholder="YYYY" value="${values.expiryYear ?? ''}" aria-describedby="pl-error-expiryMonth">
    </div>
    <div class="pl-field">
      <label for="pl-cvv">Security code</label>
      <input type="password" id="pl-cvv" name="${F.cvv}" ${M.field}="${F.cvv}" inputmode="numeric" autocomplete="cc-csc" maxlength="${FIELD_LIMITS.cvv}" required placeholder="CVV" aria-describedby="pl-cvv-hint pl-error-cvv">
      <p class="pl-sr" id="pl-cvv-hint">3 digits (back of the card); 4 for American Express</p>
      <p class="pl-field-error" id="pl-error-cvv"></p>
    </div>
  </fieldset>
  <div class="pl-field">
    <label for="pl-holderName">Name on the card</label>
    <input type="text" id="pl-holderName" name="${F.holderName}" ${M.field}="${F.holderName}" autocomplete="cc-name" maxlength="${FIELD_LIMITS.holderName}" required value="${values.holderName ?? ''}" aria-describedby="pl-error-holderName">
    <p class="pl-field-error" id="pl-error-holderName"></p>
  </div>
  ${
    view.tokenize === 'INQUIRE'
      ? html`<div class="pl-field"><label class="pl-check" for="pl-saveCard"><input type="checkbox" id="pl-saveCard" name="${F.saveCard}" value="${SAVE_CARD_ON}" ${M.field}="${F.saveCard}"${values.saveCard ? html` checked` : ''}> Save this card for future purchases with ${view.merchant}</label></div>`
      : view.tokenize === 'TRUE'
        ? html`<p class="pl-notice" id="pl-save-notice">${view.merchant} will save this card for future purchases.</p>`
        : ''
  }
  <div class="pl-actions">
    <button type="submit" class="pl-pay" id="pl-pay" name="${F.action}" value="${FORM_ACTIONS.pay}" ${M.action}="${FORM_ACTIONS.pay}">Pay ${view.amountText}</button>
    <button type="submit" class="pl-decline" id="pl-decline" name="${F.action}" value="${FORM_ACTIONS.decline}" ${M.action}="${FORM_ACTIONS.decline}" formnovalidate>Decline payment</button>
  </div>
</form>
${savedCardsForm(view)}
</section>`;
  return hostedLayout({
    title: `Pay ${view.amountText}`,
    state: 'form',
    content,
    fillableCards: true,
    fillYear: view.now.year,
    brandIds: view.brands.map((b) => b.id),
    config: { kind: view.kind, brandIds: view.brands.map((b) => b.id), now: view.now },
  });
}
