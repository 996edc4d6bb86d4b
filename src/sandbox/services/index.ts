/**
 * The services a sandbox hands its handlers, made one way: each service function bound once to the
 * sandbox's `Deps` (the composition root, context.ts, calls {@link createServices} once). Handlers (`api/`,
 * `web/`, `admin/`) receive these and a few facts, never a repository (http/router.ts's `RouteRequest`).
 */
import { createCheckout, findCheckout, getCheckout, type NewCheckout } from './checkouts.js';
import { createBankCredit, createCredit, findCredit, getCredit, settleDueCredits, waitingCredits, type NewBankCredit, type NewCredit } from './credits.js';
import type { Deps } from './deps.js';
import { followUp, type FollowUpRequest } from './follow-ups.js';
import { cancelLink, copyLink, createLink, findLink, getLink, type NewLink } from './links.js';
import { createPayment, findPayments, getPayment, paymentsByIds, type NewPayment } from './payments.js';
import { createToken, getToken, type NewToken } from './token-service.js';
import type { Parent } from '../domain/lifecycle.js';
import type { CheckoutRecord, PaymentRecord } from '../domain/records.js';
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
  savedCards,
  simulatorPayment,
} from './hosted.js';
import type { CardFormPost, ChallengePost, CustomerPlay } from './submission.js';
import { followUpsOf, kindOfId, listRecords, paymentsOf, paymentsWithToken, recordById, type PageQuery, type ResourceTable } from './admin-browse.js';
import { changeClock, clockView, type ClockChange } from './admin-clock.js';
import { resetBusiness, resetSandbox } from './admin-reset.js';
import type { AdviceOptions, KeptTraffic } from './advisor.js';
import { addEndpoint, committedEvent, removeEndpoint, resend, sendCustomEvent, seqBefore } from './admin-webhooks.js';
import type { EventRow } from '../domain/webhook-records.js';
import { storageSizes } from './storage.js';
import { deleteSnapshot, listSnapshots, restoreSnapshot, saveSnapshot } from './admin-snapshots.js';
import type { EventFilter } from '../store/events.js';
import type { FaultRuleInput } from './faults.js';
import type { EventService } from './events.js';

