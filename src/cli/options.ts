/**
 * Parsers for option values. Each throws a `UsageError` naming the flag. Light on purpose: the command
 * registry (`registry.ts`) uses some of them while parsing, before any command module is loaded.
 */
import { BRANDS, CARD_BRAND_IDS, brandById } from '../sandbox/domain/brands.js';
import { amountProblem, currencyProblem, formatAmount } from '../sandbox/domain/money.js';
import { linkDurationMs } from '../sandbox/domain/link-duration.js';
import { OUTCOME_NAMES, type OutcomeName } from '../sandbox/domain/outcome-names.js';
import { UsageError } from './errors.js';

/**
 * A positive amount, as typed (`12.50`); with `currencyCode`, also the API's own rules for it (the
 * currency's decimals, the maximum: domain/money.ts), so a prompt refuses what the API would.
 */
export function parseAmount(value: string, flag = '--amount', currencyCode?: string): number {
  const trimmed = value.trim();
  const amount = Number(trimmed);
  if (!/^\d+(\.\d+)?$/.test(trimmed) || !Number.isFinite(amount) || amount <= 0)
    throw new UsageError(`${flag}: expected a positive number such as 12.50, got "${value}".`);
  const problem = currencyCode === undefined ? undefined : amountProblem(amount, currencyCode);
  if (problem) throw new UsageError(`${flag}: ${problem} Got "${value}".`);
  return amount;
}

/** A currency code the API takes (domain/money.ts), upper-cased. */
export function parseCurrency(value: string, flag = '--currency'): string {
  const code = value.trim().toUpperCase();
  if (currencyProblem(code)) throw new UsageError(`${flag}: expected an ISO 4217 currency code the sandbox knows, such as EUR, got "${value}".`);
  return code;
}

const BRAND_ALIASES: Record<string, number> = { amex: 1030, mc: 1020, diners: 1060, visaelectron: 1011, visadebit: 1013, mastercarddebit: 1023 };

function brandKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/** The brand names {@link parseBrand} takes: each brand's own (`americanexpress`) and the short ones (`amex`). */
export const BRAND_WORDS: readonly string[] = [...new Set([...BRANDS.map((b) => brandKey(b.name)), ...Object.keys(BRAND_ALIASES)])];

/** One brand, by id (`1010`) or name (`visa`, `mastercard`, `amex`, `american-express`). */
export function parseBrand(value: string, flag = '--brand'): number {
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const id = Number(text);
    if (!brandById(id)) throw new UsageError(`${flag}: unknown brand id ${id}. Known: ${BRANDS.map((b) => `${b.id} ${b.name}`).join(', ')}.`);
    return id;
  }
  const key = brandKey(text);
  const found = BRANDS.find((b) => brandKey(b.name) === key)?.id ?? BRAND_ALIASES[key];
  if (found === undefined) throw new UsageError(`${flag}: unknown brand "${value}". Use an id or one of: ${BRAND_WORDS.join(', ')}.`);
  return found;
}

/** `--brand` values, repeatable and comma-separated, without repeats; undefined when none were given. */
export function parseBrands(values: string[] | undefined, flag = '--brand'): number[] | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const ids = values
    .flatMap((v) => v.split(','))
    .filter((v) => v.trim() !== '')
    .map((v) => parseBrand(v, flag));
  if (ids.length === 0) throw new UsageError(`${flag}: give at least one brand.`);
  return [...new Set(ids)];
}

/** Every card brand: the default offer of `link create` and `checkout create`. */
export const DEFAULT_BRANDS: readonly number[] = CARD_BRAND_IDS;

/** A brand's name for people; a card whose brand nobody reported is an "unknown brand", not "?". */
export function brandName(id: number | undefined): string {
  return id === undefined ? 'unknown brand' : (brandById(id)?.name ?? `brand ${id}`);
}

/** An amount for people, in the currency's minor units: `12.50 EUR`, `1000 JPY`, `1.250 KWD`. */
export function money(amount: unknown, currencyCode: unknown): string {
  const n = Number(amount);
  if (typeof currencyCode !== 'string' || !Number.isFinite(n)) return `${String(amount)} ${currencyCode ?? ''}`.trim();
  return formatAmount(n, currencyCode);
}

export type TokenizeMode = 'false' | 'inquire' | 'true';

export function parseTokenize(value: string, flag = '--tokenize'): TokenizeMode {
  const mode = value.trim().toLowerCase();
  if (mode !== 'false' && mode !== 'inquire' && mode !== 'true') throw new UsageError(`${flag}: expected false, inquire or true, got "${value}".`);
  return mode;
}

/** An absolute http(s) URL. */
export function parseHttpUrl(value: string, flag: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`${flag}: expected an absolute http(s) URL such as https://shop.example/return, got "${value}".`);
}

export function parseOutcome(value: string, flag = '--outcome'): OutcomeName {
  const name = value.trim().toLowerCase();
  if (!(OUTCOME_NAMES as readonly string[]).includes(name)) throw new UsageError(`${flag}: unknown outcome "${value}". Known: ${OUTCOME_NAMES.join(', ')}.`);
  return name as OutcomeName;
}

/** `P<n>D`, `PT<n>H` or `PT<n>M`, upper-cased; the API checks the range. */
export function parseDuration(value: string, flag = '--duration'): string {
  const text = value.trim().toUpperCase();
  // The sandbox's own rule (a link lasts more than nothing and at most 365 days): P0D is a usage error here.
  if (linkDurationMs(text) === undefined) throw new UsageError(`${flag}: expected P<n>D (1 to 365 days), PT<n>H or PT<n>M (e.g. P1D), got "${value}".`);
  return text;
}

/** A tracking code for a resource created without one: unique enough to never collide. */
export function generateTrackingCode(prefix: string): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

export function parseMonth(value: string, flag = '--expiry-month'): string {
  const n = Number(value);
  if (!/^\d{1,2}$/.test(value.trim()) || n < 1 || n > 12) throw new UsageError(`${flag}: expected 1 to 12, got "${value}".`);
  return String(n).padStart(2, '0');
}

export function parseYear(value: string, flag = '--expiry-year'): string {
  if (!/^(\d{2}|\d{4})$/.test(value.trim())) throw new UsageError(`${flag}: expected a year such as 2030 or 30, got "${value}".`);
  return value.trim();
}

export { collect, parseLimit, parseListLimit, parseSince, parseState, parseStatus } from './flag-parsers.js';
