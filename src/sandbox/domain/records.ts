/**
 * The stored shape of every resource. Records are what the store keeps; API responses are built from them
 * by the `api/` layer. No record ever holds a full card number or a CVV.
 */

/** What every stored resource has: an id, its business and an optional tracking code. */
export interface StoredDocument {
  id: string;
  businessId: string;
  trackingCode?: string | undefined;
  createdAt: number;
}

/** `authorizationMode` of a link, checkout or payment, upper case. */
export type AuthorizationMode = 'PAYMENT' | 'AUTHORIZE';

/** `tokenize` of a link or checkout: never, at the customer's choice (a checkbox), or always. */
export type Tokenize = 'FALSE' | 'INQUIRE' | 'TRUE';

/**
 * The merchant's references the provider's reference lists in `body.transaction` beside the amount, stored
 * as sent and echoed in the answers: the store (sub-account), the invoice and purchase of the order, and the
 * customer's country and language.
 */
export interface TransactionReferences {
  storeId?: number | undefined;
  invoiceId?: string | undefined;
  purchaseId?: string | undefined;
  /** ISO 3166-1 alpha-2, upper case. */
  countryCode?: string | undefined;
  /** ISO 639-1, lower case. */
  languageCode?: string | undefined;
}

export interface TransactionFields extends TransactionReferences {
  amount: number;
  /** Upper case. */
  currencyCode: string;
  authorizationMode: AuthorizationMode;
  trackingCode?: string | undefined;
  /** `body.transaction.notifyUrl`: where webhook events about its payments go (docs/webhooks.md). */
  notifyUrl?: string | undefined;
  /** A link's `type` (the portal's example: `SINGLE`), upper case, echoed. */
  type?: string | undefined;
  /** A link's statement descriptor, echoed. */
  descriptor?: string | undefined;
}

/** Stored link status; `EXPIRED` is derived from the clock at read time, never stored. */
export type LinkStoredStatus = 'READY' | 'PENDING' | 'PAID' | 'DECLINED' | 'DECLINEDBYCUSTOMER' | 'CANCELLED';
export type LinkStatus = LinkStoredStatus | 'EXPIRED';

export interface LinkRecord extends StoredDocument {
  kind: 'link';
  transaction: TransactionFields;
  brandIds: number[];
  returnUrl: string;
  /** The duration as sent (upper case), e.g. `P1D`. */
  duration: string;
  expiresAt: number;
  status: LinkStoredStatus;
  tokenize: Tokenize;
  threeDSecure: boolean;
  /** `body.threeDSecure.version` as sent: the version its payments' 3-D Secure results name. */
  threeDSecureVersion?: string | undefined;
  /** Number of card submissions (approved or not). */
  attempts: number;
  /** Payment ids of every attempt, oldest first. */
  paymentIds: string[];
  /** When the status last changed. */
  updatedAt: number;
}

/** Stored checkout state; `TIMEOUT` is derived from the clock at read time (30 minutes), never stored. */
export type CheckoutStoredState = 'PENDING' | 'PAID' | 'DECLINED' | 'DECLINEDBYCUSTOMER';
export type CheckoutState = CheckoutStoredState | 'TIMEOUT';

export interface CheckoutRecord extends StoredDocument {
  kind: 'checkout';
  transaction: TransactionFields;
  brandIds: number[];
  returnUrl: string;
  expiresAt: number;
  state: CheckoutStoredState;
  tokenize: Tokenize;
  /** Created with `body.checkout.threeDSecure: true`: approved cards go through the challenge first. */
  threeDSecure?: boolean | undefined;
  /** `body.threeDSecure.version` as sent. */
  threeDSecureVersion?: string | undefined;
  /** One-click: what `body.checkout.oneClick` (or the portal's `checkout.tokens`/`useCustomerTokens`) asked for, echoed. */
  oneClick?: OneClickRequest | undefined;
  /** `body.customer.customerId` of a one-click checkout with customer tokens. */
  customerId?: string | undefined;
  /** The saved cards the hosted form offers (token ids of the business), resolved when the checkout is created. */
  savedTokens?: string[] | undefined;
  /** True while a 3-D Secure challenge is open. */
  challengeOpen: boolean;
  attempts: number;
  paymentIds: string[];
  updatedAt: number;
}

/**
 * How 3-D Secure went for a payment that sent `body.threeDSecure` (the SDKs' ResponseThreeDSecure): the
 * protocol version, whether the card is enrolled (`Y`/`N`), the authentication's result (`Y` authenticated,
 * `N` failed), and for 3DS 2.x the flow (`FRICTIONLESS` or `CHALLENGE`). With external MPI data the
 * merchant authenticated already: the answer carries its `eci` and no flow.
 */
export interface ThreeDSecureResult {
  version: string;
  enrollmentResult?: 'Y' | 'N' | undefined;
  authenticationResult?: 'Y' | 'N' | undefined;
  flow?: 'FRICTIONLESS' | 'CHALLENGE' | undefined;
  eci?: string | undefined;
}

/** A one-click checkout's request (the portal's One-Click Checkout page, the SDKs' OneClick class). */
export interface OneClickRequest {
  /** Specific tokens to offer, as sent. */
  tokens?: string[] | undefined;
  /** Offer every token saved for `body.customer.customerId`. */
  useCustomerTokens?: boolean | undefined;
  /** False: a saved card is paid without its security code (default: asked). */
  requireCvv?: boolean | undefined;
  /** Saved cards go through the 3-D Secure challenge. */
  threeDSecure?: boolean | undefined;
}

