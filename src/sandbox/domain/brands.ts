/** Payment brands the sandbox knows (SANDBOX.md, "Validation"; the provider's clients' brands.xml). */

/**
 * How a brand is paid: `card` on the card form or with card data; `bank` a bank redirect (the customer
 * approves at the bank); `wallet` a redirect to the wallet provider; `invoice` a post-payment method that
 * answers at once.
 */
export type BrandKind = 'card' | 'bank' | 'wallet' | 'invoice';

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
}

/** PayPal's currencies (its published list, those the sandbox knows). */
const PAYPAL_CURRENCIES = [
  'AUD', 'BRL', 'CAD', 'CHF', 'CNY', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD', 'HUF', 'ILS', 'JPY', 'MXN', 'MYR', 'NOK', 'NZD',
  'PHP', 'PLN', 'RUB', 'SEK', 'SGD', 'THB', 'TWD', 'USD',
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
  { id: 3010, name: 'iDEAL', kind: 'bank', currencies: ['EUR'], countryCode: 'NL' },
  // Sofort ran in several countries (DE, AT, NL, BE, CH, PL, GB): no home country, four currencies.
  { id: 3020, name: 'Sofort', kind: 'bank', currencies: ['EUR', 'CHF', 'GBP', 'PLN'] },
  { id: 3025, name: 'Giropay', kind: 'bank', currencies: ['EUR'], countryCode: 'DE' },
  { id: 3030, name: 'EPS', kind: 'bank', currencies: ['EUR'], countryCode: 'AT' },
  { id: 4010, name: 'PayPal', kind: 'wallet', currencies: PAYPAL_CURRENCIES },
  // AfterPay's countries: NL, BE, DE, AT (EUR), CH, SE, NO, DK.
  { id: 5020, name: 'AfterPay', kind: 'invoice', currencies: ['EUR', 'CHF', 'SEK', 'NOK', 'DKK'] },
];

/**
 * SEPA credit transfer (brand 6010): credits paid out to a bank account (`POST /gateway/v3/credits` with
 * `body.bank`), never a payment brand, so it is not among {@link BRANDS}.
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
