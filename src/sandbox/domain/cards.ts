/**
 * Card input rules shared by the direct API and the hosted pages: number normalization, expiry parsing,
 * CVV length per brand and masking. Pure: no store, no clock of its own (callers pass the time).
 */
import { brandById } from './brands.js';

/** The longest name on a card the sandbox takes (the API's `body.card.holderName`, the hosted form's field). */
export const HOLDER_NAME_MAX = 100;

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

/**
 * The number ranges (IINs) of the card brands, in the order they are tried: a number is of the first
 * brand with a range whose bounds its first digits fall between (as many digits as the bounds have).
 * Data, so the hosted page's script detects brands by the same table (it receives it as page data).
 */
export const CARD_RANGES: ReadonlyArray<{ brandId: number; from: string; to: string }> = [
  { brandId: 1030, from: '34', to: '34' },
  { brandId: 1030, from: '37', to: '37' },
  { brandId: 1020, from: '51', to: '55' },
  { brandId: 1020, from: '2221', to: '2720' },
  { brandId: 1040, from: '6011', to: '6011' },
  { brandId: 1040, from: '65', to: '65' },
  { brandId: 1040, from: '622126', to: '622925' },
  { brandId: 1040, from: '644', to: '649' },
  { brandId: 1090, from: '3528', to: '3589' },
  { brandId: 1060, from: '36', to: '36' },
  { brandId: 1060, from: '38', to: '39' },
  { brandId: 1060, from: '300', to: '305' },
  { brandId: 1210, from: '6703', to: '6703' },
  { brandId: 1050, from: '50', to: '50' },
  { brandId: 1050, from: '56', to: '69' },
  { brandId: 1010, from: '4', to: '4' },
];

/** The brand of a card number by its range alone ({@link CARD_RANGES}); undefined when none matches. */
export function brandOfRange(number: string): number | undefined {
  for (const range of CARD_RANGES) {
    const head = number.slice(0, range.from.length);
    if (head.length === range.from.length && Number(head) >= Number(range.from) && Number(head) <= Number(range.to)) return range.brandId;
  }
  return undefined;
}

/** How a brand's numbers are grouped when shown and typed: American Express 4-6-5, Diners Club 4-6-4, others by fours. */
export function cardGroups(brandId: number | undefined, length: number): number[] {
  const groups = brandId !== undefined ? brandById(brandId)?.groups : undefined;
  const fixed = groups?.find((g) => g.reduce((a, b) => a + b, 0) === length);
  if (fixed !== undefined) return [...fixed];
  const fours: number[] = [];
  for (let left = length; left > 0; left -= 4) fours.push(Math.min(4, left));
  return fours;
}

/** A card number spaced in its brand's groups, e.g. `3782 822463 10005`. */
export function spacedCardNumber(number: string, brandId: number | undefined): string {
  const parts: string[] = [];
  let at = 0;
  for (const size of cardGroups(brandId, number.length)) {
    parts.push(number.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** All but the last four digits masked, e.g. `************1111` (docs/test-cards.md, "Card data"). */
export function maskCardNumber(number: string): string {
  return '*'.repeat(Math.max(0, number.length - 4)) + number.slice(-4);
}

/** The parts of a card number the sandbox may keep: first six and last four digits. */
export function cardDigitsSummary(number: string): { firstSixDigits: string; lastFourDigits: string } {
  return { firstSixDigits: number.slice(0, 6), lastFourDigits: number.slice(-4) };
}
