/**
 * Readers for request fields. Each takes an untrusted JSON value and the field's path, and either returns
 * a typed value or throws the catalogue error naming that path (1004 missing, 1002 invalid). They are the
 * only way request data enters the domain, so a wrong type anywhere is an input error, never a crash.
 */
import { refuseControlCharacters } from '../domain/text.js';
import { brandById } from '../domain/brands.js';
import { maskDigitRuns } from '../domain/mask.js';
import { amountProblem, currencyProblem } from '../domain/money.js';
import type { AuthorizationMode, Tokenize, TransactionReferences } from '../domain/records.js';
import { invalidValue, missingProperty } from '../errors.js';
import { DEFAULT_LINK_DURATION, linkDurationMs } from '../domain/link-duration.js';
import { CHALLENGE_WINDOW_SIZES, isChallengeWindowSize, type ThreeDSecureRequest } from '../domain/three-d-secure.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * An optional field the client left out: missing, `null`, or an empty string. Clients built on generic
 * payment libraries send every optional field whether it was set or not, as `null` or, for text and URLs
 * never configured, `""`; the provider took both as absent. Required fields keep their own checks (an
 * empty required string is still 1002), and a malformed non-empty value is still refused.
 */
export function absent(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `path`, required. */
export function requireObject(value: unknown, path: string): JsonObject {
  if (value === undefined || value === null) throw missingProperty(path);
  if (!isObject(value)) throw invalidValue(path, 'Expected an object.');
  return value;
}

/** The object at `path` if present. */
export function optionalObject(value: unknown, path: string): JsonObject | undefined {
  if (absent(value)) return undefined;
  if (!isObject(value)) throw invalidValue(path, 'Expected an object.');
  return value;
}

export interface StringRule {
  min?: number;
  max?: number;
}

export function requireString(value: unknown, path: string, rule: StringRule = {}): string {
  if (value === undefined || value === null) throw missingProperty(path);
  return checkString(value, path, rule);
}

export function optionalString(value: unknown, path: string, rule: StringRule = {}): string | undefined {
  if (absent(value)) return undefined;
  return checkString(value, path, rule);
}

function checkString(value: unknown, path: string, rule: StringRule): string {
  if (typeof value !== 'string') throw invalidValue(path, 'Expected a string.');
  const min = rule.min ?? 1;
  if (value.length < min) throw invalidValue(path, min === 1 ? 'Must not be empty.' : `At least ${min} characters.`);
  if (rule.max !== undefined && value.length > rule.max) throw invalidValue(path, `At most ${rule.max} characters.`);
  return value;
}

/**
 * A number as the provider took it: a JSON number, or a string holding one in decimal notation ("5", "5.0",
 * "5.00", "-2"), as its clients send amounts and ids. Anything else ("abc", "1e400", "") is refused.
 */
const NUMBER_TEXT = /^-?\d{1,15}(\.\d{1,15})?$/;

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return NUMBER_TEXT.test(text) ? Number(text) : undefined;
}

export function requireNumber(value: unknown, path: string): number {
  if (value === undefined || value === null) throw missingProperty(path);
  const n = numberOf(value);
  if (n === undefined) throw invalidValue(path, 'Expected a number (or a string holding one, such as "12.50").');
  return n;
}

/** {@link requireNumber} when present; null counts as absent. */
export function optionalNumber(value: unknown, path: string): number | undefined {
  return absent(value) ? undefined : requireNumber(value, path);
}

/**
 * An identifier the provider took as a number or a string (`issuerId`, `storeId`): returned as text.
 * Numbers must be whole; strings follow {@link StringRule}.
 */
export function optionalIdentifier(value: unknown, path: string, rule: StringRule = {}): string | undefined {
  if (absent(value)) return undefined;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw invalidValue(path, 'Expected an identifier: a whole number or a string.');
    return String(value);
  }
  return checkString(value, path, rule);
}

export function requireInteger(value: unknown, path: string): number {
  const n = requireNumber(value, path);
  if (!Number.isInteger(n)) throw invalidValue(path, 'Expected an integer.');
  return n;
}

export function optionalBoolean(value: unknown, path: string): boolean | undefined {
  if (absent(value)) return undefined;
  if (typeof value !== 'boolean') throw invalidValue(path, 'Expected true or false.');
  return value;
}

/**
 * `body.threeDSecure` of a link: `{version}` with the 3-D Secure protocol version, `"1"` or `"2"` (a
 * minor version such as `"2.1"` too; a number is taken as its digits). Optional; returns the version.
 */
