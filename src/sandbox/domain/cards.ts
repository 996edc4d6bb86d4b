/**
 * Card input rules shared by the direct API and the hosted pages: number normalization, expiry parsing,
 * CVV length per brand and masking. Pure: no store, no clock of its own (callers pass the time).
 */
import { brandById } from './brands.js';

/** Digits of a card number as a person types it: spaces and dashes are dropped, anything else is kept (and fails). */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]+/g, '');
}

/** True if `number` is 12 to 19 digits. */
export function looksLikeCardNumber(number: string): boolean {
  return /^\d{12,19}$/.test(number);
}

/**
 * An expiry month as `1`-`12` or `01`-`12` (a JSON integer is taken too), returned as two digits;
 * undefined when it is not one.
 */
export function parseExpiryMonth(value: string | number): string | undefined {
  const text = typeof value === 'number' ? (Number.isInteger(value) ? String(value) : '') : value.trim();
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const month = Number(text);
  if (month < 1 || month > 12) return undefined;
  return String(month).padStart(2, '0');
}

/**
 * An expiry year as four digits (`2030`) or two (`30`, meaning 2030), returned as four digits; undefined
 * when it is neither. Two-digit years are always 20xx: card expiries never point a century back.
 */
export function parseExpiryYear(value: string | number): string | undefined {
  const text = typeof value === 'number' ? (Number.isInteger(value) ? String(value) : '') : value.trim();
  if (/^\d{2}$/.test(text)) return `20${text}`;
  if (/^\d{4}$/.test(text) && Number(text) >= 2000 && Number(text) <= 2099) return text;
  return undefined;
}

/**
 * True once the card's expiry month is over: a card is valid through the last day of its expiry month
 * (UTC), as issuers print it.
 */
export function isExpired(expiryMonth: string, expiryYear: string, nowMs: number): boolean {
  const firstOfNextMonth = Date.UTC(Number(expiryYear), Number(expiryMonth), 1);
  return nowMs >= firstOfNextMonth;
}

/** How many CVV digits a brand takes: 4 for American Express, 3 for every other card brand. */
export function cvvLength(brandId: number | undefined): number {
  return (brandId !== undefined ? brandById(brandId)?.cvvLength : undefined) ?? 3;
}

/** True if `cvv` is exactly the brand's number of digits. */
export function validCvv(cvv: string, brandId: number | undefined): boolean {
  return cvv.length === cvvLength(brandId) && /^\d+$/.test(cvv);
}

/** All but the last four digits masked, e.g. `************1111` (SANDBOX.md, `displayHint`). */
export function maskCardNumber(number: string): string {
  return '*'.repeat(Math.max(0, number.length - 4)) + number.slice(-4);
}

/** The parts of a card number the sandbox may keep: first six and last four digits. */
export function cardDigitsSummary(number: string): { firstSixDigits: string; lastFourDigits: string } {
  return { firstSixDigits: number.slice(0, 6), lastFourDigits: number.slice(-4) };
}
