/**
 * The error catalogue: every failure the sandbox answers with is one of these entries, so the API, the
 * hosted pages and the CLI all speak the same result codes, HTTP statuses, integer codes and messages.
 * Handlers throw {@link ApiError}; `toEnvelope` in `envelope.ts` is the only place that serializes one.
 */

/** Body `result` values and their `description`, as the result-code table of docs/api.md lists them. */
export const RESULTS = {
  ok: { result: 0, description: 'Ok' },
  success: { result: 0, description: 'Success' },
  completed: { result: 0, description: 'Completed' },
  /** A credit to a bank account on its way (SEPA): the provider's 1. */
  waiting: { result: 1, description: 'Waiting' },
  pending: { result: 2, description: 'Pending' },
  timeout: { result: 4, description: 'Timeout' },
  inputError: { result: -1, description: 'Input error' },
  failed: { result: -2, description: 'Failed' },
  failedRetry: { result: -3, description: 'Failed, retry' },
  declined: { result: -4, description: 'Declined' },
  declinedRetry: { result: -5, description: 'Declined, retry' },
  securityError: { result: -6, description: 'Security error' },
  internalError: { result: -7, description: 'Internal server error' },
  businessRule: { result: -8, description: 'Business rule error' },
  fraud: { result: -9, description: 'Fraud' },
  customerProcessing: { result: -10, description: 'Customer processing error' },
  referral: { result: -11, description: 'Referrals' },
} as const;

export type ResultKind = keyof typeof RESULTS;

/** The HTTP status each failing result is answered with (docs/api.md). */
const HTTP_STATUS_OF_RESULT: Record<number, number> = {
  [-1]: 400,
  [-2]: 400,
  [-3]: 400,
  [-4]: 400,
  [-5]: 400,
  [-6]: 401,
  [-7]: 500,
  [-8]: 400,
  [-9]: 400,
  [-10]: 400,
  [-11]: 400,
};

/** HTTP status for a body `result`. */
export function httpStatusOfResult(result: number): number {
  return HTTP_STATUS_OF_RESULT[result] ?? 200;
}

/**
 * Integer error codes in `body.error.code`. 1002 and 1004 are the provider's; the rest are paylink's own,
 * each listed in docs/api.md (keep that table in step with this one).
 */
export const ERROR_CODES = {
  invalidValue: 1002,
  missingProperty: 1004,
  malformedJson: 1005,
  bodyTooLarge: 1006,
  unreadableRequest: 1007,
  notFound: 1404,
  methodNotAllowed: 1405,
  unauthorized: 1401,
  forbidden: 1403,
  duplicateTrackingCode: 2001,
  notPayable: 2002,
  invalidTransition: 2003,
  declined: 3001,
  insufficientFunds: 3002,
  expiredCard: 3003,
  cvvMismatch: 3004,
  notATestCard: 3005,
  processingFailed: 3006,
  processingFailedRetry: 3007,
  declinedRetry: 3008,
  businessRule: 3009,
  fraud: 3010,
  customerCancelled: 3011,
  referral: 3012,
  internalError: 3013,
  threeDSecureFailed: 3014,
  /** The provider's own code for an AfterPay decline (the PHP SDK's AfterpayErrorMessageHelper). */
  afterpayDeclined: 300400800,
  misdirectedRequest: 1421,
  storageBusy: 9001,
  storageFull: 9002,
  storageCorrupt: 9003,
  storageReadOnly: 9004,
  faultTooManyRequests: 9429,
  faultInternalError: 9500,
  faultUnavailable: 9503,
  unexpected: 9999,
} as const;

/** A failure the sandbox answers in a payment or status body: its result, `body.error.code` and message. */
export interface Failure {
  kind: ResultKind;
  code: number;
  message: string;
}

/**
 * Every failure of a payment, a bank payment or a checkout, by name. Messages never mention a card number:
 * they are stored and logged. The test-card outcomes (domain/outcomes.ts) pick theirs from here.
 */
