/**
 * The services a sandbox hands its handlers: each service function bound once to the part of the
 * sandbox it states it needs (`Sandbox` calls {@link createServices} in its constructor). Handlers
 * (`api/`, `web/`, `admin/`) reach records only through these.
 */
import { createCheckout, findCheckout, getCheckout, type NewCheckout } from './checkouts.js';
import { createCredit, findCredits, getCredit, type NewCredit } from './credits.js';
import type { Deps } from './deps.js';
import { followUp, type FollowUpRequest } from './follow-ups.js';
import { cancelLink, copyLink, createLink, findLink, getLink, type NewLink } from './links.js';
import { createPayment, findPayments, getPayment, paymentsByIds, type NewPayment } from './payments.js';
import { createToken, getToken, type NewToken } from './token-service.js';

export function createServices(deps: Deps) {
  return {
    links: {
      create: (link: NewLink) => createLink(deps, link),
      cancel: (businessId: string, linkId: string) => cancelLink(deps, businessId, linkId),
      copy: (linkId: string, durationMs: (text: string) => number) => copyLink(deps, linkId, durationMs),
      get: (businessId: string, linkId: string) => getLink(deps, businessId, linkId),
      byTrackingCode: (businessId: string, trackingCode: string) => findLink(deps, businessId, trackingCode),
    },
    checkouts: {
      create: (checkout: NewCheckout) => createCheckout(deps, checkout),
      get: (businessId: string, checkoutId: string) => getCheckout(deps, businessId, checkoutId),
      byTrackingCode: (businessId: string, trackingCode: string) => findCheckout(deps, businessId, trackingCode),
    },
    payments: {
      create: (payment: NewPayment) => createPayment(deps, payment),
      get: (businessId: string, paymentId: string) => getPayment(deps, businessId, paymentId),
      byTrackingCode: (businessId: string, trackingCode: string) => findPayments(deps, businessId, trackingCode),
      /** The attempts of a link or checkout, by their ids (oldest first). */
      byIds: (paymentIds: readonly string[]) => paymentsByIds(deps, paymentIds),
      followUp: (req: FollowUpRequest) => followUp(deps, req),
    },
    credits: {
      create: (credit: NewCredit) => createCredit(deps, credit),
      get: (businessId: string, creditId: string) => getCredit(deps, businessId, creditId),
      byTrackingCode: (businessId: string, trackingCode: string) => findCredits(deps, businessId, trackingCode),
    },
    tokens: {
      create: (token: NewToken) => createToken(deps, token),
      get: (businessId: string, token: string) => getToken(deps, businessId, token),
    },
  };
}

/** Every service of one sandbox, as handlers see them. */
export type Services = ReturnType<typeof createServices>;
