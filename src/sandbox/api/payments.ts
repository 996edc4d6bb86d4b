import type { Route } from '../router.js';

// Direct payments (issue 3) register their routes here.
export const paymentRoutes: Route[] = [];
