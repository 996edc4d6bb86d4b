/**
 * The hosted pages' stylesheet, served as `{api}/web/assets/hosted.css`. Every style option of spec
 * section 4.10 is a CSS custom property (`--pl-*`) that the page script sets from the library's options;
 * the defaults are the spec's. Internet Explorer 11 (a supported browser) ignores custom properties, so each
 * declaration that uses `var()` is preceded by a plain copy with the default value (see {@link withFallbacks}).
 */
import { PAGE_MARKS } from '../../sandbox/domain/hosted-form.js';
import { CHALLENGE_WINDOW_SIZES } from '../../sandbox/domain/three-d-secure.js';

/** Spec 4.10 style options and the custom property each one sets, with its default. */
export const STYLE_PROPERTIES: ReadonlyArray<{
  group: 'generalStyles' | 'formStyles' | 'paymentButtonStyles';
  option: string;
  property: string;
  fallback: string;
}> = [
  { group: 'generalStyles', option: 'fontFamily', property: '--pl-font-family', fallback: '"Source Sans Pro", Arial, Verdana, sans-serif' },
  { group: 'generalStyles', option: 'backgroundColor', property: '--pl-background', fallback: '#f6f7fb' },
  { group: 'generalStyles', option: 'primaryThemeColor', property: '--pl-primary', fallback: '#213d8f' },
  { group: 'generalStyles', option: 'accentThemeColor', property: '--pl-accent', fallback: '#909ec7' },
  { group: 'generalStyles', option: 'secondaryThemeColor', property: '--pl-secondary', fallback: '#909ec7' },
  { group: 'generalStyles', option: 'infoThemeColor', property: '--pl-info', fallback: '#1db9de' },
  { group: 'generalStyles', option: 'warningThemeColor', property: '--pl-warning', fallback: '#fec61f' },
  { group: 'generalStyles', option: 'errorThemeColor', property: '--pl-error', fallback: '#e6493a' },
  { group: 'generalStyles', option: 'successThemeColor', property: '--pl-success', fallback: '#35ba6d' },
  { group: 'formStyles', option: 'backgroundFormColor', property: '--pl-form-background', fallback: '#ffffff' },
  { group: 'formStyles', option: 'backgroundFormContainerColor', property: '--pl-form-container-background', fallback: '#ffffff' },
  { group: 'formStyles', option: 'fontSize', property: '--pl-form-font-size', fallback: '14px' },
  { group: 'formStyles', option: 'borderWidth', property: '--pl-form-border-width', fallback: '1px' },
  { group: 'formStyles', option: 'borderRadius', property: '--pl-form-border-radius', fallback: '2px' },
  { group: 'paymentButtonStyles', option: 'fontColor', property: '--pl-button-color', fallback: '#ffffff' },
  { group: 'paymentButtonStyles', option: 'backgroundColor', property: '--pl-button-background', fallback: '#8ec03f' },
  { group: 'paymentButtonStyles', option: 'borderColor', property: '--pl-button-border-color', fallback: '#8ec03f' },
  { group: 'paymentButtonStyles', option: 'fontSize', property: '--pl-button-font-size', fallback: '16px' },
  { group: 'paymentButtonStyles', option: 'borderWidth', property: '--pl-button-border-width', fallback: '1px' },
  { group: 'paymentButtonStyles', option: 'borderRadius', property: '--pl-button-border-radius', fallback: '2px' },
];

const v = (property: string): string => {
  const entry = STYLE_PROPERTIES.find((p) => p.property === property);
  if (!entry) throw new Error(`unknown style property ${property}`);
  return `var(${property}, ${entry.fallback})`;
};

/** A phone: the sandbox badge's one line is shortened. */
export const NARROW_SCREEN = '(max-width: 640px)';

