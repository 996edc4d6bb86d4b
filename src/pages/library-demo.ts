/**
 * The demo merchant page (`/__sandbox/demo/{id}`): loads the versioned library from the sandbox's own
 * origin and embeds one link or checkout with custom styles, so a developer sees the embed working and
 * has a snippet to copy. It never reads the store; the route hands it a view model.
 */
import { PAGE_MARKS } from '../sandbox/domain/hosted-form.js';
import { html, jsonForScript } from './html.js';

export interface LibraryDemoView {
  id: string;
  kind: 'paymentlink' | 'checkout';
  /** Absolute URL of the versioned script. */
  scriptUrl: string;
  /** Its Subresource Integrity hash. */
  integrity: string;
  /** `PaymentLink` or `Checkout`. */
  globalName: string;
}

/** Styles the demo applies, also shown in the snippet: every group of docs/api.md changed at least once. */
export const DEMO_OPTIONS = {
  showDeclineButton: true,
  styles: {
    autoHeight: true,
    generalStyles: { primaryThemeColor: '#6b2fa3', backgroundColor: '#faf7ff', fontFamily: 'Georgia, serif' },
    formStyles: { borderRadius: '8px', fontSize: '15px' },
    paymentButtonStyles: { backgroundColor: '#6b2fa3', borderColor: '#6b2fa3', borderRadius: '20px', fontSize: '17px' },
    iframe: { width: '100%', height: '640px' },
  },
};

export function renderLibraryDemo(view: LibraryDemoView): string {
  const errorEvent = view.kind === 'checkout' ? 'checkout-error' : 'paymentlink-error';
  const snippet =
    `<div id="payment-form"></div>\n` +
    `<script src="${view.scriptUrl}"\n        integrity="${view.integrity}" crossorigin="anonymous"></script>\n` +
    `<script>\n  new ${view.globalName}(${JSON.stringify(view.id)}, 'payment-form', ${JSON.stringify(DEMO_OPTIONS, null, 2).replace(/\n/g, '\n  ')}).render();\n` +
    `  document.addEventListener('${errorEvent}', function (e) { console.log(e.detail.error); });\n</script>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>paylink sandbox: ${view.globalName} demo</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #eef0f4; color: #1d2433; }
  main { max-width: 720px; margin: 0 auto; padding: 24px; }
  .shop { background: #fff; border-radius: 8px; padding: 16px 24px; box-shadow: 0 1px 3px rgba(0,0,0,.1); }
  pre { background: #1d2433; color: #e8ecf4; padding: 12px; border-radius: 6px; overflow-x: auto; font-size: 12px; }
  #demo-error { color: #b00020; }
</style>
</head>
<body ${PAGE_MARKS.state}="demo">
<main>
  <h1>Demo shop</h1>
  <p>This page is a merchant page served by your paylink sandbox. It loads the browser library and embeds
  ${view.kind === 'checkout' ? 'checkout' : 'payment link'} <code>${view.id}</code> with custom styles.</p>
  <div class="shop">
    <div id="payment-form"></div>
    <p id="demo-error" role="alert" aria-live="polite"></p>
  </div>
  <h2>The code</h2>
  <pre><code>${snippet}</code></pre>
</main>
<script src="${view.scriptUrl}" integrity="${view.integrity}" crossorigin="anonymous"></script>
<script type="application/json" id="demo-config">${jsonForScript({ id: view.id, globalName: view.globalName, errorEvent, options: DEMO_OPTIONS })}</script>
<script>
  (function () {
    var config = JSON.parse(document.getElementById('demo-config').textContent);
    document.addEventListener(config.errorEvent, function (event) {
      var detail = (event.detail && event.detail.error) || {};
      document.getElementById('demo-error').textContent = (detail.message || 'The form reported an error.') + (detail.state ? ' (' + detail.state + ')' : '');
    });
    new window[config.globalName](config.id, 'payment-form', config.options).render();
  })();
</script>
</body>
</html>
`.value;
}
