/**
 * The sandbox bank page for bank redirect payments: `GET /gateway/v3/web/bank/{paymentId}` shows approve
 * and cancel buttons, `POST` settles the payment (0 Ok or -10) and shows the outcome.
 */
import { formatAmount } from '../domain/money.js';
import { notFound } from '../errors.js';
import { readForm } from '../http/request.js';
import { refuseCrossSite } from '../http/guards.js';
import { Reply, type Route, type RouteRequest } from '../http/router.js';
import { renderBankPage } from '../../pages/bank-page.js';
import { bankPending, settleBankPayment } from '../services/bank.js';
import { bankPath } from '../domain/paths.js';
import type { PaymentRecord } from '../domain/records.js';

function bankPayment(req: RouteRequest): PaymentRecord {
  const payment = req.sandbox.payments.get(req.params.paymentId!);
  if (!payment || payment.bank === undefined) throw notFound('Bank payment');
  return payment;
}

function page(payment: PaymentRecord): Reply {
  const pending = bankPending(payment);
  return Reply.html(
    200,
    renderBankPage({
      paymentId: payment.id,
      amount: formatAmount(payment.amount, payment.currencyCode),
      issuerId: payment.bank?.issuerId ?? '',
      state: pending ? 'form' : 'result',
      outcome: pending ? undefined : `The payment is settled: ${payment.description} (result ${payment.result}).`,
      action: bankPath(payment.id),
    }),
    { 'cache-control': 'no-store' },
  );
}

function showBank(req: RouteRequest) {
  return page(bankPayment(req));
}

async function submitBank(req: RouteRequest) {
  const { sandbox } = req;
  // The form has no one-time token (unlike the card form), so a post from another site is refused: it
  // could otherwise approve or cancel a payment whose id it learned.
  refuseCrossSite(sandbox, req.event);
  const payment = bankPayment(req);
  const form = await readForm(req.event.node.req);
  const action = form.get('action');
  // Anything but the two buttons changes nothing and shows the page again.
  if (action === 'approve' || action === 'cancel') {
    const how = action === 'approve' ? 'approved' : 'cancelled';
    await sandbox.store.write(() => settleBankPayment(sandbox, sandbox.payments.get(payment.id) ?? payment, how));
  }
  return Reply.redirect(bankPath(payment.id), 303);
}

export const bankRoutes: Route[] = [
  { method: 'GET', path: '/gateway/v3/web/bank/:paymentId', kind: 'page', handler: showBank },
  { method: 'POST', path: '/gateway/v3/web/bank/:paymentId', kind: 'page', handler: submitBank },
];
