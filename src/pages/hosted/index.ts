/** The hosted payment pages (issue 4): templates, stylesheet and script. Templates never read the store. */
export { hostedLayout, ASSET_PATH, type HostedState } from './layout.js';
export { renderCardFormPage, type CardFormView } from './card-form-page.js';
export { renderChallengePage, type ChallengeView } from './challenge-page.js';
export { renderStatePage, type StatePageView, type TerminalError } from './state-page.js';
export type { OrderSummary } from './parts.js';
export { HOSTED_CSS, STYLE_PROPERTIES } from './styles.js';
