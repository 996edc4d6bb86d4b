/**
 * Routes of the customer-facing side: hosted pages (links, checkouts, card redirect payments), the bank and
 * wallet simulator, the browser library. Rendering lives in `src/pages` (which never reads the store); these
 * handlers load records and hand view models to it.
 */
import type { ApiError } from '../errors.js';
import { Reply, type Route, type SandboxView } from '../http/router.js';
import { libraryRoutes } from './library.js';
import { bankRoutes } from './bank.js';
import { hostedErrorPage, hostedRoutes } from './hosted.js';
import { paymentFormRoutes } from './payment-form.js';

/**
 * Browsers ask every page's origin for `/favicon.ico`: answered with no content (and cached for a day), so
 * no page of the sandbox shows a 404 in the console.
 */
const faviconRoute: Route = {
  route: 'favicon',
  handler: () => new Reply(204, null, { 'cache-control': 'public, max-age=86400' }),
};

export const webRoutes: Route[] = [...libraryRoutes, ...bankRoutes, ...hostedRoutes, ...paymentFormRoutes, faviconRoute];

/**
 * The HTML answer for a failure on a page route: the hosted pages' 404 page for an unknown id, their error
 * page otherwise (same layout, headers and `{error}` message to a framing library).
 */
export function renderErrorPage(_sandbox: SandboxView, error: ApiError): Reply {
  return hostedErrorPage(error);
}
