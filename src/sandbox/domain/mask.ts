/**
 * The one masking rule for card data and URL passwords: everything the request log keeps, every free text
 * a record stores, every URL the admin API, the dashboard and the console show. Card numbers become first
 * six + last four digits, CVVs `***`: by key, whatever the value's type (a number sent as an array of
 * groups, a CVV as `{"value": "987"}`), in JSON bodies, forms and query strings; and in any text (paths,
 * queries, names) every run of 13-19 digits that passes Luhn, whatever separates the digits (see
 * {@link separatorAt}), URL-encoded or not. The sandbox never stores a full card number or a CVV
 * (docs/reliability.md, "Security").
 */

/**
 * Keys whose value is a card number or a security code, compared in lower case with `_`, `-` and spaces
 * taken out (`card_cvv`, `Card-Number` and `cardCvv` are all caught). Whatever the value's type, nothing
 * under such a key is kept as sent.
 */
const NUMBER_KEYS = new Set(['number', 'cardnumber', 'pan', 'cardno', 'ccnumber', 'cardpan', 'primaryaccountnumber']);
// `secret`: a webhook endpoint's, sent to and answered by POST /__sandbox/webhooks (never logged).
const SECRET_KEYS = new Set([
  'cvv',
  'cvc',
  'cvv2',
  'cvc2',
  'cvn',
  'csc',
  'cid',
  'securitycode',
  'cardcvv',
  'cardcvc',
  'cardcvn',
  'cardcsc',
  'cardsecuritycode',
  'cvvcode',
  'secret',
]);

function normalKey(key: string): string {
  return key.toLowerCase().replace(/[\s_-]/g, '');
}

/**
 * Any key name above as a substring: a text whose normalized form (see {@link normalKey}) holds none has
 * no key that names card data, since normalizing a text normalizes every key in it.
 */
const SENSITIVE_NAME = new RegExp([...NUMBER_KEYS, ...SECRET_KEYS].join('|'));

/** The kind of card data a key names, if any. */
function sensitiveKey(key: string): 'number' | 'secret' | undefined {
  const k = normalKey(key);
  return NUMBER_KEYS.has(k) ? 'number' : SECRET_KEYS.has(k) ? 'secret' : undefined;
}

/** `4111111111111111` -> `411111******1111`; anything too short to keep digits of is starred out. */
export function maskCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits.length < 12) return '*'.repeat(digits.length);
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

function maskValue(key: string, value: unknown): unknown {
  if (value === null || typeof value === 'boolean' || value === undefined) return value;
  const kind = key === '' ? undefined : sensitiveKey(key);
  if (kind === 'secret') return '***';
  if (kind === 'number') {
    // Whatever shape the number came in (a string, a number, an array of groups, an object), the digits it
    // holds are masked together; nothing under the key is kept as sent.
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? '');
    return maskCardNumber(text.replace(/\D/g, ''));
  }
  if (typeof value === 'string') return maskText(value);
  // A card number sent as a JSON number under any other key.
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1e12) {
    const masked = maskDigitRuns(String(value));
    return masked === String(value) ? value : masked;
  }
  return value;
}

/**
 * What may stand between two digits of a card number: a space (also a no-break space, a tab, a line
 * break), `-`, `+`, `.`, `/`, `_`, `,`, and their URL encodings. At most {@link MAX_SEPARATORS} of them in
 * a row (`4111    1111 ...`, four spaces, is one number).
 */
const SEPARATOR_CHARS = ' \t\n\r\u00a0+-./_,';
/** {@link SEPARATOR_CHARS} by character code (all below 256), for scans that read codes. */
const SEPARATOR_CODES = new Uint8Array(256);
for (let i = 0; i < SEPARATOR_CHARS.length; i++) SEPARATOR_CODES[SEPARATOR_CHARS.charCodeAt(i)] = 1;
const ENCODED_SEPARATORS = new Set(['20', '09', '0a', '0d', '2b', '2d', '2e', '2f', '5f', '2c']);
const MAX_SEPARATORS = 4;