export function createServices(deps: Deps) {
  // What a service keeps in memory between calls lives here, one per sandbox: nothing is module-level.
  // The advisor (its checks and their reader) is imported when advice is first asked for.
  let traffic: KeptTraffic | undefined;
  return {
    /** The sandbox's now (the business clock, which the admin API moves). */
    now: () => deps.clock.now(),
    links: {
      create: (link: NewLink) => createLink(deps, link),
      cancel: (businessId: string, linkId: string) => cancelLink(deps, businessId, linkId),
      copy: (linkId: string) => copyLink(deps, linkId),
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
      createToBank: (credit: NewBankCredit) => createBankCredit(deps, credit),
      get: (businessId: string, creditId: string) => getCredit(deps, businessId, creditId),
      /** One credit (the one holding the code, else the latest), as the provider answered this lookup. */
      byTrackingCode: (businessId: string, trackingCode: string) => findCredit(deps, businessId, trackingCode),
      /** Settles the SEPA credits due at `now` (default: the sandbox clock's now); see services/credits.ts. */
      settleDue: (now?: number) => settleDueCredits(deps, now),
      waiting: () => waitingCredits(deps),
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
      /** The saved cards a one-click checkout's form offers. */
      savedCards: (checkout: CheckoutRecord) => savedCards(deps, checkout),
      postCardForm: (parent: Parent, post: CardFormPost) => postCardForm(deps, parent, post),
      postChallenge: (payment: PaymentRecord, post: ChallengePost) => postChallenge(deps, payment, post),
      postPaymentForm: (payment: PaymentRecord, post: CardFormPost) => postPaymentForm(deps, payment, post),
      playCustomer: (kind: Parent['kind'], id: string, play: (parent: Parent) => CustomerPlay) => playCustomerNow(deps, kind, id, play),
      simulatorPayment: (flow: 'bank' | 'wallet', paymentId: string) => simulatorPayment(deps, flow, paymentId),
      pressSimulatorButton: (payment: PaymentRecord, how: Settlement, chosenIssuerId?: string) => pressSimulatorButton(deps, payment, how, chosenIssuerId),
      kindOf: (id: string) => hostedKindOf(deps, id),
    },
    /** What only an operator sees and does (the admin API, the dashboard): every business. */
    admin: {
      list: <K extends ResourceTable>(table: K, query?: PageQuery) => listRecords(deps, table, query),
      record: <K extends ResourceTable>(table: K, id: string) => recordById(deps, table, id),
      paymentsOf: (ids: readonly string[]) => paymentsOf(deps, ids),
      followUpsOf: (paymentId: string) => followUpsOf(deps, paymentId),
      paymentsWithToken: (token: string) => paymentsWithToken(deps, token),
      kindOfId: (id: string, businessId?: string) => kindOfId(deps, id, businessId),
      reset: () => resetSandbox(deps),
      /** Deletes one business's data only. */
      resetBusiness: (businessId: string) => resetBusiness(deps, businessId),
      clock: () => clockView(deps),
      changeClock: (change: ClockChange) => changeClock(deps, change),
      requestLog: () => deps.log,
      advice: async (options?: AdviceOptions) => {
        const { adviceFor, keptTraffic } = await import('./advisor.js');
        traffic ??= keptTraffic();
        return adviceFor(deps, traffic, options);
      },
      /** Sizes of every store and their bounds (`/__sandbox/health`, the dashboard). */
      storage: (withDisk?: boolean) => storageSizes(deps, withDisk),
    },
    /** Saved copies of the whole state (the admin API and the dashboard). */
    snapshots: {
      list: () => listSnapshots(deps),
      save: (name: string) => saveSnapshot(deps, name),
      restore: (name: string) => restoreSnapshot(deps, name),
      delete: (name: string) => deleteSnapshot(deps, name),
    },
    /** Webhook endpoints, events and deliveries, for the admin API and the dashboard. */
    webhooks: {
      addEndpoint: (input: Parameters<typeof addEndpoint>[1]) => addEndpoint(deps, input),
      removeEndpoint: (hookId: string) => removeEndpoint(deps, hookId),
      resend: (event: EventRow, hookId?: string) => resend(deps, event, hookId),
      sendCustom: (input: Parameters<typeof sendCustomEvent>[1]) => sendCustomEvent(deps, input),
      committedEvent: (id: string) => committedEvent(deps, id),
      seqBefore: (time: number) => seqBefore(deps, time),
      eventBySeq: (seq: number) => deps.eventStore.eventBySeq(seq),
      deliveriesOf: (eventSeq: number) => deps.eventStore.deliveriesOf(eventSeq),
      attemptsOf: (deliveryId: number) => deps.eventStore.attemptsOf(deliveryId),
      recentFindings: (limit?: number) => deps.eventStore.recentFindings(limit),
      /** The sandbox's webhook secret, its hookId (notifyUrl deliveries) and the signature header. */
      secret: () => deps.events.secret,
      hookId: () => deps.events.hookId,
      header: () => deps.webhookHeader,
      committedSeq: () => deps.events.committedSeq,
      list: (filter: EventFilter) => deps.events.list(filter),
      endpoints: (businessId?: string) => deps.events.endpoints(businessId),
      follow: (...args: Parameters<EventService['follow']>) => deps.events.follow(...args),
    },
    /** The API fault rules (docs/faults.md). */
    faults: {
      list: () => deps.faults.list(),
      add: (input: FaultRuleInput) => deps.faults.add(input),
      remove: (id: string) => deps.faults.remove(id),
      clear: () => deps.faults.clear(),
    },
  };
}

/** Every service of one sandbox, as handlers see them. */
export type Services = ReturnType<typeof createServices>;
