/**
 * Helpers for the browser-library tests: a merchant site on its own local origin (node:http, port 0) and
 * a stand-in hosted page that speaks the page side of the iframe protocol under the test's control.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIBRARY_VERSION } from '../../src/sandbox/web/library.js';

export interface LocalSite {
  url: string;
  /** HTML answered for a path (exact match, query ignored); anything else is a 404. */
  pages: Map<string, string>;
  close(): Promise<void>;
}

/** A site on 127.0.0.1 and a free port: another origin than the sandbox's. */
export async function startSite(extra?: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<LocalSite> {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    if (extra?.(req, res)) return;
    const path = (req.url ?? '/').split('?')[0]!;
    const page = pages.get(path);
    res.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? '<!doctype html><title>404</title><p>not found</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The URL of a versioned library script on a sandbox. */
export function scriptUrl(sandboxUrl: string, kind: 'paymentlink' | 'checkout'): string {
  return `${sandboxUrl}/${kind}/${LIBRARY_VERSION}/${kind}-library.js`;
}

/**
 * A merchant page: loads the scripts from the sandbox, holds containers `#link` and `#checkout`, then runs
 * `script` (plain ES5, it may use `PaymentLink`/`Checkout`). Error events are collected in `window.errors`.
 */
export function merchantPage(sandboxUrl: string, script: string, body = ''): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Merchant</title>
<style>body { font-family: sans-serif; margin: 16px; } .box { width: 480px; }</style></head>
<body>
<h1>Merchant shop</h1>
${body}
<div class="box" id="link"></div>
<div class="box" id="checkout"></div>
<script src="${scriptUrl(sandboxUrl, 'paymentlink')}"></script>
<script src="${scriptUrl(sandboxUrl, 'checkout')}"></script>
<script>
  window.errors = [];
  document.addEventListener('paymentlink-error', function (e) { window.errors.push({ type: e.type, detail: e.detail }); });
  document.addEventListener('checkout-error', function (e) { window.errors.push({ type: e.type, detail: e.detail }); });
  ${script}
</script>
</body></html>`;
}

/**
 * The page side of the protocol, driven by the test: records every message from its parent (with its
 * origin) in `window.received`, applies `styles.generalStyles.backgroundColor`, and exposes
 * `window.post(message)` which posts to the parent with target origin `*` as the hosted page does.
 */
export const STAND_IN_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>stand-in hosted page</title></head>
<body data-paylink-state="form" style="margin:0">
<p id="content">stand-in form</p>
<script>
  window.received = [];
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    window.received.push({ origin: event.origin, data: event.data });
    var styles = event.data && event.data.styles;
    if (styles) document.body.style.backgroundColor = styles.generalStyles.backgroundColor;
  });
  window.post = function (message) { window.parent.postMessage(message, '*'); };
</script>
</body></html>`;

/** A stand-in hosted-page site: answers the stand-in page for every link and checkout path. */
export async function startStandInPages(): Promise<LocalSite> {
  return startSite((req, res) => {
    if (!/^\/gateway\/v3\/web\/(paymentlinks|checkouts)\/[^/?]+/.test(req.url ?? '')) return false;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(STAND_IN_PAGE);
    return true;
  });
}

/** A page on a third origin that posts protocol-shaped messages to its parent (an attacker's frame). */
export const FOREIGN_PAGE = `<!doctype html><html><body><script>
  window.post = function (message) { window.parent.postMessage(message, '*'); };
</script></body></html>`;
