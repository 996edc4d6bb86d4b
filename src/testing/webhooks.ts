/**
 * `webhookReceiver({ secret })`: a merchant's webhook endpoint for tests, on port 0. It verifies every
 * delivery as the provider's SDKs do (an HS256 JWT over the header and claims with the webhook secret; the
 * `crc32` claim equal to the CRC-32 of the exact body bytes, little-endian, base64url; `transmissionId`
 * equal to the body's `Id`), answers 200 to a good one and 400 to a bad one, and hands the events out in
 * arrival order with `next()`. A delivery that fails verification makes every waiting and later `next()`
 * reject with what was wrong: a test cannot pass on a forged or changed event by accident.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
// The header's name only: the verification below is written from the provider's SDKs, not shared with the sandbox's signer.
import { DEFAULT_SIGNATURE_HEADER } from '../sandbox/domain/webhook-signature.js';

export interface WebhookReceiverOptions {
  /** The webhook secret (`TestSandbox.webhookSecret`, or what `paylink sandbox` printed). */
  secret: string;
  /**
   * The header carrying the signature.
   * @default "x-payvision-signature"
   */
  header?: string;
  /**
   * Path deliveries are posted to (others get 404).
   * @default "/webhooks"
   */
  path?: string;
}

/** One verified delivery. */
export interface ReceivedEvent {
  /** The body's `Id` (the same on every delivery of one event). */
  id: string;
  /** `Transaction.Create` or `Transaction.Update`. */
  type: string;
  /** The payment the event is about. */
  paymentId: string;
  /** The parsed body (`Id`, `Type`, `CreateTime`, `Message`, `Payload`: the payment's answer envelope). */
  body: {
    Id: string;
    Type: string;
    CreateTime: string;
    Message?: string;
    Payload: { result?: number; body?: Record<string, unknown>; [key: string]: unknown };
  };
  /** The exact text received. */
  raw: string;
  /** The verified claims of the signature. */
  claims: { transmissionId: string; timestamp: string; hookId: string; crc32: string };
  headers: Record<string, string | string[] | undefined>;
}

/** What `next()` waits for; every given field must match. */
export interface EventMatch {
  type?: 'Transaction.Create' | 'Transaction.Update' | string;
  paymentId?: string;
  /**
   * How long to wait.
   * @default 10000
   */
  timeoutMs?: number;
}

/** A delivery that failed verification, with why. */
export class WebhookVerificationError extends Error {
  constructor(
    message: string,
    readonly raw: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface WebhookReceiver {
  /** The URL to register (`TestSandbox.addWebhook(receiver.url)`, or as a notifyUrl). */
  readonly url: string;
  /** Every verified event so far, in arrival order. */
  readonly events: readonly ReceivedEvent[];
  /** Every delivery that failed verification so far. */
  readonly failures: readonly WebhookVerificationError[];
  /**
   * The first verified event matching `match` not handed out by an earlier `next()`, waiting for it; rejects
   * after `timeoutMs`, and at once when a delivery failed verification.
   */
  next(match?: EventMatch): Promise<ReceivedEvent>;
  close(): Promise<void>;
}

function base64url(text: string): Buffer {
  return Buffer.from(text, 'base64url');
}

/** Verifies one delivery; throws {@link WebhookVerificationError} saying what is wrong. */
export function verifyDelivery(raw: Buffer, signature: string | undefined, secret: string): ReceivedEvent['claims'] & { body: ReceivedEvent['body'] } {
  const text = raw.toString('utf8');
  const fail = (why: string): never => {
    throw new WebhookVerificationError(`webhook delivery failed verification: ${why}`, text);
  };
  if (signature === undefined || signature === '') return fail('no signature header');
  const parts = signature.split('.');
  if (parts.length !== 3) return fail('the signature is not a compact JWT');
  const [head, payload, mac] = parts as [string, string, string];
  let header: { alg?: string };
  let claims: Partial<ReceivedEvent['claims']>;
  try {
    header = JSON.parse(base64url(head).toString('utf8')) as { alg?: string };
    claims = JSON.parse(base64url(payload).toString('utf8')) as Partial<ReceivedEvent['claims']>;
  } catch {
    return fail('the signature header or claims are not JSON');
  }
  if (header.alg !== 'HS256') return fail(`the signature uses ${String(header.alg)}, not HS256`);
  const expected = createHmac('sha256', secret).update(`${head}.${payload}`).digest();
  const given = base64url(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('bad signature (not made with this secret)');
  const crcBytes = Buffer.alloc(4);
  crcBytes.writeUInt32LE(crc32(raw) >>> 0);
  if (claims.crc32 !== crcBytes.toString('base64url')) return fail('the body was changed: its CRC-32 does not match the signed crc32 claim');
  let body: ReceivedEvent['body'];
  try {
    body = JSON.parse(text) as ReceivedEvent['body'];
  } catch {
    return fail('the body is not JSON');
  }
  if (claims.transmissionId !== body.Id) return fail(`the signed transmissionId ${String(claims.transmissionId)} is not the body's Id ${String(body.Id)}`);
  return { transmissionId: claims.transmissionId, timestamp: String(claims.timestamp), hookId: String(claims.hookId), crc32: claims.crc32, body };
}

function paymentIdOf(body: ReceivedEvent['body']): string {
  const payment = body.Payload?.body as { id?: unknown; transaction?: { id?: unknown } } | undefined;
  return String(payment?.id ?? payment?.transaction?.id ?? '');
}

/** Starts a receiver on 127.0.0.1, port 0. */
export async function webhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const header = (options.header ?? DEFAULT_SIGNATURE_HEADER).toLowerCase();
  const path = options.path ?? '/webhooks';
  const events: ReceivedEvent[] = [];
  const failures: WebhookVerificationError[] = [];
  const taken = new Set<ReceivedEvent>();
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://receiver').pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      try {
        const verified = verifyDelivery(raw, req.headers[header] as string | undefined, options.secret);
        const { body, ...claims } = verified;
        events.push({ id: body.Id, type: body.Type, paymentId: paymentIdOf(body), body, raw: raw.toString('utf8'), claims, headers: { ...req.headers } });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      } catch (error) {
        failures.push(error instanceof WebhookVerificationError ? error : new WebhookVerificationError(String(error), raw.toString('utf8')));
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: (error as Error).message }));
      }
      wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    events,
    failures,
    next(match: EventMatch = {}) {
      const timeoutMs = match.timeoutMs ?? 10_000;
      const find = () =>
        events.find(
          (e) => !taken.has(e) && (match.type === undefined || e.type === match.type) && (match.paymentId === undefined || e.paymentId === match.paymentId),
        );
      return new Promise<ReceivedEvent>((resolve, reject) => {
        const check = () => {
          if (failures.length > 0) {
            done();
            reject(failures[0]);
            return;
          }
          const found = find();
          if (found === undefined) return;
          taken.add(found);
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          const wanted = [match.type, match.paymentId && `payment ${match.paymentId}`].filter(Boolean).join(' for ') || 'any event';
          reject(new Error(`webhookReceiver: no ${wanted} arrived within ${timeoutMs} ms (${events.length} received, ${failures.length} failed verification)`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
