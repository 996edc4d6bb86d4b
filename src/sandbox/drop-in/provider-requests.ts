/**
 * Hosts mode (docs/drop-in.md): a request whose Host is one of the provider's hosts is served as the
 * provider served it, on any of the sandbox's listeners. While such a request is answered, the sandbox's
 * base URL is the provider's API host as the request reached it, so every address in the answer (links'
 * and checkouts' `redirect.url`, 3-D Secure, bank and wallet pages, the library's target) is at the
 * provider's addresses; the provider's own path forms that differ from the sandbox's (the payment-link
 * page, the library on the CDN) are rewritten here to the sandbox's routes. Requests under any other Host
 * go to the app untouched.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostedPath } from '../domain/paths.js';
import { PROVIDER_HOSTS, PROVIDER_LIBRARY_PATH, providerHost, type ProviderHost } from '../domain/provider-hosts.js';
import { libraryPath } from '../web/library-scripts.js';

/** The API host a provider host's pages belong to: the pages and the CDN library target the staging API. */
function apiHostOf(host: ProviderHost): string {
  if (host.role === 'api-live' || host.role === 'api-staging') return host.name;
  return PROVIDER_HOSTS.find((h) => h.role === 'api-staging')!.name;
}

/** The sandbox route of a provider path form, when it differs from the sandbox's own. */
function sandboxPathOf(host: ProviderHost, url: string): string | undefined {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  if (host.role === 'cdn' && path === PROVIDER_LIBRARY_PATH) return libraryPath('checkout') + query;
  const page = /^\/(paymentlinks|checkouts)\/([^/]+)\/?$/i.exec(path);
  if (host.role === 'checkout-staging' && page !== null) {
    return hostedPath(page[1]!.toLowerCase() === 'paymentlinks' ? 'link' : 'checkout', decodeURIComponent(page[2]!)) + query;
  }
  return undefined;
}

/**
 * One sandbox's requests under the provider's hosts: its listeners answer them as the provider, and while
 * one is answered {@link baseUrl} is the provider's API host as the request reached it. The context lives in
 * this sandbox's own AsyncLocalStorage (made by its composition root), so nothing is kept at module level
 * and two sandboxes in one process never read each other's.
 */
export class ProviderRequests {
  private readonly origin = new AsyncLocalStorage<string>();

  /** The base URL of the provider request being answered, if the request being answered is one. */
  baseUrl(): string | undefined {
    return this.origin.getStore();
  }

  /**
   * The app's listener, answering requests under a provider Host as the provider; `secure` says whether the
   * listener is TLS (the scheme of the addresses handed out).
   */
  listener(listener: (req: IncomingMessage, res: ServerResponse) => void, secure: boolean): (req: IncomingMessage, res: ServerResponse) => void {
    // Clients send the same Host on every request: its verdict is kept for the next one.
    let lastHeader: string | undefined;
    let lastHost: ProviderHost | undefined;
    return (req, res) => {
      const header = req.headers.host;
      if (header !== lastHeader) {
        lastHeader = header;
        lastHost = providerHost(header);
      }
      const host = lastHost;
      if (host === undefined) {
        listener(req, res);
        return;
      }
      const port = /:(\d+)$/.exec(req.headers.host!.trim())?.[1];
      const scheme = secure ? 'https' : 'http';
      const base = `${scheme}://${apiHostOf(host)}${port === undefined || port === (secure ? '443' : '80') ? '' : `:${port}`}`;
      const rewritten = sandboxPathOf(host, req.url ?? '/');
      if (rewritten !== undefined) req.url = rewritten;
      this.origin.run(base, () => listener(req, res));
    };
  }
}
