/**
 * Webhook events as the provider sent them (REPORT.md "W. Webhook contract"): which change of a payment is
 * an event, the event's body byte for byte, and the retry schedule of its deliveries. Pure: records and
 * times in, values out; services/events.ts stores them, services/webhook-delivery.ts sends them.
 */
import type { PaymentRecord, TokenRecord } from './records.js';

/**
 * The event types the provider's portal lists ("Webhooks"): Transaction and Tokenization, each Create and
 * Update. Its SDKs do not check the type, they read the payload, and only a payment's: the PHP SDK's event
 * builder throws on a payload without `body.transaction`.
 */
export type EventType = 'Transaction.Create' | 'Transaction.Update' | 'Tokenization.Create' | 'Tokenization.Update';
export const EVENT_TYPES: readonly EventType[] = ['Transaction.Create', 'Transaction.Update', 'Tokenization.Create', 'Tokenization.Update'];
/**
 * What an endpoint registered without a list of types receives: the Transaction events. Tokenization
 * events go only to endpoints that name them, so a handler built on the provider's SDKs never meets a
 * payload they cannot read.
 */
export const DEFAULT_EVENT_TYPES: readonly EventType[] = ['Transaction.Create', 'Transaction.Update'];

/** The event a write of a token is: a new token is `Tokenization.Create`; a change of what it holds `Tokenization.Update`. */
export function tokenEventType(before: TokenRecord | undefined, after: TokenRecord): EventType | undefined {
  if (before === undefined) return 'Tokenization.Create';
  const changed =
    before.expiryMonth !== after.expiryMonth ||
    before.expiryYear !== after.expiryYear ||
    before.holderName !== after.holderName ||
    JSON.stringify(before.customer) !== JSON.stringify(after.customer);
  return changed ? 'Tokenization.Update' : undefined;
}

/**
 * The event a write of a payment is: every new payment is `Transaction.Create`; a later write is
 * `Transaction.Update` when it changes what the merchant acts on (result, description, captured or
 * refunded amount, cancelled), and no event otherwise.
 */
export function paymentEventType(before: PaymentRecord | undefined, after: PaymentRecord): EventType | undefined {
  if (before === undefined) return 'Transaction.Create';
  const changed =
    before.result !== after.result ||
    before.description !== after.description ||
    before.capturedAmount !== after.capturedAmount ||
    before.refundedAmount !== after.refundedAmount ||
    Boolean(before.cancelled) !== Boolean(after.cancelled);
  return changed ? 'Transaction.Update' : undefined;
}

/**
 * The key deliveries are ordered by: the original payment, so a capture's or refund's events never overtake
 * the events of the authorization or payment they follow up.
 */
export function orderKeyOf(payment: PaymentRecord): string {
  return payment.parentPaymentId ?? payment.id;
}

/**
 * `CreateTime` with seven fraction digits, as the provider wrote it (`2019-01-24T13:58:54.9541272Z`); both
 * SDKs read it as a date.
 */
