/**
 * The hosted card form of a card redirect payment (docs/hosted-pages.md, "The card form of a redirect
 * payment"): `GET {api}/web/payments/{paymentId}` shows the same card form, test-card banner and
 * 3-D Secure page as links and checkouts, for that one payment; `POST` charges it in place (one attempt)
 * and sends the browser to the payment's `returnUrl?id=<paymentId>`. A payment that no longer waits for a
 * card shows how it ended, with the way back to the shop.
 */
import { brandById } from '../domain/brands.js';
import { formatAmount } from '../domain/money.js';
import { challengePath, paymentFormPath, paymentReturnUrl } from '../domain/paths.js';
import type { PaymentRecord } from '../domain/records.js';
import { notFound } from '../errors.js';
import { readForm } from '../http/request.js';
import type { Route, RouteRequest, SandboxView } from '../http/router.js';
import { renderCardFormPage, renderStatePage, type OrderSummary, type StatePageView } from '../../pages/hosted/index.js';
import { awaitingCard, type KeptValues } from '../services/submission.js';
import { CARD_FIELDS, FRAMED_ON, formTarget } from '../domain/hosted-form.js';
import { cardFormPost, isEntryPost, nowParts, page, seeOther, toMerchant } from './hosted.js';

/** The card redirect payment with this id, whatever its business: the page's id is its capability. */
function loadPayment(req: RouteRequest): PaymentRecord {
  const payment = req.sandbox.services.hosted.payment(req.params.paymentId!);
  if (payment.flow !== 'card') throw notFound('Payment');
  return payment;
}

function orderOf(payment: PaymentRecord): OrderSummary {
  return { merchant: payment.businessId, amountText: formatAmount(payment.amount, payment.currencyCode), trackingCode: payment.trackingCode };
}

async function formPage(sandbox: SandboxView, payment: PaymentRecord, options: { error?: string; values?: KeptValues; status?: number } = {}) {
  const formToken = sandbox.services.hosted.issueFormToken(formTarget('payment', payment.id));
  const brand = brandById(payment.brandId);
  return page(
    options.status ?? 200,
    renderCardFormPage({
      ...orderOf(payment),
      kind: 'payment',
      action: paymentFormPath(payment.id),
      formToken,
      brands: brand ? [{ id: brand.id, name: brand.name }] : [],
      tokenize: payment.tokenize ? 'TRUE' : 'FALSE',
      error: options.error,
      values: options.values,
      now: nowParts(sandbox),
    }),
  );
}

/** How a payment that no longer waits for a card ended. */
function endedView(payment: PaymentRecord, alert?: string): StatePageView {
  const paid = payment.result === 0;
  const returnUrl = payment.returnUrl !== undefined ? paymentReturnUrl(payment.returnUrl, payment.id) : undefined;
  return {
    state: paid ? 'paid' : 'declined',
    title: paid ? 'This has already been paid' : 'This payment was not approved',
    message: paid
      ? 'The payment was approved. Nothing more is needed.'
      : `It ended with ${payment.result} ${payment.description}${payment.error ? `: ${payment.error.message}` : '.'} Ask the shop for a new payment to try again.`,
    tone: paid ? 'good' : 'bad',
    order: orderOf(payment),
    alert,
    returnUrl,
  };
}

/** Whatever the customer should see of the payment now: the form, its 3-D Secure page, or how it ended. */
async function currentPage(sandbox: SandboxView, payment: PaymentRecord, alert?: string, status = 200) {
  if (awaitingCard(payment)) return formPage(sandbox, payment, { ...(alert !== undefined ? { error: alert } : {}), status });
  if (payment.result === 2) return seeOther(challengePath(payment.id));
  return page(status, renderStatePage(endedView(payment, alert)));
}

export const paymentFormRoutes: Route[] = [
  {
    route: 'hosted.payment',
    handler: (req) => currentPage(req.sandbox, loadPayment(req)),
  },
  {
    route: 'hosted.payment.submit',
    handler: async (req) => {
      const { sandbox } = req;
      const payment = loadPayment(req);
      const form = await readForm(req.event.node.req);
      if (isEntryPost(form)) return currentPage(sandbox, payment);
      const framed = form.get(CARD_FIELDS.framed) === FRAMED_ON;
      const outcome = await sandbox.services.hosted.postPaymentForm(payment, cardFormPost(form, false));
      const current = () => sandbox.services.hosted.payment(payment.id);
      switch (outcome.kind) {
        case 'redirect':
          return toMerchant(outcome.url, outcome.ending, framed);
        case 'challenge':
          return seeOther(outcome.url);
        case 'retry':
          return formPage(sandbox, current(), { error: outcome.reason, values: outcome.values });
        case 'closed':
          return currentPage(sandbox, outcome.payment, 'This payment was already completed; nothing was charged.', 400);
        case 'replay':
          if (outcome.outcome?.kind === 'redirect') return toMerchant(outcome.outcome.url, outcome.outcome.ending, framed);
          if (outcome.outcome?.kind === 'challenge') return seeOther(outcome.outcome.url);
          return seeOther(paymentFormPath(payment.id));
        case 'stale':
          return currentPage(
            sandbox,
            current(),
            'This form has expired or was not sent from this page, so nothing was charged. Please enter the card again.',
            400,
          );
      }
    },
  },
];
