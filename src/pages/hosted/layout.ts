/**
 * The frame every hosted page shares: the sandbox banner with the test cards, the page's state on `<body>`
 * (`data-paylink-state`, contract 3), an `aria-live` alert region, the page data for the script as JSON,
 * and the external stylesheet and script (the CSP allows no inline script).
 */
import { brandById } from '../../sandbox/domain/brands.js';
import { spacedCardNumber } from '../../sandbox/domain/cards.js';
import { CARD_FIELDS, CARD_RULES, defaultCardFields, PAGE_CONFIG_ID, PAGE_MARKS } from '../../sandbox/domain/hosted-form.js';
import { TEST_CARDS, THREE_DS_APPROVE_CODE, type OutcomeName, type TestCard } from '../../sandbox/domain/test-cards.js';
import { html, jsonForScript, type SafeHtml } from '../html.js';
import type { HostedPageConfig } from './page-config.js';
import { STYLE_PROPERTIES } from './styles.js';
import { HOSTED_BASE } from '../../sandbox/domain/routes.js';

/** Where a customer is; scripts, the library and tests read it from `<body data-paylink-state>`. */
export type HostedState = 'form' | 'result' | 'expired' | 'cancelled' | 'paid' | 'declined' | 'declinedbycustomer' | 'notfound' | 'challenge' | 'error';

/** Root-relative, so the assets load from whatever origin served the page (public URL, tunnel, localhost). */
export const ASSET_PATH = `${HOSTED_BASE}/assets`;

export interface LayoutInput {
  title: string;
  state: HostedState;
  content: SafeHtml;
  /** Extra data for the page script (merged into its config). */
  config?: Partial<Pick<HostedPageConfig, 'kind' | 'brandIds' | 'now' | 'redirect' | 'terminal' | 'embeddable' | 'embeddedEnd'>>;
  /** An embedded 3-D Secure challenge's window size code (`<body data-paylink-window>`; the stylesheet sizes the page by it). */
  challengeWindow?: string | undefined;
  /** The test cards are buttons that fill the card form (only on pages that have one). */
  fillableCards?: boolean;
  /**
   * Brands the form accepts: the banner offers only test cards of these brands. Pages without a form show
   * no cards at all, only the sandbox notice.
   */
  brandIds?: readonly number[] | undefined;
  /** The year the test cards' expiry is counted from (the sandbox clock's). */
  fillYear?: number | undefined;
  /** The banner's sentence after "Sandbox ·" on a page without test cards. @default "no real card is ever charged." */
  notice?: string | undefined;
}

/** The banner's groups, by what a card does, in the order a person tries them. */
const CARD_GROUPS: ReadonlyArray<{ id: string; title: string; outcomes: readonly OutcomeName[] }> = [
  { id: 'approved', title: 'Approved', outcomes: ['approved'] },
  {
    id: 'declined',
    title: 'Declined',
    outcomes: ['declined', 'insufficient-funds', 'expired-card', 'cvv-mismatch', 'declined-retry', 'business-rule', 'fraud', 'customer-cancelled', 'referral'],
  },
  { id: 'failed', title: 'Failed', outcomes: ['failed', 'failed-retry', 'internal-error'] },
  { id: '3ds', title: '3-D Secure', outcomes: ['3ds'] },
];

/** What a test card's button fills the form with: its number and the fields {@link defaultCardFields} gives its brand. */
function cardButton(card: TestCard, label: string, year: number): SafeHtml {
  const fill = defaultCardFields(card.brandId, year);
  return html`<li><button type="button" class="pl-card-pick" data-number="${card.number}" data-outcome="${card.outcome}" data-expiry-month="${fill.expiryMonth}" data-expiry-year="${fill.expiryYear}" data-cvv="${fill.cvv}" data-holder-name="${fill.holderName}" title="Fill the form with this card"><code>${spacedCardNumber(card.number, card.brandId)}</code> ${label}</button></li>`;
}

/**
 * The sandbox badge. On a page with a card form: a skip link to the card number, then a one-line badge
 * that opens the test cards of the brands the form accepts, grouped by outcome, every group in full, one
 * approved card per brand. The list opens over the page (it never pushes the form down) and starts closed;
 * the page script remembers an opened list for the rest of the browser session, so it stays open after a
 * failed attempt. Elsewhere (paid, expired, 3-D Secure...) there is nothing to choose: the notice alone.
 */