const SOURCE = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font-family: ${v('--pl-font-family')}; font-size: ${v('--pl-form-font-size')}; line-height: 1.45; color: #1f2533; background: ${v('--pl-background')}; }
html.pl-waiting body { visibility: hidden; }
a { color: ${v('--pl-primary')}; }
.pl-banner { background: #fff6d6; border-bottom: 2px solid ${v('--pl-warning')}; padding: 10px 16px; font-size: 13px; }
/* The badge: one line; its card list opens over the page below it, never pushing the form down. */
.pl-badge { position: relative; padding: 8px 16px; }
.pl-badge summary { cursor: pointer; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.pl-badge summary:focus { outline: 3px solid ${v('--pl-accent')}; outline-offset: 2px; }
.pl-card-panel { position: absolute; z-index: 10; left: 0; right: 0; top: 100%; max-height: 70vh; overflow: auto; padding: 4px 16px 12px; background: #fff6d6; border-bottom: 2px solid ${v('--pl-warning')}; box-shadow: 0 8px 16px rgba(31, 37, 51, .18); }
.pl-skip { position: absolute; left: 8px; top: 4px; z-index: 20; padding: 6px 10px; background: #fff; color: ${v('--pl-primary')}; border: 2px solid ${v('--pl-primary')}; border-radius: 3px; transform: translateY(-200%); }
.pl-skip:focus { transform: none; }
.pl-banner-short { display: none; }
.pl-banner:not([open]) .pl-when-open, .pl-banner[open] .pl-when-closed { display: none; }
@media ${NARROW_SCREEN} {
  .pl-banner-long { display: none; }
  .pl-banner-short { display: inline; }
}
.pl-banner strong { text-transform: uppercase; letter-spacing: .05em; }
.pl-card-groups { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 8px 16px; margin-top: 8px; }
.pl-card-group { min-width: 0; }
.pl-card-title { margin: 0 0 4px; font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; color: #5c4a00; }
.pl-card-none { margin: 0; font-size: 12px; color: #5c4a00; }
.pl-cards { list-style: none; margin: 0; padding: 2px; display: flex; flex-wrap: wrap; gap: 6px; }
.pl-cards li { margin: 0; }
.pl-card-pick { font: inherit; font-size: 12px; max-width: 100%; text-align: left; overflow-wrap: anywhere; border: 1px solid #d9c98a; background: #fff; border-radius: 3px; padding: 3px 7px; cursor: pointer; color: #3b3b3b; }
.pl-card-pick:hover, .pl-card-pick:focus { border-color: ${v('--pl-primary')}; outline: none; box-shadow: 0 0 0 2px rgba(33, 61, 143, .2); }
.pl-card-pick code { font-family: Menlo, Consolas, monospace; }
.pl-main { max-width: 480px; margin: 24px auto; padding: 0 16px; }
.pl-panel { background: ${v('--pl-form-container-background')}; border: ${v('--pl-form-border-width')} solid #dde1ec; border-radius: ${v('--pl-form-border-radius')}; box-shadow: 0 2px 10px rgba(31, 37, 51, .06); padding: 24px; }
.pl-head { display: flex; align-items: center; justify-content: space-between; gap: 12px; margin-bottom: 18px; }
.pl-logo { max-height: 48px; max-width: 160px; }
.pl-merchant { margin: 0; font-size: 1.1em; font-weight: 600; color: ${v('--pl-primary')}; }
.pl-amount { margin: 2px 0 0; font-size: 1.7em; font-weight: 700; color: #1f2533; }
.pl-ref { margin: 0; color: #6b7385; font-size: .9em; }
.pl-brands { list-style: none; margin: 0 0 16px; padding: 0; display: flex; flex-wrap: wrap; gap: 6px; }
.pl-brand { font-size: 11px; font-weight: 600; border: 1px solid ${v('--pl-secondary')}; color: ${v('--pl-primary')}; border-radius: 3px; padding: 2px 6px; background: #fff; }
.pl-brand.pl-active { border-color: ${v('--pl-primary')}; color: #fff; background: ${v('--pl-primary')}; }
.pl-field { margin-bottom: 14px; }
.pl-row { display: flex; gap: 10px; }
.pl-fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
/* Expiry month, year and CVV: labels on one grid row, boxes on the next, so a label that wraps on a phone
   moves no box out of line with the others. */
.pl-row.pl-fieldset { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); column-gap: 10px; margin-bottom: 14px; }
.pl-row > .pl-field { display: contents; }
.pl-row label { grid-row: 1; align-self: end; }
.pl-row input { grid-row: 2; }
.pl-row .pl-field-error { grid-row: 3; }
.pl-row > .pl-field:nth-of-type(1) > * { grid-column: 1; }
.pl-row > .pl-field:nth-of-type(2) > * { grid-column: 2; }
.pl-row > .pl-field:nth-of-type(3) > * { grid-column: 3; }
.pl-row.pl-fieldset > .pl-field > .pl-field-error { grid-column: 1 / -1; }
.pl-row.pl-fieldset #pl-error-cvv { grid-row: 4; }
.pl-root { padding: 1px 0; }
.pl-row .pl-field { flex: 1; }
label { display: block; font-weight: 600; margin-bottom: 4px; }
input[type=text], input[type=password], select { width: 100%; font: inherit; padding: 9px 10px; color: #1f2533; background: ${v('--pl-form-background')}; border: ${v('--pl-form-border-width')} solid #b9c0d3; border-radius: ${v('--pl-form-border-radius')}; }
input:focus, select:focus { outline: none; border-color: ${v('--pl-accent')}; box-shadow: 0 0 0 3px rgba(144, 158, 199, .35); }
input[aria-invalid=true] { border-color: ${v('--pl-error')}; }
/* Error text in a darker red than errorThemeColor's default (#e6493a is 3.9:1 on white, under WCAG AA's 4.5:1); the theme colour marks the fields. */
.pl-field-error { color: #b42318; font-size: .9em; margin: 4px 0 0; min-height: 0; }
.pl-field-error:empty { display: none; }
.pl-check { display: flex; gap: 8px; align-items: flex-start; font-weight: 400; }
.pl-check input { margin-top: 3px; }
.pl-subtitle { font-size: 1rem; margin: 16px 0 8px; }
.pl-saved-cards { list-style: none; padding: 0; margin: 0 0 12px; display: grid; gap: 6px; }
.pl-muted { opacity: 0.75; }
.pl-notice { margin: 0 0 14px; padding: 8px 10px; border-left: 4px solid ${v('--pl-info')}; background: #eef9fc; font-size: .95em; }
.pl-alert { margin: 0 0 16px; padding: 10px 12px; border-left: 4px solid ${v('--pl-error')}; background: #fdeeed; color: #7a1d14; }
.pl-alert:empty { display: none; }
.pl-alert.pl-info { border-left-color: ${v('--pl-info')}; background: #eef9fc; color: #124a59; }
.pl-actions { display: flex; flex-direction: column; gap: 8px; margin-top: 18px; }
.pl-pay { width: 100%; cursor: pointer; font: inherit; font-weight: 600; padding: 11px 14px; font-size: ${v('--pl-button-font-size')}; color: ${v('--pl-button-color')}; background: ${v('--pl-button-background')}; border: ${v('--pl-button-border-width')} solid ${v('--pl-button-border-color')}; border-radius: ${v('--pl-button-border-radius')}; }
.pl-pay:focus { outline: 3px solid ${v('--pl-accent')}; outline-offset: 2px; }
.pl-pay[disabled] { opacity: .6; cursor: progress; }
.pl-decline { width: 100%; cursor: pointer; font: inherit; padding: 9px 14px; color: ${v('--pl-primary')}; background: transparent; border: 1px solid ${v('--pl-secondary')}; border-radius: ${v('--pl-button-border-radius')}; }
.pl-decline:focus { outline: 3px solid ${v('--pl-accent')}; outline-offset: 2px; }
.pl-hidden { display: none !important; }
.pl-state h1, .pl-simulator h1 { font-size: 1.4em; margin: 0 0 8px; }
/* A ring in the theme colour around a dark sign: white on the success, warning or error defaults would be 1.6-3.9:1. */
.pl-state .pl-icon { width: 44px; height: 44px; border-radius: 50%; display: flex; align-items: center; justify-content: center; font-size: 24px; font-weight: 700; color: #1f2533; background: #fff; border: 4px solid ${v('--pl-secondary')}; margin-bottom: 12px; }
.pl-state.pl-good .pl-icon { border-color: ${v('--pl-success')}; }
.pl-state.pl-bad .pl-icon { border-color: ${v('--pl-error')}; }
.pl-state.pl-warn .pl-icon { border-color: ${v('--pl-warning')}; }
.pl-code { font-family: Menlo, Consolas, monospace; letter-spacing: .3em; font-size: 1.3em; text-align: center; }
.pl-foot { margin: 14px 0 0; text-align: center; color: #5f6677; font-size: 12px; }
.pl-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/**
 * Adds, before each declaration that uses `var(--x, default)`, the same declaration with the defaults in
 * place, for browsers without custom properties. Defaults here contain no parentheses, which the pattern
 * relies on.
 */
export function withFallbacks(css: string): string {
  return css.replace(/([\w-]+):\s*([^;{}]*var\(--[^;{}]*?);/g, (whole, prop: string, value: string) => {
    const plain = value.replace(/var\(--[\w-]+,\s*([^()]*)\)/g, '$1');
    return `${prop}: ${plain}; ${whole}`;
  });
}

/**
 * The embedded 3-D Secure challenge in the window size the merchant asked for (EMV `challengeWindowSize`,
 * domain/three-d-secure.ts): the page's column at most that wide, at least that high; `05` fills the window.
 */
const WINDOW_CSS = Object.entries(CHALLENGE_WINDOW_SIZES)
  .map(([code, size]) =>
    size === 'full'
      ? `body[${PAGE_MARKS.window}="${code}"] .pl-main { max-width: none; }`
      : `body[${PAGE_MARKS.window}="${code}"] .pl-main { max-width: ${size.width}px; min-height: ${size.height}px; margin: 0 auto; padding: 0 8px; }`,
  )
  .join('\n');

/** The stylesheet as served. */
export const HOSTED_CSS = withFallbacks(SOURCE).trim() + '\n' + WINDOW_CSS + '\n';
