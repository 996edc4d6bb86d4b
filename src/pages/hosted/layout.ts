/**
 * The frame every hosted page shares: the sandbox banner with the test cards, the page's state on `<body>`
 * (`data-paylink-state`, contract 3), an `aria-live` alert region, the page data for the script as JSON,
 * and the external stylesheet and script (the CSP allows no inline script).
 */
import { TEST_CARDS } from '../../sandbox/domain/test-cards.js';
import { html, jsonForScript, type SafeHtml } from '../html.js';
import { STYLE_PROPERTIES } from './styles.js';

/** Where a customer is; scripts, the library and tests read it from `<body data-paylink-state>`. */
export type HostedState =
  | 'form'
  | 'result'
  | 'expired'
  | 'cancelled'
  | 'paid'
  | 'declined'
  | 'declinedbycustomer'
  | 'notfound'
  | 'challenge'
  | 'error';

/** Root-relative, so the assets load from whatever origin served the page (public URL, tunnel, localhost). */
export const ASSET_PATH = '/gateway/v3/web/assets';

export interface LayoutInput {
  title: string;
  state: HostedState;
  content: SafeHtml;
  /** Extra data for the page script (merged into its config). */
  config?: Record<string, unknown>;
  /** The test cards are buttons that fill the card form (only on pages that have one). */
  fillableCards?: boolean;
}

function spaced(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

function banner(fillable: boolean): SafeHtml {
  const items = TEST_CARDS.map((card) =>
    fillable
      ? html`<li><button type="button" class="pl-card-pick" data-number="${card.number}" title="Fill the form with this card"><code>${spaced(card.number)}</code> ${card.label}</button></li>`
      : html`<li><span class="pl-card-pick"><code>${spaced(card.number)}</code> ${card.label}</span></li>`,
  );
  return html`<details class="pl-banner" id="pl-banner"${fillable ? html` open` : ''}>
  <summary><strong>Sandbox</strong> · no real card is ever charged. Test cards${fillable ? ' (choose one to fill the form)' : ''}</summary>
  <p class="pl-sr">Any future expiry date and any 3-digit security code work; American Express takes 4 digits. The 3-D Secure code is 1234.</p>
  <ul class="pl-cards">${items}</ul>
</details>`;
}

/** A whole hosted page as HTML text. */
export function hostedLayout(input: LayoutInput): string {
  const config = {
    state: input.state,
    styleMap: STYLE_PROPERTIES.map(({ group, option, property }) => ({ group, option, property })),
    testCards: TEST_CARDS.map(({ number, brandId }) => ({ number, brandId })),
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
<body data-paylink-state="${input.state}">
<div id="pl-root" class="pl-root">
${banner(input.fillableCards ?? false)}
<main class="pl-main">
${input.content}
<p class="pl-foot">paylink sandbox · test environment</p>
</main>
</div>
<script type="application/json" id="pl-config">${jsonForScript(config)}</script>
<script src="${ASSET_PATH}/hosted.js"></script>
</body>
</html>
`.value;
}