/** Length of the separator at `i` of `text` (0 when there is none). */
function separatorAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 256 && SEPARATOR_CODES[c] === 1) return 1;
  if (c !== 37 /* % */) return 0;
  const hex = text.slice(i + 1, i + 3).toLowerCase();
  if (ENCODED_SEPARATORS.has(hex)) return 3;
  if (hex === 'c2' && text.slice(i + 3, i + 6).toLowerCase() === '%a0') return 6;
  return 0;
}

function isDigit(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** The shortest and longest card numbers. */
const MIN_PAN = 13;
const MAX_PAN = 19;

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
 * Linear in the text's length: runs are found by one scan (no backtracking regular expression), and each
 * stretch's Luhn sum is read from prefix sums, so a megabyte of digits costs a few milliseconds.
 *
 * Ids are not card numbers: a UUID is left whole, and so is an unbroken digit run inside a hexadecimal token
 * of at least {@link MIN_HEX_ID} characters with letters in it (an object id, a hash). Otherwise
 * `01a20b82-7736-4000-923c-...` lost the digits `82-7736-4000-923` (which pass Luhn) and no longer matched
 * the link it names. A card number glued to a word (`Ada4111...`) or beside an id is still masked.
 */
export function maskDigitRuns(text: string): string {
  return mayHoldCardNumber(text) ? scanDigitRuns(text) : text;
}

/** {@link maskDigitRuns} without its first test: every run built and read (exported for the test that compares the two). */
export function scanDigitRuns(text: string): string {
  if (!UUID_HINT.test(text)) return maskRunsIn(text);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(UUID)) {
    out += maskRunsIn(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  return out + maskRunsIn(text.slice(last));
}

/**
 * False when no run of `text` can hold a card number: one pass over its characters, allocating nothing,
 * before the scan that builds each run. It counts the digits of every stretch of digits and separator
 * characters (at most {@link MAX_SEPARATORS} separators in a row), so every run {@link maskRunsIn} reads
 * lies inside a stretch counted here, and says true for any text with a `%` (an encoded separator is several
 * characters). The texts the request log masks mostly hold ids, times and amounts, whose runs are short:
 * this spares them the scan. Measured in a loop, masking a created link's request and answer went from
 * about 15 to about 4 µs; under a POST load the request log's masking had cost about 2 µs per request.
 */
function mayHoldCardNumber(text: string): boolean {
  let digits = 0;
  let separators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits >= MIN_PAN) return true;
      separators = 0;
    } else if (c === 37 /* % */) {
      return true;
    } else if (c < 256 && SEPARATOR_CODES[c] === 1) {
      if (++separators > MAX_SEPARATORS) digits = 0;
    } else {
      digits = 0;
      separators = 0;
    }
  }
  return false;
}

function maskRunsIn(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!isDigit(text, i)) {
      i += 1;
      continue;
    }
    const start = i;
    let digits = '';
    const bounds: number[] = [0];
    let end = i;
    for (;;) {
      let p = end;
      while (p < n && isDigit(text, p)) p += 1;
      digits += text.slice(end, p);
      end = p;
      // Separators, then a digit: the run goes on.
      let q = p;
      let count = 0;
      for (let len = separatorAt(text, q); len > 0 && count < MAX_SEPARATORS; len = separatorAt(text, q)) {
        q += len;
        count += 1;
      }
      if (count === 0 || !isDigit(text, q)) break;
      bounds.push(digits.length);
      end = q;
    }
    i = end;
    if (digits.length < MIN_PAN) continue;
    const masked = maskRunOutsideHexIds(digits, bounds, start, end, text);
    if (masked === undefined) continue;
    out += text.slice(copied, start) + masked;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** {@link maskRun}, unless the run is an unbroken stretch of digits inside a long hexadecimal token. */
