/**
 * Issue 31, item 17: amounts were shown three ways (dashboard "12.5 EUR", CLI "12.50 EUR", page
 * "1234567.50 EUR"). One rule, domain/money.ts formatAmount, is used by the pages, the dashboard and the CLI.
 */
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/sandbox/domain/money.js';
import { money } from '../../src/cli/options.js';

describe('formatAmount', () => {
  it.each([
    [12.5, 'EUR', '12.50 EUR'],
    [6, 'EUR', '6.00 EUR'],
    [1234567.5, 'EUR', '1,234,567.50 EUR'],
    [999999999, 'EUR', '999,999,999.00 EUR'],
    [1000, 'JPY', '1,000 JPY'],
    [1.25, 'KWD', '1.250 KWD'],
    [0.5, 'USD', '0.50 USD'],
    [-1234.5, 'EUR', '-1,234.50 EUR'],
  ])('shows %d %s as %s', (amount, currency, text) => {
    expect(formatAmount(amount, currency)).toBe(text);
  });

  it('is the CLI’s rule too', () => {
    expect(money(1234567.5, 'EUR')).toBe('1,234,567.50 EUR');
  });
});
