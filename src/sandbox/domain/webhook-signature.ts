/**
 * The event signature the provider sent with each webhook (REPORT.md "W. Webhook contract"): an HS256 JWT
 * signed with the webhook secret's UTF-8 bytes, claims `transmissionId` (the body's Id), `timestamp`,
 * `hookId` and `crc32`. No `iat`, `nbf` or `exp`: the provider sent none, and the SDKs would check them
 * against the merchant's clock. Pure.
 */
import { createHmac } from 'node:crypto';
import { crc32Of } from './events.js';

/** The header the sandbox sends the signature in, unless configured otherwise (the SDKs do not name one). */
export const DEFAULT_SIGNATURE_HEADER = 'x-payvision-signature';

/**
 * The `crc32` claim: CRC-32/IEEE of the exact body bytes, its four bytes little-endian (the big-endian
 * digest reversed), base64url without padding; always six characters.
 */
export function crc32Claim(body: string | Buffer): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(crc32Of(body));
  return bytes.toString('base64url');
}

export interface SignatureClaims {
  /** The body's `Id`. */
  transmissionId: string;
  /** ISO 8601 time of signing. */
  timestamp: string;
  /** The endpoint's id (the merchant sees which hook sent it). */
  hookId: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/** The compact JWS for `body` (its exact text, as sent). */
export function signEvent(body: string, secret: string, claims: SignatureClaims): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, crc32: crc32Claim(body) })).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

/** A signature that no holder of `secret` accepts: the same claims signed with another key. */
export function forgeSignature(body: string, secret: string, claims: SignatureClaims): string {
  return signEvent(body, `not-${secret}`, claims);
}
