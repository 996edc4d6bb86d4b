import { describe, expect, it } from 'vitest';
import { cvvLength, isExpired, maskCardNumber, normalizeCardNumber, parseExpiryMonth, parseExpiryYear, validCvv } from '../../src/sandbox/domain/cards.js';

describe('card input helpers', () => {
  it('drops spaces and dashes from a typed card number', () => {
    expect(normalizeCardNumber(' 4111 1111-1111 1111 ')).toBe('4111111111111111');
  });

  it('parses expiry months 1-12 with or without a leading zero and refuses others', () => {
    expect(parseExpiryMonth('1')).toBe('01');
    expect(parseExpiryMonth('01')).toBe('01');
    expect(parseExpiryMonth('12')).toBe('12');
    expect(parseExpiryMonth(7)).toBe('07');
    for (const bad of ['0', '13', '', 'ab', '1.5', '001']) expect(parseExpiryMonth(bad)).toBeUndefined();
  });

  it('parses four- and two-digit expiry years into four digits and refuses others', () => {
    expect(parseExpiryYear('2030')).toBe('2030');
    expect(parseExpiryYear('30')).toBe('2030');
    expect(parseExpiryYear(2031)).toBe('2031');
    for (const bad of ['3', '203', '20301', 'abcd', '1999']) expect(parseExpiryYear(bad)).toBeUndefined();
  });

  it('treats a card as valid through the last day of its expiry month (UTC)', () => {
    expect(isExpired('03', '2030', Date.UTC(2030, 2, 31, 23, 59))).toBe(false);
    expect(isExpired('03', '2030', Date.UTC(2030, 3, 1))).toBe(true);
    expect(isExpired('12', '2030', Date.UTC(2030, 11, 31))).toBe(false);
    expect(isExpired('12', '2030', Date.UTC(2031, 0, 1))).toBe(true);
  });

  it('takes 4 CVV digits for American Express and 3 for other brands', () => {
    expect(cvvLength(1030)).toBe(4);
    expect(cvvLength(1010)).toBe(3);
    expect(validCvv('1234', 1030)).toBe(true);
    expect(validCvv('123', 1030)).toBe(false);
    expect(validCvv('123', 1020)).toBe(true);
    expect(validCvv('12a', 1020)).toBe(false);
  });

  it('masks all but the last four digits', () => {
    expect(maskCardNumber('4111111111111111')).toBe('************1111');
    expect(maskCardNumber('378282246310005')).toBe('***********0005');
  });
});
