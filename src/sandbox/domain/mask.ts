/**
 * Card-data masking for everything the request log keeps. Card numbers become first six + last four
 * digits, CVVs `***`, by key (JSON bodies, forms, query strings) and, as a safety net, any Luhn-valid run
 * of 13-19 digits left in the text. The sandbox never stores a full card number or a CVV (SANDBOX.md).
 */
import { luhnValid } from './test-cards.js';

const NUMBER_KEYS = new Set(['number', 'cardnumber', 'card_number', 'pan']);
// `secret`: a webhook endpoint's, sent to and answered by POST /__sandbox/webhooks (never logged).
const SECRET_KEYS = new Set(['cvv', 'cvc', 'cvv2', 'securitycode', 'secret']);

/** `4111111111111111` -> `411111******1111`; anything too short to keep digits of is starred out. */
export function maskCardNumber(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  if (digits.length < 12) return '*'.repeat(digits.length);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

function maskValue(key: string, value: unknown): unknown {
  const k = key.toLowerCase();
  if (SECRET_KEYS.has(k) && (typeof value === 'string' || typeof value === 'number')) return '***';
  if (NUMBER_KEYS.has(k) && (typeof value === 'string' || typeof value === 'number')) return maskCardNumber(String(value));
  return value;
}

const DIGIT_RUN = /(?<!\d)\d{13,19}(?!\d)/g;

/** Masks Luhn-valid digit runs in free text (a card number pasted into a field nobody expected). */
export function maskDigitRuns(text: string): string {
  return text.replace(DIGIT_RUN, (run) => (luhnValid(run) ? maskCardNumber(run) : run));
}

/** JSON text of `value` with card data masked; undefined stays undefined. */
export function maskedJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value, (key, v) => (key === '' ? v : maskValue(key, v)));
  return text === undefined ? undefined : maskDigitRuns(text);
}

const SENSITIVE_KEY = /"(?:number|cardnumber|card_number|pan|cvv|cvc|cvv2|securitycode|secret)"\s*:/i;

/** True when masking `text` needs the parsed value (a card key, or an escape that could hide digits). */
export function textNeedsValue(text: string): boolean {
  return SENSITIVE_KEY.test(text) || text.includes('\\u');
}

/**
 * {@link maskedJson} for a value already serialized as `text` (the answer as sent, the body as received):
 * the text is reused when it has no card key and no `\u` escape (which could spell one); otherwise it is
 * parsed and masked by key. Spares holding or serializing the value again.
 */
export function maskedJsonText(text: string): string | undefined {
  return textNeedsValue(text) ? maskedJson(JSON.parse(text)) : maskDigitRuns(text);
}

const SENSITIVE_PARAM = /(?:^|&)(?:number|cardnumber|card_number|pan|cvv|cvc|cvv2|securitycode|token)=/i;

/**
 * A query string or form body with card parameters masked, and the admin token (`?token=`, which
 * `/__sandbox/` accepts) starred out; untouched (no parsing) when it has none of them.
 */
export function maskQuery(query: string): string {
  if (query.length === 0) return query;
  if (!SENSITIVE_PARAM.test(query)) return maskDigitRuns(query);
  const params = new URLSearchParams(query);
  const out = new URLSearchParams();
  for (const [key, value] of params) out.append(key, key.toLowerCase() === 'token' ? '***' : String(maskValue(key, value)));
  return maskDigitRuns(out.toString());
}
