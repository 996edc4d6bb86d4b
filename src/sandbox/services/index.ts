/**
 * The services a sandbox hands its handlers: each service function bound once to the part of the
 * sandbox it states it needs (`Sandbox` calls {@link createServices} in its constructor). Handlers
 * (`api/`, `web/`, `admin/`) reach records only through these.
 */
import type { FollowUpRequest } from './follow-ups.js';
import { followUp } from './follow-ups.js';
import { createCredit, findCredits, getCredit, type NewCredit } from './credits.js';
import type { Deps } from './deps.js';
import { createPayment, findPayments, getPayment, type NewPayment } from './payments.js';

export function createServices(deps: Deps) {
  return {
    payments: {
      create: (payment: NewPayment) => createPayment(deps, payment),
      get: (businessId: string, paymentId: string) => getPayment(deps, businessId, paymentId),
      byTrackingCode: (businessId: string, trackingCode: string) => findPayments(deps, businessId, trackingCode),
      followUp: (req: FollowUpRequest) => followUp(deps, req),
    },
    credits: {
      create: (credit: NewCredit) => createCredit(deps, credit),
      get: (businessId: string, creditId: string) => getCredit(deps, businessId, creditId),
      byTrackingCode: (businessId: string, trackingCode: string) => findCredits(deps, businessId, trackingCode),
    },
  };
}

/** Every service of one sandbox, as handlers see them. */
export type Services = ReturnType<typeof createServices>;
