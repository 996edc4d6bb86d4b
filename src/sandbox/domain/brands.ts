/** Payment brands the sandbox knows (docs/api.md, "Validation"; the provider's clients' brands.xml). */

/**
 * How a brand is paid: `card` on the card form or with card data; `bank` a bank redirect (the customer
 * approves at the bank); `wallet` a redirect to the wallet provider; `invoice` a post-payment method that
 * answers at once; `debit` a direct debit from the bank account sent in `body.bank` (SEPA Direct Debit),
 * answered at once.
 */
export type BrandKind = 'card' | 'bank' | 'wallet' | 'invoice' | 'debit';

export interface Brand {
  id: number;
  name: string;
  kind: BrandKind;
  /** CVV length for card brands. */
  cvvLength?: number;
  /**
   * How a card brand's numbers are grouped, by length, where they are not in fours (domain/cards.ts,
   * `cardGroups`): American Express 4-6-5, Diners Club's 14 digits 4-6-4.
   */
  groups?: ReadonlyArray<readonly number[]>;
  /**
   * Currencies the brand takes (upper case). Card brands take every currency the sandbox knows; the others
   * take the currencies their scheme settled in.
   */
  currencies?: readonly string[];
  /** The brand's home country, answered as `body.bank.countryCode` when the request names none. */
  countryCode?: string;
  /**
   * How long the customer has on the bank's or wallet's page before the payment expires, from the brand's
   * sheet on the provider's portal ("Session timeout is the time when the consumer is redirected to his
   * bank and his session getting expired"). Absent: the sandbox's window for the brand's kind.
   */
  sessionTimeoutSeconds?: number;
}

/** PayPal's currencies (its published list, those the sandbox knows). */
const PAYPAL_CURRENCIES = [
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'ILS',
  'JPY',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'PLN',
  'RUB',
  'SEK',
  'SGD',
  'THB',
  'TWD',
  'USD',
] as const;

export const BRANDS: readonly Brand[] = [
  { id: 1010, name: 'VISA', kind: 'card', cvvLength: 3 },
  { id: 1011, name: 'Visa Electron', kind: 'card', cvvLength: 3 },
  { id: 1013, name: 'Visa Debit', kind: 'card', cvvLength: 3 },
  { id: 1015, name: 'VPay', kind: 'card', cvvLength: 3 },
  { id: 1020, name: 'MasterCard', kind: 'card', cvvLength: 3 },
  { id: 1023, name: 'MasterCard Debit', kind: 'card', cvvLength: 3 },
  { id: 1030, name: 'American Express', kind: 'card', cvvLength: 4, groups: [[4, 6, 5]] },
  { id: 1040, name: 'Discover', kind: 'card', cvvLength: 3 },
  { id: 1050, name: 'Maestro', kind: 'card', cvvLength: 3 },
  { id: 1060, name: 'Diners Club', kind: 'card', cvvLength: 3, groups: [[4, 6, 4]] },
  { id: 1090, name: 'JCB', kind: 'card', cvvLength: 3 },
  { id: 1210, name: 'Bancontact', kind: 'card', cvvLength: 3 },
  // Timeouts from the portal's brand sheets: iDEAL 600 s, Giropay 420 s.
  { id: 3010, name: 'iDEAL', kind: 'bank', currencies: ['EUR'], countryCode: 'NL', sessionTimeoutSeconds: 600 },
  // Sofort ran in several countries (DE, AT, NL, BE, CH, PL, GB): no home country, four currencies.
  { id: 3020, name: 'Sofort', kind: 'bank', currencies: ['EUR', 'CHF', 'GBP', 'PLN'] },
  { id: 3025, name: 'Giropay', kind: 'bank', currencies: ['EUR'], countryCode: 'DE', sessionTimeoutSeconds: 420 },
  { id: 3030, name: 'EPS', kind: 'bank', currencies: ['EUR'], countryCode: 'AT' },
  { id: 4010, name: 'PayPal', kind: 'wallet', currencies: PAYPAL_CURRENCIES },
  // AfterPay's countries: NL, BE, DE, AT (EUR), CH, SE, NO, DK.
  { id: 5020, name: 'AfterPay', kind: 'invoice', currencies: ['EUR', 'CHF', 'SEK', 'NOK', 'DKK'] },
  // SEPA Direct Debit's sheet: EUR; authorize, capture, partial capture, refund, recurring; 1800 s (docs/api.md,
  // "SEPA Direct Debit"). The same id is the SEPA credit brand of /credits ({@link SEPA_CREDIT}).
  { id: 6010, name: 'SEPA Direct Debit', kind: 'debit', currencies: ['EUR'], sessionTimeoutSeconds: 1800 },
];

/**
 * SEPA credit transfer (brand 6010): credits paid out to a bank account (`POST {api}/credits` with
 * `body.bank`). As a payment brand, 6010 is SEPA Direct Debit (in {@link BRANDS}).
 */
export const SEPA_CREDIT = { id: 6010, name: 'SEPA', currencies: ['EUR'] } as const;

const BY_ID = new Map(BRANDS.map((brand) => [brand.id, brand]));

export function brandById(id: number): Brand | undefined {
  return BY_ID.get(id);
}

/** Whether `brand` takes payments in `currencyCode` (upper case). */
export function brandTakesCurrency(brand: Brand, currencyCode: string): boolean {
  return brand.currencies === undefined || brand.currencies.includes(currencyCode);
}

/** Ids of every card brand, the default offer of `paylink link create`. */
export const CARD_BRAND_IDS: readonly number[] = BRANDS.filter((b) => b.kind === 'card').map((b) => b.id);

/**
 * Whether `brand` has a separate authorize-capture flow. Cards, AfterPay and SEPA Direct Debit do (its sheet
 * lists authorize, capture and partial capture): the portal's brand
 * sheets list no "Authorize -> capture" workflow for the bank and wallet brands, and the reference says an
 * `authorize` of such a brand "leads directly to a final payment", answered with action `payment`.
 */
export function brandAuthorizes(brand: Brand): boolean {
  return brand.kind === 'card' || brand.kind === 'invoice' || brand.kind === 'debit';
}

/** The window a waiting payment of `brandId` has on its bank or wallet page, in ms, when its sheet gives one. */
export function brandSessionMs(brandId: number): number | undefined {
  const seconds = brandById(brandId)?.sessionTimeoutSeconds;
  return seconds === undefined ? undefined : seconds * 1000;
}

/**
 * The brands a payment link offers when it is created without `body.link.brandIds`: the list the portal's
 * "Get Payment Link" and "Cancel Payment Link" answers show for such a link (1010 ... 4010, 6010, 5020,
 * 8010), in its order, less 8010 (no brand the sandbox knows). 6010 is SEPA Direct Debit.
 */
export const LINK_DEFAULT_BRAND_IDS: readonly number[] = [
  1010, 1011, 1013, 1020, 1023, 1030, 1040, 1050, 1060, 1090, 1210, 3010, 3020, 3025, 4010, 6010, 5020, 8010,
].filter((id) => BY_ID.has(id));
