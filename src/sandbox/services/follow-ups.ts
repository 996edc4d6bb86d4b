/**
 * Capture, cancel and refund of a stored payment: the rules of `domain/follow-ups.ts` applied inside one
 * write, so two concurrent refunds can never move more than was captured.
 */
import type { Deps } from './deps.js';
import { applyFollowUp, followUpAmount, refundAgainstAuthorization, type FollowUpAction } from '../domain/follow-ups.js';
import type { PaymentRecord } from '../domain/records.js';
import { notFound } from '../errors.js';

export interface FollowUpRequest {
  businessId: string;
  paymentId: string;
  action: FollowUpAction;
  /** Parses the asked amount for the original's currency (undefined: none asked). */
  amountFor: (currencyCode: string) => number | undefined;
  trackingCode?: string | undefined;
}

/** Stores the follow-up and the original it moved; returns the follow-up's record. */
export function followUp(sandbox: Pick<Deps, 'store' | 'payments' | 'ids' | 'clock'>, req: FollowUpRequest): Promise<PaymentRecord> {
  return sandbox.store.write(() => {
    const original = sandbox.payments.getOwned(req.paymentId, req.businessId);
    if (!original) throw notFound('Payment');
    // A refund may name a capture: it refunds that capture, and counts against its authorization too.
    const authorization =
      req.action === 'REFUND' && original.action === 'CAPTURE' && original.parentPaymentId !== undefined
        ? sandbox.payments.get(original.parentPaymentId)
        : undefined;
    const amount = followUpAmount(original, req.action, req.amountFor, authorization);
    const ids = {
      id: sandbox.ids.uuid(),
      requestCode: sandbox.ids.requestCode(),
      approvalCode: original.card ? sandbox.ids.approvalCode() : '',
      trackingCode: req.trackingCode,
    };
    const moved = applyFollowUp(original, req.action, amount, ids, sandbox.clock.now());
    sandbox.payments.insert(moved.followUp);
    sandbox.payments.update(moved.original);
    if (authorization !== undefined) sandbox.payments.update(refundAgainstAuthorization(authorization, amount, sandbox.clock.now()));
    return moved.followUp;
  });
}
