import type { Route } from '../http/router.js';
import { checkoutRoutes } from './checkouts.js';
import { creditRoutes } from './credits.js';
import { linkRoutes } from './links.js';
import { paymentRoutes } from './payments.js';
import { tokenRoutes } from './tokens.js';

/** The provider's API v3, as the sandbox serves it. */
export const apiRoutes: Route[] = [...linkRoutes, ...checkoutRoutes, ...paymentRoutes, ...creditRoutes, ...tokenRoutes];