export function eventTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 23)}0000Z`;
}

/** The body's fields in the provider's order and PascalCase: the PHP SDK deletes keys already in lower case. */
export interface EventBody {
  Id: string;
  Type: EventType;
  CreateTime: string;
  Message: string;
  /** The payment's answer exactly as a GET of it gives it (`paymentEnvelope`); any object for a custom event. */
  Payload: object;
}

const EVENT_MESSAGES: Record<EventType, string> = {
  'Transaction.Create': 'A payment was created.',
  'Transaction.Update': 'A payment was updated.',
  'Tokenization.Create': 'A token was created.',
  'Tokenization.Update': 'A token was updated.',
};

export function eventBody(id: string, type: EventType, createdAt: number, payload: object): EventBody {
  return {
    Id: id,
    Type: type,
    CreateTime: eventTime(createdAt),
    Message: EVENT_MESSAGES[type],
    Payload: payload,
  };
}

/**
 * CRC-32/IEEE of the UTF-8 bytes of `text` (zlib's, PHP's `hash('crc32b')`). node:zlib is taken when the
 * first event is signed, not imported: loading it costs every sandbox start about 2 ms.
 */
export function crc32Of(text: string | Buffer): number {
  return process.getBuiltinModule('node:zlib').crc32(text) >>> 0;
}

/**
 * The body's exact text. The provider's JS SDK writes the CRC in hex without zero padding, so it rejects
 * every correctly signed body whose CRC-32 is below 0x10000000 (one in sixteen). Both SDKs accept every
 * body this returns: when the compact JSON has such a CRC, one more space after the opening brace is tried
 * until it does not (JSON readers ignore it). The signature is always the correct one.
 */
export function serializeEvent(body: EventBody): string {
  const compact = JSON.stringify(body);
  let text = compact;
  for (let spaces = 1; crc32Of(text) < 0x10000000 && spaces <= 64; spaces++) text = `{${' '.repeat(spaces)}${compact.slice(1)}`;
  return text;
}

/** When to try again after each failed attempt, in ms; the last entry is the last retry. */
export type RetrySchedule = readonly number[];

/**
 * The documented schedule (docs/webhooks.md): the first attempt at once, then retries after 5 s, 30 s,
 * 2 min, 10 min, 30 min, 1 h, 3 h and 6 h (nine attempts over about 11 hours), then the delivery fails.
 */
export const STANDARD_RETRY_SCHEDULE: RetrySchedule = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000];

/** For tests and CI (`--webhook-retry fast`): the same nine attempts within about 5 seconds. */
export const FAST_RETRY_SCHEDULE: RetrySchedule = [50, 100, 200, 400, 600, 800, 1_000, 1_500];

/** Wait before the attempt after `attempts` failed ones, or undefined when the schedule is spent. */
export function retryDelay(schedule: RetrySchedule, attempts: number): number | undefined {
  return schedule[attempts - 1];
}

/**
 * Faults a webhook endpoint (or `paylink listen`) applies to its deliveries, to test the merchant's handler.
 * `badSignature` and `tamperedBody` deliveries are probes: the merchant must refuse them, and a 2xx answer
 * is recorded as a finding.
 */
export interface WebhookFaults {
  /** Send every delivery twice (same event Id): the handler must be idempotent. */
  duplicate?: boolean | undefined;
  /** Send the events of one payment newest first. */
  outOfOrder?: boolean | undefined;
  /** Hold each delivery this many milliseconds before its first attempt. */
  delayMs?: number | undefined;
  /** Sign with another secret. */
  badSignature?: boolean | undefined;
  /** Change the body after signing it. */
  tamperedBody?: boolean | undefined;
}

export const FAULT_NAMES = ['duplicate', 'out-of-order', 'bad-signature', 'tampered-body'] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** Faults from names (`duplicate`, `out-of-order`, `bad-signature`, `tampered-body`) and a delay. */
export function faultsOf(names: readonly string[], delayMs?: number): WebhookFaults {
  const faults: WebhookFaults = {};
  for (const name of names) {
    if (name === 'duplicate') faults.duplicate = true;
    else if (name === 'out-of-order') faults.outOfOrder = true;
    else if (name === 'bad-signature') faults.badSignature = true;
    else if (name === 'tampered-body') faults.tamperedBody = true;
  }
  if (delayMs !== undefined && delayMs > 0) faults.delayMs = delayMs;
  return faults;
}

/** The names of the faults set, for display. */
export function faultNames(faults: WebhookFaults | undefined): string[] {
  if (!faults) return [];
  const names: string[] = [];
  if (faults.duplicate) names.push('duplicate');
  if (faults.outOfOrder) names.push('out-of-order');
  if (faults.delayMs) names.push(`delay ${faults.delayMs}ms`);
  if (faults.badSignature) names.push('bad-signature');
  if (faults.tamperedBody) names.push('tampered-body');
  return names;
}

/** A delivery that the merchant must refuse (a forged signature or a changed body). */
export function isProbe(faults: WebhookFaults | undefined): boolean {
  return faults?.badSignature === true || faults?.tamperedBody === true;
}

/**
 * The body as a tampered delivery sends it: the payload's amount raised by one (or, without one, its
 * result changed), so the CRC no longer matches and the change matters to a merchant who skips the check.
 */
export function tamperBody(text: string): string {
  const changed = text.replace(/"amount":(-?\d+(?:\.\d+)?)/, (_m, n: string) => `"amount":${Number(n) + 1}`);
  return changed !== text ? changed : text.replace(/"result":(-?\d+)/, (_m, n: string) => `"result":${Number(n) === 0 ? -1 : 0}`);
}

/** Only the last four characters of a secret, for every display after its creation. */
export function maskSecret(secret: string): string {
  return `…${secret.slice(-4)}`;
}