export function threeDSecureVersion(value: unknown, path: string): string | undefined {
  const block = optionalObject(value, path);
  if (block === undefined) return undefined;
  const version = block.version;
  if (absent(version)) return undefined;
  const text = typeof version === 'number' ? String(version) : version;
  if (typeof text !== 'string' || !/^[12](\.\d{1,2}){0,2}$/.test(text)) throw invalidValue(`${path}.version`, 'Expected the 3-D Secure version, "1" or "2".');
  return text;
}

/**
 * `body.threeDSecure` of a direct card payment (the portal's 3DS 2.0 page, the SDKs' RequestThreeDSecure):
 * `version`, and external MPI data `eci` (two digits) with `avv` (or `cavv`), optionally `xid` and
 * `dsTransactionId`. MPI data needs both `eci` and `avv`/`cavv` (1004 for the one missing).
 */
export function threeDSecureRequest(value: unknown, path: string): ThreeDSecureRequest | undefined {
  const block = optionalObject(value, path);
  if (block === undefined) return undefined;
  const version = threeDSecureVersion(block, path) ?? '1';
  const eci = optionalString(block.eci, `${path}.eci`, { max: 2 });
  if (eci !== undefined && !/^\d{2}$/.test(eci)) throw invalidValue(`${path}.eci`, 'Expected the two-digit ECI, such as "05".');
  const avvPath = absent(block.avv) && !absent(block.cavv) ? `${path}.cavv` : `${path}.avv`;
  const avv = optionalString(absent(block.avv) ? block.cavv : block.avv, avvPath, { max: 100 });
  const xid = optionalString(block.xid, `${path}.xid`, { max: 100 });
  const dsTransactionId = optionalString(block.dsTransactionId, `${path}.dsTransactionId`, { max: 100 });
  const challengeWindowSize = windowSize(block.additionalInfo, `${path}.additionalInfo`);
  const embedded = challengeWindowSize !== undefined ? { challengeWindowSize } : {};
  if (eci === undefined && avv === undefined) {
    if (xid !== undefined) throw missingProperty(`${path}.eci`);
    return { version, ...embedded };
  }
  if (eci === undefined) throw missingProperty(`${path}.eci`);
  if (avv === undefined) throw missingProperty(`${path}.avv`);
  return { version, ...embedded, mpi: { eci, avv, ...(xid !== undefined ? { xid } : {}), ...(dsTransactionId !== undefined ? { dsTransactionId } : {}) } };
}

/** `additionalInfo.challengeWindowSize`: an EMV challenge window code (`"01"`...`"05"`), or nothing. */
function windowSize(value: unknown, path: string): string | undefined {
  const info = optionalObject(value, path);
  if (info === undefined) return undefined;
  const code = optionalString(info.challengeWindowSize, `${path}.challengeWindowSize`, { max: 2 });
  if (code !== undefined && !isChallengeWindowSize(code)) {
    throw invalidValue(`${path}.challengeWindowSize`, `Expected one of ${Object.keys(CHALLENGE_WINDOW_SIZES).join(', ')} (EMV 3-D Secure window sizes).`);
  }
  return code;
}

/** A known ISO 4217 code in any letter case, returned upper case. */
export function requireCurrency(value: unknown, path: string): string {
  const code = requireString(value, path).toUpperCase();
  const problem = currencyProblem(code);
  if (problem) throw invalidValue(path, problem);
  return code;
}

/** An amount for `currencyCode`: finite, > 0, at most the currency's decimals, at most 999,999,999. */
export function requireAmount(value: unknown, path: string, currencyCode: string): number {
  const amount = requireNumber(value, path);
  const problem = amountProblem(amount, currencyCode);
  if (problem) throw invalidValue(path, problem);
  return amount;
}

/** `payment` or `authorize` in any case, returned upper case; `PAYMENT` when absent. */
export function authorizationMode(value: unknown, path: string): AuthorizationMode {
  if (absent(value)) return 'PAYMENT';
  const mode = requireString(value, path).toUpperCase();
  if (mode !== 'PAYMENT' && mode !== 'AUTHORIZE') throw invalidValue(path, 'Expected payment or authorize.');
  return mode;
}

/** 1-100 characters. */
export function trackingCode(value: unknown, path: string, required: boolean): string | undefined {
  const code = required ? requireString(value, path, { max: 100 }) : optionalString(value, path, { max: 100 });
  // Echoed in every answer and printed by the CLI: an escape sequence would reach the developer's terminal.
  if (code !== undefined) refuseControlCharacters(code, path);
  return code;
}

/**
 * `body.transaction.trackingCode` of a payment: the reference's "Minimal length: 8 characters" on top of
 * {@link trackingCode}'s rules.
 */
export function paymentTrackingCode(value: unknown, path: string): string {
  const code = trackingCode(value, path, true)!;
  if (code.length < 8) throw invalidValue(path, "At least 8 characters (the provider's minimum for a payment's tracking code).");
  return code;
}

