/**
 * Currencies the sandbox knows, with their ISO 4217 minor units, and the amount rules of docs/api.md "Validation":
 * a finite number > 0, at most the currency's decimals, at most 999,999,999.
 */
const MINOR_UNITS: Record<string, number> = {
  // Three decimals
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // No decimals
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // Two decimals
  AED: 2,
  AFN: 2,
  ALL: 2,
  AMD: 2,
  ANG: 2,
  AOA: 2,
  ARS: 2,
  AUD: 2,
  AWG: 2,
  AZN: 2,
  BAM: 2,
  BBD: 2,
  BDT: 2,
  BGN: 2,
  BMD: 2,
  BND: 2,
  BOB: 2,
  BRL: 2,
  BSD: 2,
  BWP: 2,
  BYN: 2,
  BZD: 2,
  CAD: 2,
  CDF: 2,
  CHF: 2,
  CNY: 2,
  COP: 2,
  CRC: 2,
  CVE: 2,
  CZK: 2,
  DKK: 2,
  DOP: 2,
  DZD: 2,
  EGP: 2,
  ETB: 2,
  EUR: 2,
  FJD: 2,
  GBP: 2,
  GEL: 2,
  GHS: 2,
  GIP: 2,
  GMD: 2,
  GTQ: 2,
  GYD: 2,
  HKD: 2,
  HNL: 2,
  HTG: 2,
  HUF: 2,
  IDR: 2,
  ILS: 2,
  INR: 2,
  JMD: 2,
  KES: 2,
  KGS: 2,
  KHR: 2,
  KYD: 2,
  KZT: 2,
  LAK: 2,
  LBP: 2,
  LKR: 2,
  MAD: 2,
  MDL: 2,
  MKD: 2,
  MNT: 2,
  MOP: 2,
  MUR: 2,
  MVR: 2,
  MWK: 2,
  MXN: 2,
  MYR: 2,
  MZN: 2,
  NAD: 2,
  NGN: 2,
  NIO: 2,
  NOK: 2,
  NPR: 2,
  NZD: 2,
  PAB: 2,
  PEN: 2,
  PGK: 2,
  PHP: 2,
  PKR: 2,
  PLN: 2,
  QAR: 2,
  RON: 2,
  RSD: 2,
  RUB: 2,
  SAR: 2,
  SBD: 2,
  SCR: 2,
  SEK: 2,
  SGD: 2,
  SRD: 2,
  SZL: 2,
  THB: 2,
  TJS: 2,
  TOP: 2,
  TRY: 2,
  TTD: 2,
  TWD: 2,
  TZS: 2,
  UAH: 2,
  USD: 2,
  UYU: 2,
  UZS: 2,
  WST: 2,
  XCD: 2,
  YER: 2,
  ZAR: 2,
  ZMW: 2,
};

/** The largest amount the sandbox accepts. */
export const MAX_AMOUNT = 999_999_999;

/** Minor-unit decimals of a known currency (upper case), or undefined for an unknown one. */
export function minorUnits(currencyCode: string): number | undefined {
  return MINOR_UNITS[currencyCode];
}

/** True if `amount` has no more decimals than `decimals`. Uses the shortest decimal representation. */
export function hasAtMostDecimals(amount: number, decimals: number): boolean {
  const text = String(amount);
  if (text.includes('e')) {
    // Exponent notation appears only below 1e-6 (more decimals than any currency has) and from 1e21 on
    // (whole numbers). Scaling and comparing within 1e-9 instead let 1e-7 and 5e-324 EUR through.
    return !text.includes('e-');
  }
  const dot = text.indexOf('.');
  return dot === -1 || text.length - dot - 1 <= decimals;
}

/**
 * Why `code` (upper case) is not a currency the sandbox takes, or undefined when it is. The API's field
 * check and the CLI's prompts and flags both ask this, so they agree on every answer.
 */
export function currencyProblem(code: string): string | undefined {
  if (!/^[A-Z]{3}$/.test(code) || minorUnits(code) === undefined) return 'Expected an ISO 4217 currency code the sandbox knows, such as EUR.';
  return undefined;
}

/** Why `amount` is not an amount of `currencyCode` the sandbox takes, or undefined when it is. */
export function amountProblem(amount: number, currencyCode: string): string | undefined {
  if (!Number.isFinite(amount)) return 'Expected a number.';
  if (amount <= 0) return 'Must be greater than 0.';
  if (amount > MAX_AMOUNT) return `At most ${MAX_AMOUNT}.`;
  const decimals = minorUnits(currencyCode) ?? 2;
  if (!hasAtMostDecimals(amount, decimals)) return `${currencyCode} takes at most ${decimals} decimal${decimals === 1 ? '' : 's'}.`;
  return undefined;
}

/** Rounds to the currency's minor units, for sums of refunds and the like. */
export function roundToMinor(amount: number, currencyCode: string): number {
  const decimals = minorUnits(currencyCode) ?? 2;
  const factor = 10 ** decimals;
  return Math.round(amount * factor) / factor;
}

/**
 * Formats an amount for people, the one rule of the pages, the dashboard and the CLI: the currency's minor
 * units, thousands grouped with commas, the code after: `12.50 EUR`, `1,234,567.50 EUR`, `1,000 JPY`,
 * `1.250 KWD`. (The API answers amounts as JSON numbers; this is only for what people read.)
 */
export function formatAmount(amount: number, currencyCode: string): string {
  const [whole = '0', fraction] = Math.abs(amount)
    .toFixed(minorUnits(currencyCode) ?? 2)
    .split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${amount < 0 ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''} ${currencyCode}`;
}
