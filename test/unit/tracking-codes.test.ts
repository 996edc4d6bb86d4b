import { describe, expect, it } from 'vitest';
import { paymentHoldsCode, trackedKindOfPayment, trackingCodeTaken } from '../../src/sandbox/domain/tracking-codes.js';

const direct = (action: string, result: number) => ({ action, result });

describe('the tracking-code rule', () => {
  it('puts credits and direct payments in namespaces of their own, follow-ups and link attempts in none', () => {
    expect(trackedKindOfPayment(direct('PAYMENT', 0))).toBe('payment');
    expect(trackedKindOfPayment(direct('AUTHORIZE', 0))).toBe('payment');
    expect(trackedKindOfPayment(direct('CREDIT', 0))).toBe('credit');
    expect(trackedKindOfPayment({ action: 'CAPTURE', result: 0, parentPaymentId: 'p1' })).toBeUndefined();
    expect(trackedKindOfPayment({ action: 'PAYMENT', result: 0, parentKind: 'link' })).toBeUndefined();
  });

  it('keeps a code while the payment or credit succeeded, waits or is pending, and frees it on a failure', () => {
    for (const kind of ['payment', 'credit'] as const) {
      const action = kind === 'credit' ? 'CREDIT' : 'PAYMENT';
      expect([0, 1, 2].map((result) => paymentHoldsCode(kind, direct(action, result)))).toEqual([true, true, true]);
      expect([-1, -2, -3, -4, -5, -6, -7, -10].some((result) => paymentHoldsCode(kind, direct(action, result)))).toBe(false);
    }
  });

  it("lets a payment take a credit's code and a credit take a payment's code", () => {
    expect(trackingCodeTaken('payment', [direct('CREDIT', 0)])).toBe(false);
    expect(trackingCodeTaken('credit', [direct('PAYMENT', 0)])).toBe(false);
    expect(trackingCodeTaken('payment', [direct('CREDIT', 0), direct('PAYMENT', -2), direct('PAYMENT', 2)])).toBe(true);
    expect(trackingCodeTaken('credit', [direct('PAYMENT', 0), direct('CREDIT', 0)])).toBe(true);
  });

  it('holds the code of a link, checkout or token for good once one exists', () => {
    for (const kind of ['link', 'checkout', 'token'] as const) {
      expect(trackingCodeTaken(kind, [])).toBe(false);
      expect(trackingCodeTaken(kind, [{}])).toBe(true);
    }
  });
});
