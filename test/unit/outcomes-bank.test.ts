import { describe, expect, it } from 'vitest';
import { settlementByAmount } from '../../src/sandbox/services/bank.js';

describe('bank payments: the staging convention by amount', () => {
  it('settles by the integer part of the amount: 1 approved, 2 cancelled, 3 timeout, 5 failed', () => {
    expect(settlementByAmount(1)).toBe('approved');
    expect(settlementByAmount(1.99)).toBe('approved');
    expect(settlementByAmount(2.01)).toBe('cancelled');
    expect(settlementByAmount(3)).toBe('timeout');
    expect(settlementByAmount(5.5)).toBe('failed');
  });

  it('leaves 4 and every other amount waiting for the bank page', () => {
    for (const amount of [4, 4.99, 0.5, 6, 10, 11, 25, 100]) expect(settlementByAmount(amount)).toBeUndefined();
  });
});
