/** Payment brands the sandbox knows (SANDBOX.md, "Validation"). */
export interface Brand {
  id: number;
  name: string;
  /** A card brand (taken on the card form) or a bank redirect brand. */
  kind: 'card' | 'bank';
  /** CVV length for card brands. */
  cvvLength?: number;
}

export const BRANDS: readonly Brand[] = [
  { id: 1010, name: 'VISA', kind: 'card', cvvLength: 3 },
  { id: 1011, name: 'Visa Electron', kind: 'card', cvvLength: 3 },
  { id: 1013, name: 'Visa Debit', kind: 'card', cvvLength: 3 },
  { id: 1015, name: 'VPay', kind: 'card', cvvLength: 3 },
  { id: 1020, name: 'MasterCard', kind: 'card', cvvLength: 3 },
  { id: 1023, name: 'MasterCard Debit', kind: 'card', cvvLength: 3 },
  { id: 1030, name: 'American Express', kind: 'card', cvvLength: 4 },
  { id: 1040, name: 'Discover', kind: 'card', cvvLength: 3 },
  { id: 1050, name: 'Maestro', kind: 'card', cvvLength: 3 },
  { id: 1060, name: 'Diners Club', kind: 'card', cvvLength: 3 },
  { id: 1090, name: 'JCB', kind: 'card', cvvLength: 3 },
  { id: 1210, name: 'Bancontact', kind: 'card', cvvLength: 3 },
  { id: 3010, name: 'iDEAL', kind: 'bank' },
];

const BY_ID = new Map(BRANDS.map((brand) => [brand.id, brand]));

export function brandById(id: number): Brand | undefined {
  return BY_ID.get(id);
}

/** Ids of every card brand, the default offer of `paylink link create`. */
export const CARD_BRAND_IDS: readonly number[] = BRANDS.filter((b) => b.kind === 'card').map((b) => b.id);
