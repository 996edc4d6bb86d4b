/**
 * The sandbox bank and wallet pages of redirect payments (docs/api.md, "Redirect payments"):
 * `GET {api}/web/bank/{paymentId}` (iDEAL, Sofort, Giropay, EPS) and `{api}/web/wallet/{paymentId}`
 * (PayPal) show approve, cancel and fail buttons; a `POST` of a button settles the payment (0 Ok, -10 or -2)
 * and sends the browser to the payment's `returnUrl?id=<paymentId>`, or back to the page, which then shows
 * the outcome, when it has none. A `POST` without a button (a wallet's `redirect`, posted with its `fields`
 * from the merchant's page) shows the page.
 */
import { brandById } from '../domain/brands.js';
import { formatAmount } from '../domain/money.js';
import { readForm } from '../http/request.js';
import { refuseCrossSite } from '../http/guards.js';
import { Reply, type Route, type RouteRequest } from '../http/router.js';
import { renderBankPage } from '../../pages/bank-page.js';
import { bankPending, type Settlement } from '../services/bank.js';
import { paymentReturnUrl, simulatorPath } from '../domain/paths.js';
import { page } from './hosted.js';
import type { PaymentRecord } from '../domain/records.js';
import { IDEAL_BANKS, idealBankOf } from '../domain/ideal-banks.js';

/** iDEAL's brand id: the customer chooses the bank on the page when the merchant sent no issuer. */
const IDEAL = 3010;

/** The buttons and what each does. */
const SETTLEMENT_OF_BUTTON: Record<string, Settlement> = { approve: 'approved', cancel: 'cancelled', fail: 'failed', decline: 'declined' };

function loader(flow: 'bank' | 'wallet') {
  return (req: RouteRequest): PaymentRecord => {
    return req.sandbox.services.hosted.simulatorPayment(flow, req.params.paymentId!);
  };
}

function returnUrlOf(payment: PaymentRecord): string | undefined {
  return payment.returnUrl !== undefined ? paymentReturnUrl(payment.returnUrl, payment.id) : undefined;
}

/** The page with the hosted pages' headers (their CSP allows their stylesheet and script, nothing inline). */
function bankPage(flow: 'bank' | 'wallet', payment: PaymentRecord): Reply {
  const pending = bankPending(payment);
  return page(
    200,
    renderBankPage({
      paymentId: payment.id,
      kind: flow,
      brandName: brandById(payment.brandId)?.name ?? 'the bank',
      merchant: payment.businessId,
      amountText: formatAmount(payment.amount, payment.currencyCode),
      trackingCode: payment.trackingCode,
      issuerId: payment.bank?.issuerId,
      bankLabel: idealBankOf(payment.bank?.issuerId)?.label,
      banks: pending && payment.brandId === IDEAL && payment.bank?.issuerId === undefined ? IDEAL_BANKS : undefined,
      state: pending ? 'form' : 'result',
      outcome: pending ? undefined : `The payment is settled: ${payment.description} (result ${payment.result}).`,
      approved: payment.result === 0,
      action: simulatorPath(flow, payment.id),
      returnUrl: pending ? undefined : returnUrlOf(payment),
    }),
  );
}

function routes(flow: 'bank' | 'wallet'): Route[] {
  const load = loader(flow);
  return [
    { route: flow === 'wallet' ? 'wallet.page' : 'bank.page', handler: (req) => bankPage(flow, load(req)) },
    {
      route: flow === 'wallet' ? 'wallet.submit' : 'bank.submit',
      handler: async (req) => {
        const { sandbox } = req;
        const payment = load(req);
        const form = await readForm(req.event.node.req);
        const action = form.get('action') ?? '';
        // Own keys only: `__proto__` or `constructor` would otherwise find Object.prototype's members.
        const how = Object.hasOwn(SETTLEMENT_OF_BUTTON, action) ? SETTLEMENT_OF_BUTTON[action] : undefined;
        // Entering by a form post (a wallet's redirect, from the merchant's page) changes nothing.
        if (how === undefined) return bankPage(flow, payment);
        // The buttons have no one-time token (unlike the card form), so a post from another site is
        // refused: it could otherwise settle a payment whose id it learned.
        refuseCrossSite(sandbox, req.event);
        const chosen = form.get('issuerId') ?? undefined;
        const settled = await sandbox.services.hosted.pressSimulatorButton(payment, how, chosen);
        // Back to the merchant once settled (also for a second press after it was settled elsewhere).
        return Reply.redirect(returnUrlOf(settled) ?? simulatorPath(flow, payment.id), 303);
      },
    },
  ];
}

export const bankRoutes: Route[] = [...routes('bank'), ...routes('wallet')];
