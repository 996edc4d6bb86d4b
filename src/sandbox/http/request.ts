/**
 * Reading requests safely: bodies with a size limit, JSON that never throws past an input error, and the
 * merchant's `businessId`.
 *
 * Why not h3's `readBody`: h3 1.x reads a body whole, with no size limit, and its JSON parsing answers
 * its own error shape; the sandbox must refuse more than 1 MiB with a 413 envelope (and drain, not destroy,
 * the request) and answer every bad body with the provider's envelope (1005). Throughput does not decide
 * it: a body is read once per POST either way.
 */
import type { IncomingMessage } from 'node:http';
import { isObject, type JsonObject } from './fields.js';
import { refuseControlCharacters } from '../domain/text.js';
import { bodyTooLarge, malformedJson, missingProperty, invalidValue, ApiError } from '../errors.js';

/** Largest request body the sandbox reads (1 MiB); larger ones are answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads the raw body, refusing more than {@link MAX_BODY_BYTES}.
 *
 * Listeners rather than `for await`: leaving an async iterator early destroys the request, and a
 * destroyed request under a response still being written crashed listhen's connection tracking. An
 * oversized body is instead left to drain unread while the 413 goes out with `connection: close`.
 *
 * The listeners stay until the request is gone, and do nothing once the promise is settled (the 'close'
 * that follows every request among them): removing the four was about 1% of the samples of a CPU profile
 * of the POST path in process (docs/benchmarks.md, fifth pass).
 */
export function readRawBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(bodyTooLarge(limit));
  }
  return new Promise<Buffer>((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: ApiError): void => {
      settled = true;
      chunks = [];
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        req.resume();
        fail(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      chunks = [];
    });
    const unreadable = (why: string): void => {
      if (!settled) fail(malformedJson(`the request body could not be read (${why})`));
    };
    req.on('error', (error: Error) => unreadable(error.message));
    // A client that goes away mid-body may end the request with 'close' only.
    req.on('close', () => unreadable('the client closed the connection'));
  });
}

/**
 * The JSON object of a body read by {@link readRawBody}, with its text as received (the request log
 * reuses it). Malformed JSON, an empty body or a value that is not an object is an input error (400, -1),
 * never a 500.
 */
export function parseJsonObject(raw: Buffer): { value: JsonObject; text: string } {
  if (raw.length === 0) throw malformedJson('the body is empty');
  // A UTF-8 byte order mark (Windows tools write one) is not part of the JSON: RFC 8259 lets a parser skip it.
  const text = raw.toString('utf8', raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? 3 : 0);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw malformedJson(parseProblem(error));
  }
  if (!isObject(value)) throw malformedJson('expected a JSON object');
  if (text.length > 2 * MAX_JSON_DEPTH && jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw malformedJson(`nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  return { value, text };
}

/**
 * Deepest nesting of arrays and objects a JSON body may have. JSON.parse takes thousands of levels, but
 * serializing such a value again overflows the stack: the request log kept it and then every read of the
 * log (`/__sandbox/requests`, the dashboard) answered 500.
 */
const MAX_JSON_DEPTH = 256;

/** Whether brackets nest deeper than `limit` in valid JSON `text` (strings skipped). Only long texts can. */
function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * What `JSON.parse` objected to, without the excerpt of the body V8 quotes in some messages
 * (`Unexpected token 'x', ..."cvv":"987",x}" is not valid JSON`): it could hold a CVV or card digits, and
 * the message goes back in the answer and into the request log.
 */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/,\s*(?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, ' (not valid JSON)');
}

/** An `application/x-www-form-urlencoded` body (the hosted pages' forms). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const raw = await readRawBody(req, 64 * 1024);
  return new URLSearchParams(raw.toString('utf8'));
}

/** `header.businessId` of a POST body; missing is 400 with code 1004. */
export function businessIdFromBody(body: JsonObject): string {
  const header = body.header;
  if (header === undefined || header === null) throw missingProperty('header.businessId');
  if (!isObject(header)) throw invalidValue('header', 'Expected an object.');
  return checkBusinessId(header.businessId, 'header.businessId');
}

/** The `businessId` query parameter of a GET; missing is 400 with code 1004. */
export function businessIdFromQuery(query: URLSearchParams): string {
  return checkBusinessId(query.get('businessId') ?? undefined, 'businessId');
}

function checkBusinessId(value: unknown, path: string): string {
  if (value === undefined || value === null || value === '') throw missingProperty(path);
  // The provider's clients configure the business id as a number (its JS SDK's README: `businessId: 123456`).
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  // String(50) in the provider's reference.
  if (typeof value !== 'string' || value.length > 50) throw invalidValue(path, 'Expected a string of at most 50 characters.');
  refuseControlCharacters(value, path);
  return value;
}

export { ApiError };
