/**
 * Routes of the customer-facing side: hosted pages, the browser library, the dashboard. Rendering lives in
 * `src/pages` (which never reads the store); these handlers load records and hand view models to it.
 */
import type { Sandbox } from '../context.js';
import type { ApiError } from '../errors.js';
import { Reply, type Route } from '../router.js';
import { libraryRoutes } from './library.js';

export const webRoutes: Route[] = [...libraryRoutes];

/** The HTML answer for a failure on a page route (unknown id, expired link...). */
export function renderErrorPage(_sandbox: Sandbox, error: ApiError): Reply {
  const text = error.message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return Reply.html(error.httpStatus, `<!doctype html><meta charset="utf-8"><title>paylink sandbox</title><p>${text}</p>`);
}