export const FAILURES = {
  declined: { kind: 'declined', code: ERROR_CODES.declined, message: 'Declined by the issuer.' },
  insufficientFunds: { kind: 'declined', code: ERROR_CODES.insufficientFunds, message: 'Declined: insufficient funds.' },
  expiredCard: { kind: 'declined', code: ERROR_CODES.expiredCard, message: 'Declined: the card has expired.' },
  cvvMismatch: { kind: 'declined', code: ERROR_CODES.cvvMismatch, message: 'Declined: the CVV does not match.' },
  failed: { kind: 'failed', code: ERROR_CODES.processingFailed, message: 'Processing failed at the issuer.' },
  failedRetry: { kind: 'failedRetry', code: ERROR_CODES.processingFailedRetry, message: 'Processing failed; retry the payment, the next attempt can succeed.' },
  declinedRetry: { kind: 'declinedRetry', code: ERROR_CODES.declinedRetry, message: 'Declined for now; retry the payment, the next attempt can succeed.' },
  businessRule: { kind: 'businessRule', code: ERROR_CODES.businessRule, message: 'Refused by a business rule of the acquirer.' },
  fraud: { kind: 'fraud', code: ERROR_CODES.fraud, message: 'Refused: suspected fraud.' },
  customerCancelled: { kind: 'customerProcessing', code: ERROR_CODES.customerCancelled, message: 'The customer cancelled the payment at the issuer.' },
  referral: { kind: 'referral', code: ERROR_CODES.referral, message: 'Referral: the issuer asks the customer to contact them.' },
  internalError: { kind: 'internalError', code: ERROR_CODES.internalError, message: 'Internal error at the issuer (test card for HTTP 500).' },
  notATestCard: {
    kind: 'declined',
    code: ERROR_CODES.notATestCard,
    message: 'Declined: the sandbox takes only test cards, so that no real card is ever processed. See docs/test-cards.md.',
  },
  // The provider's AfterPay decline: its message is one of AfterPay's fixed reasons, which the PHP SDK's
  // AfterpayErrorMessageHelper reads ('Age is under 18' -> age.under.18).
  afterpayUnderAge: { kind: 'declined', code: ERROR_CODES.afterpayDeclined, message: 'Age is under 18' },
  threeDSecureFailed: {
    kind: 'customerProcessing',
    code: ERROR_CODES.threeDSecureFailed,
    message: 'The 3-D Secure challenge failed or was cancelled by the customer.',
  },
  bankCancelled: { kind: 'customerProcessing', code: ERROR_CODES.customerCancelled, message: 'The customer cancelled the payment at the bank.' },
  bankFailed: { kind: 'failed', code: ERROR_CODES.processingFailed, message: 'The bank could not process the payment.' },
  walletCancelled: { kind: 'customerProcessing', code: ERROR_CODES.customerCancelled, message: 'The customer cancelled the payment at the wallet.' },
  walletFailed: { kind: 'failed', code: ERROR_CODES.processingFailed, message: 'The wallet could not process the payment.' },
  // The provider's words for a bank payment its authorization system declined (recorded iDEAL answer).
  bankDeclined: { kind: 'declined', code: ERROR_CODES.declined, message: 'Transaction declined by authorization system' },
  walletDeclined: { kind: 'declined', code: ERROR_CODES.declined, message: 'Transaction declined by the wallet' },
  checkoutDeclined: {
    kind: 'declined',
    code: ERROR_CODES.declined,
    message: 'The checkout was declined: its payment attempts failed. Create a new checkout to try again.',
  },
  checkoutDeclinedByCustomer: {
    kind: 'customerProcessing',
    code: ERROR_CODES.customerCancelled,
    message: 'The customer declined the payment on the hosted page.',
  },
} as const satisfies Record<string, Failure>;

/** `body.error` of a failure. */
export function errorOf(failure: Failure): { code: number; message: string } {
  return { code: failure.code, message: failure.message };
}

/** `body.error` as the provider answered it: `code`, `message` and `detailedMessage` (the message again where there is no more detail). */
export function errorBody(error: { code: number; message: string; detailedMessage?: string | undefined }): {
  code: number;
  message: string;
  detailedMessage: string;
} {
  return { code: error.code, message: error.message, detailedMessage: error.detailedMessage ?? error.message };
}

export interface ApiErrorInit {
  /** Body `result` (negative for failures). */
  result: number;
  /** Body `description`; defaults to the result's description. */
  description?: string;
  /** HTTP status; defaults to the status of the result. */
  httpStatus?: number;
  /** `body.error.code`. */
  code: number;
  /** `body.error.message`: what failed and, where it helps, what to do next. */
  message: string;
  /** Extra fields merged into `body` next to `error` (a payment entry for a declined payment, say). */
  body?: Record<string, unknown>;
  /** Extra response headers, such as `WWW-Authenticate`. */
  headers?: Record<string, string>;
  /**
   * Answer the HTTP status with no body at all, where the provider's recorded answer was that (a GET of
   * an unknown payment id: a bare 404). docs/api.md lists each such place.
   */
  bare?: boolean;
  /** The request field an input error is about (`body.card.cvv`), and the hint given about it. */
  field?: { path: string; hint?: string | undefined };
}