function banner(fillable: boolean, brandIds: readonly number[] | undefined, year: number, notice = 'no real card is ever charged.'): SafeHtml {
  if (!fillable) {
    return html`<div class="pl-banner" id="pl-banner"><strong>Sandbox</strong> · ${notice}</div>`;
  }
  const accepted = (card: TestCard) => brandIds === undefined || brandIds.includes(card.brandId);
  const groups = CARD_GROUPS.map((group) => {
    const seenBrands = new Set<number>();
    const cards = TEST_CARDS.filter((card) => group.outcomes.includes(card.outcome) && accepted(card)).filter((card) => {
      if (group.id !== 'approved') return true;
      if (seenBrands.has(card.brandId)) return false;
      seenBrands.add(card.brandId);
      return true;
    });
    const missing =
      cards.length === 0
        ? [...new Set(TEST_CARDS.filter((c) => group.outcomes.includes(c.outcome)).map((c) => brandById(c.brandId)?.name ?? String(c.brandId)))]
        : [];
    return html`<section class="pl-card-group" data-group="${group.id}">
    <h2 class="pl-card-title">${group.title}</h2>
    ${
      cards.length > 0
        ? html`<ul class="pl-cards">${cards.map((card) => cardButton(card, group.id === 'approved' ? (brandById(card.brandId)?.name ?? card.label) : card.label, year))}</ul>`
        : html`<p class="pl-card-none">No ${group.title.toLowerCase()} test card in a brand this page accepts (they are ${missing.join(', ')}).</p>`
    }
  </section>`;
  });
  return html`<a class="pl-skip" href="#${ids.cardNumber}">Skip to the card form</a>
<details class="pl-banner pl-badge" id="pl-banner">
  <summary><span class="pl-banner-long"><strong>Sandbox</strong> · no real card is ever charged · test cards <span class="pl-when-closed">(show)</span><span class="pl-when-open">(hide)</span></span><span class="pl-banner-short"><strong>Sandbox</strong> · test cards <span class="pl-when-closed">(tap to show)</span><span class="pl-when-open">(tap to hide)</span></span></summary>
  <div class="pl-card-panel">
  <p class="pl-sr">Any future expiry date and any 3-digit security code work; American Express takes 4 digits. The 3-D Secure code is ${THREE_DS_APPROVE_CODE}.</p>
  <div class="pl-card-groups">${groups}</div>
  </div>
</details>`;
}

/** The ids of the card form's inputs (`pl-<field name>`), which labels, the skip link and the script use. */
const ids = { cardNumber: `pl-${CARD_FIELDS.cardNumber}` } as const;

/** A whole hosted page as HTML text. */
export function hostedLayout(input: LayoutInput): string {
  const { framed, action, cardNumber, expiryMonth, expiryYear, cvv, holderName } = CARD_FIELDS;
  const config: HostedPageConfig = {
    state: input.state,
    styleMap: STYLE_PROPERTIES.map(({ group, option, property }) => ({ group, option, property })),
    fields: { framed, action, cardNumber, expiryMonth, expiryYear, cvv, holderName },
    cards: CARD_RULES,
    ...input.config,
  };
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${input.title} · paylink sandbox</title>
<link rel="stylesheet" href="${ASSET_PATH}/hosted.css">
</head>
<body ${PAGE_MARKS.state}="${input.state}"${input.challengeWindow !== undefined ? html` ${PAGE_MARKS.window}="${input.challengeWindow}"` : ''}>
<div id="pl-root" class="pl-root">
${banner(input.fillableCards ?? false, input.brandIds, input.fillYear ?? new Date().getUTCFullYear(), input.notice)}
<main class="pl-main">
${input.content}
<p class="pl-foot">paylink sandbox · test environment</p>
</main>
</div>
<script type="application/json" id="${PAGE_CONFIG_ID}">${jsonForScript(config)}</script>
<script src="${ASSET_PATH}/hosted.js"></script>
</body>
</html>
`.value;
}