function maskRunOutsideHexIds(digits: string, bounds: number[], start: number, end: number, text: string): string | undefined {
  const glued = (start > 0 && ALNUM.test(text[start - 1]!)) || ALNUM.test(text[end] ?? '');
  if (glued && bounds.length === 1) {
    let from = start;
    while (from > 0 && ALNUM.test(text[from - 1]!)) from -= 1;
    let to = end;
    while (to < text.length && ALNUM.test(text[to]!)) to += 1;
    const token = text.slice(from, to);
    if (token.length >= MIN_HEX_ID && HEX_TOKEN.test(token) && HEX_LETTER.test(token)) return undefined;
  }
  return maskRun(digits, bounds);
}

/**
 * The run's digits with every stretch of 13-19 that passes Luhn masked (its first six and last four kept),
 * or undefined when none does. Stretches are whole groups; an unbroken run is tried at every digit.
 */
function maskRun(digits: string, groupStarts: number[]): string | undefined {
  const m = digits.length;
  // Luhn sums of any stretch from two prefix sums: `even[k]` doubles the digits at odd positions, `odd[k]`
  // those at even positions; a stretch ending at `b - 1` doubles every other digit counting from its end.
  const even = new Int32Array(m + 1);
  const odd = new Int32Array(m + 1);
  for (let p = 0; p < m; p++) {
    const d = digits.charCodeAt(p) - 48;
    const twice = d * 2 > 9 ? d * 2 - 9 : d * 2;
    even[p + 1] = even[p]! + (p % 2 === 0 ? d : twice);
    odd[p + 1] = odd[p]! + (p % 2 === 0 ? twice : d);
  }
  const bounds = groupStarts.length > 1 ? [...groupStarts, m] : undefined;
  // +1 where a masked stretch of digits starts, -1 where it ends.
  const marks = new Int32Array(m + 1);
  let found = false;
  const count = bounds ? bounds.length : m + 1;
  for (let i = 0; i < count; i++) {
    const a = bounds ? bounds[i]! : i;
    for (let j = i + 1; j < count; j++) {
      const b = bounds ? bounds[j]! : j;
      const length = b - a;
      if (length > MAX_PAN) break;
      if (length < MIN_PAN) continue;
      const sum = (b - 1) % 2 === 0 ? even[b]! - even[a]! : odd[b]! - odd[a]!;
      if (sum % 10 === 0) {
        found = true;
        marks[a + 6]! += 1;
        marks[b - 4]! -= 1;
      }
    }
  }
  if (!found) return undefined;
  let out = '';
  let depth = 0;
  let from = 0;
  for (let d = 0; d <= m; d++) {
    const before = depth;
    depth += marks[d]!;
    if (before > 0 === depth > 0 && d < m) continue;
    // A stretch of kept or starred digits ends at d.
    out += before > 0 ? '*'.repeat(d - from) : digits.slice(from, d);
    from = d;
  }
  return out;
}

/**
 * A URL's password, wherever one appears in text: `scheme://user:password@host` keeps the user and becomes
 * `scheme://user:***@host`. The slashes may be spelled as URL parsers accept them: `/`, `\` (which WHATWG
 * parsers read as `/` in http(s) URLs: `http:\\user:pw@host`), JSON-escaped (`\/`, `\\`), or left out
 * (`http:user:pw@host`). The authority ends at the first `/`, `\`, `?`, `#`, quote or space and its user
 * information at its last `@`, as URL parsers read it.
 */
