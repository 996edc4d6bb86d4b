/**
 * The hosted form's contract, written once: what the card form and the 3-D Secure form post (field names,
 * button values, limits), what each one-time form token is signed for (its target), the fields a test card
 * is filled with, and the form-token protocol (issue, verify). The pages render from it, the web handlers
 * and the submission service read posts by it, the CLI's page player and `paylink/testing` fill forms by it,
 * and the browser script receives it as page data.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BRANDS } from './brands.js';
import { CARD_RANGES, cvvLength, HOLDER_NAME_MAX } from './cards.js';
import { TEST_CARDS } from './test-cards.js';

/** The names of the card form's fields (docs/hosted-pages.md, "The card form"). */
export const CARD_FIELDS = {
  formToken: 'formToken',
  framed: 'framed',
  action: 'action',
  cardNumber: 'cardNumber',
  expiryMonth: 'expiryMonth',
  expiryYear: 'expiryYear',
  cvv: 'cvv',
  holderName: 'holderName',
  saveCard: 'saveCard',
  /** One-click checkouts: the saved card (token) chosen instead of a typed card. */
  savedToken: 'savedToken',
} as const;

/** The names of the 3-D Secure form's fields. */
export const CHALLENGE_FIELDS = { formToken: 'formToken', framed: 'framed', action: 'action', code: 'code' } as const;

/** The value a ticked save-card box posts. */
export const SAVE_CARD_ON = 'on';

/** The `action` values: the card form's two buttons and the challenge's two. */
export const FORM_ACTIONS = { pay: 'pay', decline: 'decline', submit: 'submit', cancel: 'cancel' } as const;

/**
 * The marks the hosted pages carry for tests and tools to find things by (docs/testing.md, "Page contract"):
 * attribute names. The pages render them, `paylink/testing` and the CLI's page player read them; ids and
 * classes are not a contract.
 */
export const PAGE_MARKS = {
  /** On `<body>`: where the customer is (`form`, `challenge`, `paid`, ...). */
  state: 'data-paylink-state',
  /** On a `<form>`: which one it is ({@link PAGE_FORMS}). */
  form: 'data-paylink-form',
  /** On a field: its name. */
  field: 'data-paylink-field',
  /** On a button: its `action` value. */
  action: 'data-paylink-action',
  /** On each brand a card form accepts (its id), and on a bank or wallet page (the brand's name). */
  brand: 'data-paylink-brand',
  /** On the `<body>` of an embedded 3-D Secure challenge: its window size code. */
  window: 'data-paylink-window',
  /** On the message region: `error` or `info`. */
  alert: 'data-paylink-alert',
  /** On a saved card's radio button: the card's last four digits. */
  savedCard: 'data-paylink-saved-card',
  /** On a saved card's radio button: the card's brand id. */
  savedBrand: 'data-paylink-saved-brand',
  /** On the notice that a 3-D Secure 2 check runs on 1.0. */
  downgraded: 'data-paylink-downgraded',
} as const;

/**
 * The id of the `<script type="application/json">` element a hosted page hands its data in
 * (pages/hosted/page-config.ts: the card rules, and `now`, the sandbox clock's year and month). The browser
 * script, compiled alone with no imports of values, spells it itself.
 */
export const PAGE_CONFIG_ID = 'pl-config';

/** The forms {@link PAGE_MARKS}`.form` tells apart. */
export const PAGE_FORMS = { card: 'card', saved: 'saved', challenge: 'challenge' } as const;

/** The `framed` value a page posts from inside the library's iframe. */
export const FRAMED_ON = '1';

/** Longest values the card form takes (its `maxlength`s; a re-shown form keeps no more). */
export const FIELD_LIMITS = {
  /** 19 digits and the spaces between their groups. */
  cardNumber: 23,
  expiryMonth: 2,
  expiryYear: 4,
  /** The longest CVV of any brand (American Express). */
  cvv: 4,
  holderName: HOLDER_NAME_MAX,
} as const;

/**
 * What a one-time form token is signed for: the form of a link, of a checkout, of a card redirect payment,
 * or a payment's 3-D Secure challenge. `owner` names the record whose id follows the prefix, so a
 * per-business reset can find every target of a business's records.
 */
