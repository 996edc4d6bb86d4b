/**
 * Types of `paylink/library`: the browser library for merchants who bundle it (docs/api.md). Copied to
 * `dist/library/index.d.ts` by `scripts/build.mjs`. Hand-written: the implementation is an ES5 script.
 */

/** A CSS length with one of the units the spec allows: em, ex, %, px, cm, mm, in, pt, pc (e.g. `"14px"`). */
export type CssLength = string;

export interface GeneralStyles {
  /** @default "Source Sans Pro, Arial, Verdana" */
  fontFamily?: string;
  /** URL of a stylesheet that provides the font. @default "" (no external font) */
  fontFamilyUrl?: string;
  /** Iframe background colour. @default "#f6f7fb" */
  backgroundColor?: string;
  /** @default "#213d8f" */
  primaryThemeColor?: string;
  /** @default "#909ec7" */
  accentThemeColor?: string;
  /** @default "#909ec7" */
  secondaryThemeColor?: string;
  /** @default "#1db9de" */
  infoThemeColor?: string;
  /** @default "#fec61f" */
  warningThemeColor?: string;
  /** @default "#e6493a" */
  errorThemeColor?: string;
  /** @default "#35ba6d" */
  successThemeColor?: string;
}

export interface FormStyles {
  /** @default "#ffffff" */
  backgroundFormColor?: string;
  /** @default "#ffffff" */
  backgroundFormContainerColor?: string;
  /** @default "14px" */
  fontSize?: CssLength;
  /** @default "1px" */
  borderWidth?: CssLength;
  /** @default "2px" */
  borderRadius?: CssLength;
}

export interface PaymentButtonStyles {
  /** @default "#ffffff" */
  fontColor?: string;
  /** Alias of `fontColor` (the spelling of the spec's option table). */
  fontColot?: string;
  /** @default "#8ec03f" */
  backgroundColor?: string;
  /** @default "#8ec03f" */
  borderColor?: string;
  /** @default "16px" */
  fontSize?: CssLength;
  /** @default "1px" */
  borderWidth?: CssLength;
  /** @default "2px" */
  borderRadius?: CssLength;
}

export interface IframeStyles {
  /** @default "100%" */
  width?: CssLength;
  /** Ignored once the page reports its height when `autoHeight` is true. @default "780px" */
  height?: CssLength;
}

export interface Styles {
  /** Shop logo URL. @default "" (no logo) */
  imageUrl?: string;
  /** The iframe's height follows the form's height. @default false */
  autoHeight?: boolean;
  generalStyles?: GeneralStyles;
  formStyles?: FormStyles;
  paymentButtonStyles?: PaymentButtonStyles;
  iframe?: IframeStyles;
}

export interface LibraryOptions {
  /** `false` loads the form from the staging base, `true` from the live base. @default false */
  live?: boolean;
  /** Shows the decline button. @default true */
  showDeclineButton?: boolean;
  /** Alias of `showDeclineButton` (the spelling of the spec's option table). */
  showDeclinebutton?: boolean;
  styles?: Styles;
  /**
   * Where the hosted form lives: one base URL (e.g. your sandbox, `http://localhost:8417`), or one per
   * target. Required in the npm build; the scripts a sandbox serves default to that sandbox.
   */
  baseUrl?: string | { staging?: string; live?: string };
}

/** `event.detail` of the `paymentlink-error` / `checkout-error` events raised on `document`. */
export interface EmbedErrorDetail {
  code?: number;
  message?: string;
  /** The hosted page's state, e.g. `expired`, `notfound`, `paid`. */
  state?: string;
  [key: string]: unknown;
}

declare class Embed {
  /** Every option with its default filled in, as sent to the hosted page. */
  readonly options: Required<Pick<LibraryOptions, 'live' | 'showDeclineButton'>> & { styles: Required<Styles> };
  /** The hosted page's URL. */
  readonly url: string;
  /** Puts the form in the container. Throws `ReferenceError` when the element does not exist. */
  render(): this;
  /** Shows the form. Throws `ReferenceError` before `render()`. */
  show(): this;
  /** Hides the form. Throws `ReferenceError` before `render()`. */
  hide(): this;
}

/** Embeds a payment link's hosted form. Throws `ReferenceError` when an argument or the base URL is missing. */
export declare class PaymentLink extends Embed {
  constructor(linkId: string, containerElementId: string, options?: LibraryOptions);
}

/** Embeds a checkout's hosted form. Raises `checkout-error` on `document`. */
export declare class Checkout extends Embed {
  constructor(checkoutId: string, containerElementId: string, options?: LibraryOptions);
}

declare global {
  interface DocumentEventMap {
    'paymentlink-error': CustomEvent<EmbedErrorDetail>;
    'checkout-error': CustomEvent<EmbedErrorDetail>;
  }
}
