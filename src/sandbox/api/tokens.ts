import type { Route } from '../router.js';

// Tokens (issue 3) register their routes here.
export const tokenRoutes: Route[] = [];