/**
 * `body.transaction.descriptor`, the statement text: 1-127 characters. Echoed in answers and webhook bodies,
 * so control characters are refused (as in a holder name), and so is a card number in any spelling
 * (docs/reliability.md, "Security"): a descriptor is the merchant's own text, never the customer's, so
 * one holding a card number is a bug to report, not text to keep masked.
 */
export function descriptor(value: unknown, path: string): string | undefined {
  const text = optionalString(value, path, { max: 127 });
  if (text === undefined) return undefined;
  refuseControlCharacters(text, path);
  if (maskDigitRuns(text) !== text) throw invalidValue(path, 'Must not hold a card number.');
  return text;
}

/**
 * `storeId`, `invoiceId`, `purchaseId`, `countryCode` and `languageCode` of `body.transaction`, with the
 * reference's types and lengths: storeId a Number (a whole number, or a string of digits as some clients
 * send it), invoiceId String(255), purchaseId String(100), countryCode ISO 3166-1 alpha-2 and languageCode
 * ISO 639-1 (two letters, any case). Each optional; absent ones are left out.
 */
export function transactionReferences(t: { [key: string]: unknown }, path: string): TransactionReferences {
  const refs: TransactionReferences = {};
  if (!absent(t.storeId)) {
    const store = requireNumber(t.storeId, `${path}.storeId`);
    if (!Number.isSafeInteger(store) || store < 0) throw invalidValue(`${path}.storeId`, 'Expected a whole number.');
    refs.storeId = store;
  }
  const invoiceId = optionalIdentifier(t.invoiceId, `${path}.invoiceId`, { max: 255 });
  if (invoiceId !== undefined) refs.invoiceId = noControls(invoiceId, `${path}.invoiceId`);
  const purchaseId = optionalIdentifier(t.purchaseId, `${path}.purchaseId`, { max: 100 });
  if (purchaseId !== undefined) refs.purchaseId = noControls(purchaseId, `${path}.purchaseId`);
  const countryCode = optionalString(t.countryCode, `${path}.countryCode`);
  if (countryCode !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(countryCode)) throw invalidValue(`${path}.countryCode`, 'Expected an ISO 3166-1 alpha-2 country code, such as NL.');
    refs.countryCode = countryCode.toUpperCase();
  }
  const languageCode = optionalString(t.languageCode, `${path}.languageCode`);
  if (languageCode !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(languageCode)) throw invalidValue(`${path}.languageCode`, 'Expected an ISO 639-1 language code, such as nl.');
    refs.languageCode = languageCode.toLowerCase();
  }
  return refs;
}

function noControls(text: string, path: string): string {
  refuseControlCharacters(text, path);
  return text;
}

/** `false`, `inquire` or `true` in any case (a JSON boolean is taken too), returned upper case; default FALSE. */
export function tokenize(value: unknown, path: string): Tokenize {
  if (absent(value)) return 'FALSE';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  const text = requireString(value, path).toUpperCase();
  if (text !== 'FALSE' && text !== 'INQUIRE' && text !== 'TRUE') throw invalidValue(path, 'Expected false, inquire or true.');
  return text;
}

/** A non-empty array of known brand ids, without duplicates (order kept). */
export function brandIds(value: unknown, path: string): number[] {
  if (value === undefined || value === null) throw missingProperty(path);
  if (!Array.isArray(value)) throw invalidValue(path, 'Expected an array of brand ids.');
  if (value.length === 0) throw invalidValue(path, 'Must name at least one brand.');
  const seen = new Set<number>();
  value.forEach((item, i) => {
    const id = numberOf(item);
    if (id === undefined || !Number.isInteger(id) || brandById(id) === undefined) {
      throw invalidValue(`${path}[${i}]`, 'Unknown brand id; see docs/api.md for the brands the sandbox knows.');
    }
    seen.add(id);
  });
  return [...seen];
}

const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL of at most 2048 characters; never `javascript:` or `data:`. */
export function returnUrl(value: unknown, path: string): string {
  const text = requireString(value, path, { max: MAX_URL_LENGTH });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidValue(path, 'Expected an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidValue(path, 'Only http and https URLs are allowed.');
  refuseControlCharacters(text, path);
  return text;
}

/**
 * `P<n>D` (n 1-365) as the spec shows, or `PT<n>H` / `PT<n>M` for testing expiry; returns milliseconds.
 * Default `P1D`.
 */
export function duration(value: unknown, path: string): { text: string; ms: number } {
  if (absent(value)) return { ...DEFAULT_LINK_DURATION };
  const text = requireString(value, path).toUpperCase();
  const ms = linkDurationMs(text);
  if (ms === undefined) throw invalidValue(path, 'Expected an ISO 8601 duration P<n>D (1 to 365 days), PT<n>H or PT<n>M.');
  return { text, ms };
}
