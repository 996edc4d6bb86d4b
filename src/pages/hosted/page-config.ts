/**
 * The data a hosted page hands its script, as JSON in `<script type="application/json" id="pl-config">`
 * (never executed). Types only, compiled twice: with the Node code (the pages build it: layout.ts) and with
 * the browser script (client/hosted-client.ts reads it), so both sides are checked against one shape. It
 * imports nothing: the browser compile has no Node types.
 */

/** The card rules of domain/ as data (domain/hosted-form.ts `cardRules`): the script detects and formats by them. */
export interface CardRules {
  /** Number ranges in the order they are tried (domain/cards.ts `CARD_RANGES`). */
  ranges: ReadonlyArray<{ brandId: number; from: string; to: string }>;
  /** Each card brand by id: its name, CVV length and the groups of its numbers where they are not fours. */
  brands: { readonly [brandId: string]: { name: string; cvvLength: number; groups?: ReadonlyArray<readonly number[]> | undefined } };
  /** Each test card's brand by its number (a test card's brand wins over its range). */
  testCards: { readonly [cardNumber: string]: number };
}

/** The names of the form fields the script reads (domain/hosted-form.ts `CARD_FIELDS`). */
export interface FieldNames {
  framed: string;
  action: string;
  cardNumber: string;
  expiryMonth: string;
  expiryYear: string;
  cvv: string;
  holderName: string;
}

/** Where a page sends the parent window's library an error (a page that offers no form). */
export interface TerminalError {
  code: number;
  message: string;
  state?: string | undefined;
}

export interface HostedPageConfig {
  /** The page's state, as on `<body data-paylink-state>`. */
  state: string;
  /** The library's style options and the custom property each sets. */
  styleMap: ReadonlyArray<{ group: string; option: string; property: string }>;
  fields: FieldNames;
  cards: CardRules;
  /** What is paid (card form pages). */
  kind?: string | undefined;
  /** The brands the card form accepts, in the merchant's order. */
  brandIds?: readonly number[] | undefined;
  /** The sandbox clock's year and month, for the past-expiry check. */
  now?: { year: number; month: number } | undefined;
  /** The end of the flow: the merchant's returnUrl to go to (or to post to the library when framed). */
  redirect?: string | undefined;
  /** A page without a form tells the library why. */
  terminal?: TerminalError | undefined;
  /**
   * The 3-D Secure page of a payment with no link or checkout: a merchant frames it itself (the embedded
   * 3-D Secure flow), not through the library, so a framed page shows at once instead of waiting for options.
   */
  embeddable?: boolean | undefined;
  /**
   * The end of an embedded 3-D Secure check: `message` goes to the parent window at `targetOrigin` (the
   * merchant's return address's origin, `*` without one), then the frame opens `next` (the return address).
   */
  embeddedEnd?: { message: unknown; targetOrigin: string; next?: string | undefined } | undefined;
}