/** A failure the sandbox answers with an envelope (the CLI maps what it receives to its own exit codes). */
export class ApiError extends Error {
  readonly result: number;
  readonly description: string;
  readonly httpStatus: number;
  readonly code: number;
  readonly body: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly field: { path: string; hint?: string | undefined } | undefined;
  readonly bare: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.result = init.result;
    this.description = init.description ?? describeResult(init.result);
    this.httpStatus = init.httpStatus ?? httpStatusOfResult(init.result);
    this.code = init.code;
    this.body = init.body;
    this.headers = init.headers;
    this.field = init.field;
    this.bare = init.bare ?? false;
  }
}

/** The description that goes with a body `result`. */
export function describeResult(result: number): string {
  for (const entry of Object.values(RESULTS)) {
    if (entry.result === result && result !== 0) return entry.description;
  }
  return result === 0 ? 'Ok' : 'Failed';
}

// The catalogue. Messages name the field by its path, as the provider does.

export const missingProperty = (path: string): ApiError =>
  new ApiError({ result: -1, code: ERROR_CODES.missingProperty, message: `Property not found in request: ${path}.`, field: { path } });

export const invalidValue = (path: string, hint?: string): ApiError =>
  new ApiError({
    result: -1,
    code: ERROR_CODES.invalidValue,
    message: `Invalid property value: ${path}.${hint ? ` ${hint}` : ''}`,
    field: { path, hint },
  });

export const malformedJson = (detail: string): ApiError =>
  new ApiError({
    result: -1,
    code: ERROR_CODES.malformedJson,
    message: `Malformed JSON in request body: ${detail}. Send a JSON object of the form {"header": {...}, "body": {...}}.`,
  });

export const bodyTooLarge = (limit: number): ApiError =>
  new ApiError({
    result: -1,
    httpStatus: 413,
    code: ERROR_CODES.bodyTooLarge,
    message: `Request body is larger than ${limit} bytes.`,
    // The rest of the body is not read; the connection is not reused.
    headers: { connection: 'close' },
  });

/** A request Node's HTTP parser refused before any route saw it (431 for a URL or headers over 16 KB). */
export const unreadableRequest = (httpStatus: number, detail: string): ApiError =>
  new ApiError({
    result: -1,
    httpStatus,
    code: ERROR_CODES.unreadableRequest,
    message: `The request could not be read: ${detail}.`,
    headers: { connection: 'close' },
  });

/**
 * Unknown id, or another business's. `bare`: answered as a 404 with no body, where the provider's recorded
 * answer was that (docs/api.md, "Compatibility with the provider's clients").
 */
export const notFound = (what: string, options: { bare?: boolean } = {}): ApiError =>
  new ApiError({
    ...options,
    result: -2,
    description: 'Not found',
    httpStatus: 404,
    code: ERROR_CODES.notFound,
    // Another business's resource is not found either: say so, it is the usual cause in a sandbox.
    message: `${what} not found. Check the id and the businessId: each business sees only its own.`,
  });

export const routeNotFound = (method: string, path: string): ApiError =>
  new ApiError({
    result: -2,
    description: 'Not found',
    httpStatus: 404,
    code: ERROR_CODES.notFound,
    message: `No endpoint ${method} ${path}. See docs/api.md for the endpoints the sandbox serves.`,
  });

export const methodNotAllowed = (method: string, path: string, allowed: string[]): ApiError =>
  new ApiError({
    result: -1,
    httpStatus: 405,
    code: ERROR_CODES.methodNotAllowed,
    message: `${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`,
    headers: { allow: allowed.join(', ') },
  });

/** Authentication failures carry no detail, as the provider's do (docs/api.md). */
export const unauthorized = (): ApiError =>
  new ApiError({
    result: -6,
    httpStatus: 401,
    code: ERROR_CODES.unauthorized,
    message: 'Security error.',
    headers: { 'www-authenticate': 'Basic realm="paylink sandbox"' },
  });

export const forbidden = (): ApiError => new ApiError({ result: -6, httpStatus: 403, code: ERROR_CODES.forbidden, message: 'Security error.' });

/** 403 for a request carrying a webhook delivery's mark: a delivery never acts on a sandbox (docs/webhooks.md). */
export const deliveryRefused = (): ApiError =>
  new ApiError({
    result: -6,
    httpStatus: 403,
    code: ERROR_CODES.forbidden,
    message:
      'Security error: this is a webhook delivery (x-paylink-delivery), and a sandbox takes no webhook deliveries. Point the notifyUrl or endpoint at your application instead.',
  });

