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
import type { Parent } from '../domain/lifecycle.js';
import type { PaymentRecord } from '../domain/records.js';
import type { Settlement } from './bank.js';
import {
  hostedKindOf,
  hostedParent,
  hostedPayment,
  issueFormToken,
  openChallenge,
  paidPaymentId,
  parentOfPayment,
  playCustomerNow,
  postCardForm,
  postChallenge,
  postPaymentForm,
  pressSimulatorButton,
  simulatorPayment,
} from './hosted.js';
import type { CardFormPost, ChallengePost, CustomerPlay } from './submission.js';

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
    /** The customer's pages: found by their id (the capability in the URL), whatever the business. */
    hosted: {
      parent: (kind: Parent['kind'], id: string) => hostedParent(deps, kind, id),
      parentOfPayment: (payment: PaymentRecord) => parentOfPayment(deps, payment),
      payment: (paymentId: string) => hostedPayment(deps, paymentId),
      paidPaymentId: (parent: Parent) => paidPaymentId(deps, parent),
      openChallenge: (parent: Parent) => openChallenge(deps, parent),
      issueFormToken: (target: string) => issueFormToken(deps, target),
      postCardForm: (parent: Parent, post: CardFormPost) => postCardForm(deps, parent, post),
      postChallenge: (payment: PaymentRecord, post: ChallengePost) => postChallenge(deps, payment, post),
      postPaymentForm: (payment: PaymentRecord, post: CardFormPost) => postPaymentForm(deps, payment, post),
      playCustomer: (kind: Parent['kind'], id: string, play: (parent: Parent) => CustomerPlay) => playCustomerNow(deps, kind, id, play),
      simulatorPayment: (flow: 'bank' | 'wallet', paymentId: string) => simulatorPayment(deps, flow, paymentId),
      pressSimulatorButton: (payment: PaymentRecord, how: Settlement, chosenIssuerId?: string) => pressSimulatorButton(deps, payment, how, chosenIssuerId),
      kindOf: (id: string) => hostedKindOf(deps, id),
    },
  };
}

/** Every service of one sandbox, as handlers see them. */
export type Services = ReturnType<typeof createServices>;