const URL_PASSWORD = /((?:[a-z][a-z0-9+.-]*:(?:\\{1,2}|\\?\/){1,2}|(?:https?|wss?|ftp):)[^\s/\\?#"'<>@:]*):[^\s/\\?#"'<>]*@/gi;

/**
 * Text with the password of every URL in it starred out (a `notifyUrl` such as
 * `http://user:pass@host/hook`, shown as `http://user:***@host/hook`): the request log, the admin API, the
 * dashboard and the console show URLs this way. Untouched (no regular expression) without an `@`.
 */
export function maskUrlPasswords(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(URL_PASSWORD, '$1:***@');
}

/** Free text as the sandbox keeps or shows it: card numbers and URL passwords masked. */
export function maskText(text: string): string {
  return maskUrlPasswords(maskDigitRuns(text));
}

/**
 * Text that may be URL-encoded (a path, a query, a `Location`): masked as it is, and also decoded, so a
 * number spelled with encoded digits (`%34%31%31%31...`) is caught; when only the decoded text held card
 * data, the masked decoded text is what is kept.
 */
export function maskEncoded(text: string): string {
  const masked = maskText(text);
  if (masked !== text || !text.includes('%')) return masked;
  const decoded = text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (bytes) => {
    try {
      return decodeURIComponent(bytes);
    } catch {
      return bytes;
    }
  });
  if (decoded === text) return text;
  const maskedDecoded = maskText(decoded);
  return maskedDecoded === decoded ? text : maskedDecoded;
}

export interface MaskOptions {
  /** Strings longer than this are cut (before masking, so masking stays bounded) with a marker. */
  maxString?: number | undefined;
}

/** `text` cut at `max` characters, without digits dangling at the cut (a half number cannot be masked). */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max).replace(/[\d\s+\-./_,%]+$/, '');
  return `${head}… [truncated: ${text.length} characters]`;
}

/** JSON text of `value` with card data and URL passwords masked; undefined stays undefined. */
export function maskedJson(value: unknown, options: MaskOptions = {}): string | undefined {
  if (value === undefined) return undefined;
  const max = options.maxString;
  return JSON.stringify(value, (key, v) => maskValue(key, max !== undefined && typeof v === 'string' ? cutText(v, max) : v));
}

/**
 * A copy of a record the sandbox stores as sent (a token's `customer`) with card data and URL passwords
 * masked, strings and keys alike; the same rule as the request log's.
 */
export function maskedRecord<T>(value: T): T {
  const text = maskedJson(value);
  return (text === undefined ? value : JSON.parse(text)) as T;
}

/** True when masking `text` needs the parsed value (a card key, or an escape that could hide digits). */
export function textNeedsValue(text: string): boolean {
  if (text.includes('\\')) return true;
  if (!SENSITIVE_NAME.test(normalKey(text))) return false;
  for (const match of text.matchAll(/"([^"\\]{1,40})"\s*:/g)) if (sensitiveKey(match[1]!) !== undefined) return true;
  return false;
}

/**
 * {@link maskedJson} for a value already serialized as `text` (the answer as sent, the body as received):
 * the text is reused when it has no card key, no escape (which could spell one) and nothing to mask;
 * otherwise it is parsed and masked value by value, so the result is always valid JSON. Spares holding or
 * serializing the value again. Text longer than `maxString` is always parsed, so its strings are cut
 * before they are masked.
 */
export function maskedJsonText(text: string, options: MaskOptions = {}): string | undefined {
  const long = options.maxString !== undefined && text.length > options.maxString;
  if (!long && !textNeedsValue(text) && maskText(text) === text) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return maskedJson(text, options);
  }
  return maskedJson(value, options);
}

/**
 * A query string or form body with card parameters masked, and the admin token (`?token=`, which
 * `/__sandbox/` accepts) starred out; untouched (no parsing) when it has none of them.
 */
export function maskQuery(query: string): string {
  if (query.length === 0) return query;
  const params = new URLSearchParams(query);
  let sensitive = false;
  for (const key of params.keys()) if (key.toLowerCase() === 'token' || sensitiveKey(key) !== undefined) sensitive = true;
  if (!sensitive) return maskEncoded(query);
  const out = new URLSearchParams();
  for (const [key, value] of params) out.append(key, key.toLowerCase() === 'token' ? '***' : String(maskValue(key, value)));
  return maskEncoded(out.toString());
}

/**
 * A copy of a record with the password of every URL in its strings starred out (a stored `notifyUrl`, as
 * the admin listings show it); the record itself when none holds an `@`.
 */
export function urlPasswordsMasked<T>(value: T): T {
  const text = JSON.stringify(value);
  if (text === undefined || !text.includes('@')) return value;
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? maskUrlPasswords(v) : v))) as T;
}