/** Upper-case actions; returned lower case in `body.transaction.action`. */
/** `CREDIT` is a payout to a card (`{api}/credits`), kept apart from payments by its action. */
export type PaymentAction = 'PAYMENT' | 'AUTHORIZE' | 'CAPTURE' | 'CANCEL' | 'REFUND' | 'CREDIT';

export interface CardSummary {
  approvalCode: string;
  cvvResult: string;
  avsResult: string;
  expiryMonth: string;
  expiryYear: string;
  firstSixDigits: string;
  lastFourDigits: string;
  holderName: string;
}

/** `body.redirect` of a pending payment. */
export interface PaymentRedirect {
  method: 'GET' | 'POST';
  url: string;
  /** Form fields to post (wallets), string to string. */
  fields?: Record<string, string> | undefined;
}

/** The page a redirect payment is completed on: the hosted card form, the bank or the wallet simulator. */
export type RedirectFlow = 'card' | 'bank' | 'wallet';

/** `body.bank` of a bank payment, as the provider answered it (every value a string). */
export interface BankDetails {
  /** The bank or scheme (the brand's name: iDEAL, Sofort...). */
  name?: string;
  countryCode?: string;
  issuerId?: string;
  /** The payer's account, known once the payment succeeded (sandbox values, docs/api.md). */
  accountHolderName?: string;
  /** The payer's account number at the bank (iDEAL: the IBAN's last ten digits). */
  accountNumber?: string;
  iban?: string;
  bic?: string;
}

/** A bank account sent in `body.bank`: paid to by a SEPA credit, debited by a SEPA Direct Debit payment. */
export interface BankAccount {
  countryCode?: string | undefined;
  accountHolderName: string;
  iban: string;
  bic?: string | undefined;
}

export interface PaymentRecord extends StoredDocument {
  kind: 'payment';
  action: PaymentAction;
  /** The link or checkout this attempt belongs to, if it was made on a hosted page. */
  parentKind?: 'link' | 'checkout' | undefined;
  parentId?: string | undefined;
  /** For capture, cancel and refund: the original payment. */
  parentPaymentId?: string | undefined;
  result: number;
  description: string;
  /** HTTP status the creation was answered with. */
  httpStatus: number;
  error?: { code: number; message: string } | undefined;
  requestCode: string;
  requestTimestamp: string;
  amount: number;
  currencyCode: string;
  brandId: number;
  card?: CardSummary | undefined;
  token?: { token: string; displayHint: string } | undefined;
  /**
   * Where the customer goes while the payment is pending: the card form, the 3-D Secure page, the bank or
   * wallet simulator. A wallet's is a form post (`method` POST with `fields`).
   */
  redirect?: PaymentRedirect | undefined;
  /**
   * A redirect payment (created without card data): which page the customer completes it on. Kept once the
   * payment is settled, so the page can show how it ended.
   */
  flow?: RedirectFlow | undefined;
  /** A redirect payment's `body.transaction.returnUrl`: where the browser goes once the customer acted. */
  returnUrl?: string | undefined;
  /** A card redirect payment's `body.transaction.tokenize`: save the card the customer enters. */
  tokenize?: boolean | undefined;
  /** The statement descriptor the merchant sent, echoed in `body.transaction`. */
  descriptor?: string | undefined;
  /** `storeId`, `invoiceId`, `purchaseId`, `countryCode`, `languageCode` as sent, echoed in `body.transaction`. */
  references?: TransactionReferences | undefined;
  /** `body.transaction.notifyUrl` of a direct payment; hosted-page payments and follow-ups use their parent's. */
  notifyUrl?: string | undefined;
  /** Bank payments: the request's country and issuer, the bank's name, and the payer's account once paid. */
  bank?: BankDetails | undefined;
  /**
   * A SEPA credit waiting (result 1): when it settles, in sandbox-clock milliseconds (docs/api.md,
   * "Credits to a bank account"). Gone once it settled.
   */
  settlesAt?: number | undefined;
  /** For authorizations and payments: how much was captured, refunded, and whether it was cancelled. */
  capturedAmount?: number | undefined;
  refundedAmount?: number | undefined;
  cancelled?: boolean | undefined;
  /**
   * A payment waiting for 3-D Secure (result 2): what the challenge needs to finish it. Never card data:
   * the token fingerprint is a keyed hash, the behaviour an outcome name.
   */
  /** `body.threeDSecure` of a direct card payment that sent one: how 3-D Secure went (answered as `body.threeDSecure`). */
  threeDSecure?: ThreeDSecureResult | undefined;
  challenge?:
    | {
        behaviour: string;
        cvvPresented: boolean;
        tokenize?: { fingerprint: string; behaviour: string; displayHint: string; customerId?: string | undefined } | undefined;
        /** `threeDSecure.additionalInfo.challengeWindowSize` of the request: the embedded challenge's size. */
        windowSize?: string | undefined;
        /** A 3DS 2.x request the card's issuer could only take as 3-D Secure 1.0 (the downgrade). */
        downgraded?: true | undefined;
      }
    | undefined;
  updatedAt: number;
}

export interface TokenRecord extends StoredDocument {
  kind: 'token';
  /** Same value as `id`: the token string. */
  token: string;
  brandId: number;
  displayHint: string;
  firstSixDigits: string;
  lastFourDigits: string;
  expiryMonth: string;
  expiryYear: string;
  holderName: string;
  /**
   * The test-card behaviour this token replays (the outcome row of the card it was made from), so a token
   * of the decline card declines; never the card number itself.
   */
  behaviour: string;
  /**
   * Keyed hash (HMAC with a per-database secret) of business, card number and expiry: the same card gives
   * the same token without the number being stored.
   */
  fingerprint: string;
  customer?: Record<string, unknown> | undefined;
}
