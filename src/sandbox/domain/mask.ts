/**
 * Card-data masking for everything the request log keeps and every free text a record stores. Card
 * numbers become first six + last four digits, CVVs `***`: by key, whatever the value's type (a number
 * sent as an array of groups, a CVV as `{"value": "987"}`), in JSON bodies, forms and query strings; and
 * in any text (paths, queries, names) every run of 13-19 digits that passes Luhn, with spaces, dashes or
 * their URL encodings between the digits. The sandbox never stores a full card number or a CVV (SANDBOX.md).
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
  if (value === null || typeof value === 'boolean' || value === undefined) return value;
  if (SECRET_KEYS.has(k)) return '***';
  if (NUMBER_KEYS.has(k)) {
    // Whatever shape the number came in (a string, a number, an array of groups, an object), the digits it
    // holds are masked together; nothing under the key is kept as sent.
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? '');
    return maskCardNumber(text.replace(/\D/g, ''));
  }
  return value;
}

/** Between two digits of a card number: spaces, dashes, `+` and their URL encodings, at most three. */
const SEPARATOR = '(?:[ +\\-]|%20|%2[dD]){1,3}';
/** A run of digits with separators between them (at least 13 digits), longest first. */
const DIGIT_RUN = new RegExp(`(?<!\\d)\\d(?:(?:${SEPARATOR})?\\d){12,}(?!\\d)`, 'g');
const DIGIT_RUN_HINT = /\d{4}|\d[ +\-%]/;

/** A UUID (8-4-4-4-12 hexadecimal digits) that is not part of a longer token of letters and digits. */
const UUID = /(?<![0-9A-Za-z])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Za-z])/g;
const UUID_HINT = new RegExp(UUID.source);
/** Hexadecimal ids without dashes are at least this long (an object id: 24, a UUID's digits: 32, a hash: 40+). */
const MIN_HEX_ID = 24;
const ALNUM = /[0-9A-Za-z]/;
const HEX_TOKEN = /^[0-9A-Fa-f]+$/;
const HEX_LETTER = /[A-Fa-f]/;

/**
 * Masks every card number in free text (a number pasted into a name, typed into a path or a query): each
 * run of digits and separators holding a stretch of 13-19 digits that passes Luhn. Stretches start and end
 * where a group of digits does, so `4242 4242 4242 4242 12` (a number and more digits) is caught too.
 *
 * Ids are not card numbers: a UUID is left whole, and so is an unbroken digit run inside a hexadecimal token
 * of at least {@link MIN_HEX_ID} characters with letters in it (an object id, a hash). Otherwise
 * `01a20b82-7736-4000-923c-...` lost the digits `82-7736-4000-923` (which pass Luhn) and no longer matched
 * the link it names. A card number glued to a word (`Ada4111...`) or beside an id is still masked.
 */
export function maskDigitRuns(text: string): string {
  if (!DIGIT_RUN_HINT.test(text)) return text;
  if (!UUID_HINT.test(text)) return text.replace(DIGIT_RUN, maskRunOutsideHexIds);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(UUID)) {
    out += text.slice(last, match.index).replace(DIGIT_RUN, maskRunOutsideHexIds) + match[0];
    last = match.index + match[0].length;
  }
  return out + text.slice(last).replace(DIGIT_RUN, maskRunOutsideHexIds);
}

/** {@link maskRun}, unless the run is an unbroken stretch of digits inside a long hexadecimal token. */
function maskRunOutsideHexIds(run: string, offset: number, text: string): string {
  const glued = (offset > 0 && ALNUM.test(text[offset - 1]!)) || ALNUM.test(text[offset + run.length] ?? '');
  if (glued && /^\d+$/.test(run)) {
    let start = offset;
    while (start > 0 && ALNUM.test(text[start - 1]!)) start -= 1;
    let end = offset + run.length;
    while (end < text.length && ALNUM.test(text[end]!)) end += 1;
    const token = text.slice(start, end);
    if (token.length >= MIN_HEX_ID && HEX_TOKEN.test(token) && HEX_LETTER.test(token)) return run;
  }
  return maskRun(run);
}

function maskRun(run: string): string {
  const groups = run.split(/(?:[ +\-]|%20|%2[dD])+/);
  const digits = groups.join('');
  if (digits.length <= 19 && luhnValid(digits)) return maskCardNumber(digits);
  // Try every stretch of whole groups, and for an unbroken run every stretch of digits.
  const starts: number[] = [];
  let at = 0;
  for (const g of groups) {
    starts.push(at);
    at += g.length;
  }
  starts.push(at);
  const bounds = groups.length > 1 ? starts : Array.from({ length: digits.length + 1 }, (_, i) => i);
  const masked = new Array<boolean>(digits.length).fill(false);
  let found = false;
  for (let i = 0; i < bounds.length; i++) {
    for (let j = i + 1; j < bounds.length; j++) {
      const length = bounds[j]! - bounds[i]!;
      if (length > 19) break;
      if (length >= 13 && luhnValid(digits.slice(bounds[i], bounds[j]))) {
        found = true;
        for (let d = bounds[i]! + 6; d < bounds[j]! - 4; d++) masked[d] = true;
      }
    }
  }
  if (!found) return run;
  let out = '';
  for (let d = 0; d < digits.length; d++) out += masked[d] ? '*' : digits[d];
  return out;
}

/**
 * A URL's password, wherever one appears in text: `scheme://user:password@host` (also with the slashes
 * JSON-escaped) keeps the user and becomes `scheme://user:***@host`. The authority ends at the first `/`,
 * `?`, `#`, quote or space and its user information at its last `@`, as URL parsers read it.
 */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:(?:\\?\/){2}[^\s/\\?#"'<>@:]*):[^\s/\\?#"'<>]*@/gi;

/**
 * Text with the password of every URL in it starred out (a `notifyUrl` such as
 * `http://user:pass@host/hook`, shown as `http://user:***@host/hook`): the request log, the admin API, the
 * dashboard and the console show URLs this way. Untouched (no regular expression) without an `@`.
 */
export function maskUrlPasswords(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(URL_PASSWORD, '$1:***@');
}

/** Free text as the request log keeps it: card numbers and URL passwords masked. */
export function maskText(text: string): string {
  return maskUrlPasswords(maskDigitRuns(text));
}

/** JSON text of `value` with card data and URL passwords masked; undefined stays undefined. */
export function maskedJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value, (key, v) => (key === '' ? v : maskValue(key, v)));
  return text === undefined ? undefined : maskText(text);
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
  return textNeedsValue(text) ? maskedJson(JSON.parse(text)) : maskText(text);
}

const SENSITIVE_PARAM = /(?:^|&)(?:number|cardnumber|card_number|pan|cvv|cvc|cvv2|securitycode|token)=/i;

/**
 * A query string or form body with card parameters masked, and the admin token (`?token=`, which
 * `/__sandbox/` accepts) starred out; untouched (no parsing) when it has none of them.
 */
export function maskQuery(query: string): string {
  if (query.length === 0) return query;
  if (!SENSITIVE_PARAM.test(query)) return maskText(query);
  const params = new URLSearchParams(query);
  const out = new URLSearchParams();
  for (const [key, value] of params) out.append(key, key.toLowerCase() === 'token' ? '***' : String(maskValue(key, value)));
  return maskText(out.toString());
}