export const FORM_TARGETS = {
  link: { prefix: 'link:', owner: 'link' },
  checkout: { prefix: 'checkout:', owner: 'checkout' },
  payment: { prefix: 'payment:', owner: 'payment' },
  challenge: { prefix: '3ds:', owner: 'payment' },
} as const satisfies Record<string, { prefix: string; owner: 'link' | 'checkout' | 'payment' }>;

export type FormTargetKind = keyof typeof FORM_TARGETS;

/** The target of the form of `kind` for the record `id`, e.g. `link:pl_...`. */
export function formTarget(kind: FormTargetKind, id: string): string {
  return `${FORM_TARGETS[kind].prefix}${id}`;
}

/** The fields a test card is filled with beside its number: a valid future expiry, a CVV of the brand's length, a name. */
export interface FilledCardFields {
  expiryMonth: string;
  expiryYear: string;
  cvv: string;
  holderName: string;
}

/** The name a filled form carries when none is given. */
export const DEFAULT_HOLDER_NAME = 'Test Customer';

/** The CVV a test card of `brandId` is filled with: `123`, or `1234` for a brand that takes 4 digits. */
export function testCardCvv(brandId: number | undefined): string {
  return '1234'.slice(0, cvvLength(brandId));
}

/** The fields a test card of `brandId` is filled with when the year is `year` (the sandbox clock's). */
export function defaultCardFields(brandId: number | undefined, year: number): FilledCardFields {
  return { expiryMonth: '12', expiryYear: String(year + 3), cvv: testCardCvv(brandId), holderName: DEFAULT_HOLDER_NAME };
}

/**
 * The card rules the hosted page's script runs by, as data (it receives them in the page): the brand
 * ranges, each card brand's name, CVV length and number groups, and each test card's brand.
 */
export const CARD_RULES = {
  ranges: CARD_RANGES,
  brands: Object.fromEntries(
    BRANDS.filter((b) => b.kind === 'card').map((b) => [String(b.id), { name: b.name, cvvLength: cvvLength(b.id), groups: b.groups }]),
  ),
  testCards: Object.fromEntries(TEST_CARDS.map((card) => [card.number, card.brandId])),
};

// ---- The form-token protocol ----

/** How long a form token is taken (sandbox time): a day is far longer than any page stays open. */
export const FORM_TOKEN_TTL_MS = 24 * 3_600_000;
/** Bytes of a token: the issue time (8), a random nonce (12), the HMAC's first 16 bytes. */
const TIME_BYTES = 8;
const NONCE_BYTES = 12;
const MAC_BYTES = 16;

function formTokenMac(secret: string | Buffer, target: string, issued: Buffer, nonce: Buffer): Buffer {
  return createHmac('sha256', secret).update(target).update('\0').update(issued).update(nonce).digest().subarray(0, MAC_BYTES);
}

/**
 * A new one-time token for the form of `target`, issued at `now`. It carries its own proof (the issue time
 * and a random nonce, signed with `secret` over the target), so showing a page stores nothing.
 */
export function issueFormToken(secret: string | Buffer, target: string, now: number): string {
  const issued = Buffer.alloc(TIME_BYTES);
  issued.writeDoubleBE(now);
  const nonce = randomBytes(NONCE_BYTES);
  return Buffer.concat([issued, nonce, formTokenMac(secret, target, issued, nonce)]).toString('base64url');
}

/**
 * The issue time of `token` when it was signed with `secret` for `target` and is not older than
 * {@link FORM_TOKEN_TTL_MS} at `now`; undefined for a forged, altered, foreign or expired one.
 */
export function verifyFormToken(secret: string | Buffer, token: string, target: string, now: number): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== TIME_BYTES + NONCE_BYTES + MAC_BYTES) return undefined;
  const issued = bytes.subarray(0, TIME_BYTES);
  const nonce = bytes.subarray(TIME_BYTES, TIME_BYTES + NONCE_BYTES);
  const mac = bytes.subarray(TIME_BYTES + NONCE_BYTES);
  if (!timingSafeEqual(mac, formTokenMac(secret, target, issued, nonce))) return undefined;
  const time = issued.readDoubleBE();
  if (!Number.isFinite(time) || now - time > FORM_TOKEN_TTL_MS) return undefined;
  return time;
}