export const duplicateTrackingCode = (path: string): ApiError =>
  new ApiError({
    result: -8,
    code: ERROR_CODES.duplicateTrackingCode,
    message: `Duplicate value: ${path} is already used by this business. Use a unique trackingCode per request.`,
  });

/** -8 for a link or checkout the customer can no longer pay (paid, expired, cancelled, declined). */
export const notPayable = (kind: 'link' | 'checkout', status: string): ApiError =>
  businessRule(`This ${kind === 'link' ? 'payment link' : 'checkout'} cannot be paid any more: it is ${status}.`, ERROR_CODES.notPayable);
export const businessRule = (message: string, code: number = ERROR_CODES.businessRule): ApiError => new ApiError({ result: -8, code, message });

/**
 * The database could not be used for this request; `kind` is store/failures.ts's. A busy database (another
 * process holds its write lock) is retry-able: 503, result -3 and `Retry-After`; the others need the
 * developer, and say what to do.
 */
export const storageFailed = (kind: 'busy' | 'full' | 'corrupt' | 'readonly' | 'io'): ApiError => {
  switch (kind) {
    case 'busy':
      return new ApiError({
        result: -3,
        httpStatus: 503,
        code: ERROR_CODES.storageBusy,
        message:
          'The sandbox database is locked by another process (a sqlite3 shell or another program holding a write transaction). Nothing was changed; retry in a moment.',
        headers: { 'retry-after': '1' },
      });
    case 'full':
      return new ApiError({
        result: -7,
        httpStatus: 507,
        code: ERROR_CODES.storageFull,
        message: 'The disk holding the sandbox database is full, so nothing was changed. Free some space and retry.',
        headers: { 'retry-after': '5' },
      });
    case 'corrupt':
      return new ApiError({
        result: -7,
        code: ERROR_CODES.storageCorrupt,
        message: 'The sandbox database file is corrupt. Stop the sandbox and start it with a new --db file (or delete this one to start empty).',
      });
    case 'readonly':
    case 'io':
      return new ApiError({
        result: -7,
        code: ERROR_CODES.storageReadOnly,
        message: `The sandbox database file cannot be written (${kind === 'io' ? 'an I/O error' : 'it is read-only'}), so nothing was changed. Check the file and its folder, then restart the sandbox.`,
      });
  }
};

/** 421: the Host header names a host the sandbox does not serve (DNS rebinding, see http/guards.ts). */
export const misdirectedRequest = (host: string): ApiError =>
  new ApiError({
    result: -6,
    httpStatus: 421,
    code: ERROR_CODES.misdirectedRequest,
    message: `This sandbox does not answer for host "${host}". Use localhost or the address it listens on, or start it with --allowed-host ${host.replace(/:\d+$/, '')}.`,
  });

export const internalError = (): ApiError =>
  new ApiError({ result: -7, code: ERROR_CODES.unexpected, message: 'Unexpected error in the sandbox; see its console output.' });

/**
 * The envelope a `status` fault answers with, as the provider answered that status: 503, 502 and 504
 * `-3 Failed, retry` with `Retry-After` (nothing was done: retrying is right), 429 the same, 500 `-7
 * Internal server error`, 401 and 403 `-6 Security error` exactly as the real credential checks answer.
 */
export function faultError(status: 401 | 403 | 429 | 500 | 502 | 503 | 504): ApiError {
  switch (status) {
    case 401:
      return unauthorized();
    case 403:
      return forbidden();
    case 429:
      return new ApiError({
        result: -3,
        httpStatus: 429,
        code: ERROR_CODES.faultTooManyRequests,
        message: 'Too many requests; nothing was done. Retry after the time in Retry-After (an API fault of the sandbox).',
        headers: { 'retry-after': '1' },
      });
    case 500:
      return new ApiError({
        result: -7,
        httpStatus: 500,
        code: ERROR_CODES.faultInternalError,
        message: 'Internal server error; nothing was done (an API fault of the sandbox).',
      });
    case 502:
    case 503:
    case 504:
      return new ApiError({
        result: -3,
        httpStatus: status,
        code: ERROR_CODES.faultUnavailable,
        message: 'The service is temporarily unavailable; nothing was done. Retry the request (an API fault of the sandbox).',
        headers: { 'retry-after': '1' },
      });
  }
}
