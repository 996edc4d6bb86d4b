/**
 * `paylink api <METHOD> <path> [--data JSON | --data @file]`: any request to the API, with the base URL,
 * HTTP Basic credentials and the business id filled in (`businessId` in a GET's query, `header.businessId`
 * in a POST's body, unless given), printing the answer as it came, like `stripe get` / `stripe post`.
 */
import type { Args, Options } from '../command-spec.js';
import type { api as spec } from './api.spec.js';
import { readFileSync } from 'node:fs';
import { ApiResponseError, UsageError, type ErrorEnvelope } from '../errors.js';
import type { CommandContext } from '../context.js';
import { API_BASE } from '../../sandbox/domain/routes.js';

/**
 * `-d`/`--data`, repeatable: at most one JSON document (`{...}`, `@file` to read one, or `@-` for standard
 * input) and any number of `path=value` parameters (`body.transaction.amount=10`).
 */
export type ApiFlags = Options<typeof spec>;

/** Path segments a parameter may not name: they would reach the object's prototype, not a field. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/** A `-d path=value` parameter: its dotted path and its value. */
export interface ApiParameter {
  path: string[];
  value: unknown;
}

/**
 * `path=value` of `-d`, or undefined for a document (`{...}`, `@file`, anything else not of that shape). The value is a number or a boolean
 * when it reads as one in JSON (`10`, `12.5`, `true`), a string given in JSON quotes (`"10"`) stays a
 * string, anything else is the text as given.
 */
export function parameterOf(text: string): ApiParameter | undefined {
  if (text.startsWith('@') || text.trimStart().startsWith('{')) return undefined;
  const match = /^([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)=([\s\S]*)$/.exec(text);
  // Not path=value: a JSON document, refused by the document's checks if it is not one.
  if (!match) return undefined;
  const path = match[1]!.split('.');
  const forbidden = path.find((segment) => FORBIDDEN_SEGMENTS.has(segment));
  if (forbidden !== undefined) throw new UsageError(`-d ${match[1]}: "${forbidden}" is not a field name a request may set.`);
  const raw = match[2]!;
  let value: unknown = raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'number' || typeof parsed === 'boolean' || (typeof parsed === 'string' && raw.startsWith('"'))) value = parsed;
  } catch {
    // Not JSON: the text as given.
  }
  return { path, value };
}

/** Sets `parameter` in `target`, creating the objects on its path; a path through a value that is not an object is refused. */
function setParameter(target: Record<string, unknown>, parameter: ApiParameter): void {
  let at: Record<string, unknown> = target;
  parameter.path.forEach((segment, i) => {
    if (i === parameter.path.length - 1) {
      at[segment] = parameter.value;
      return;
    }
    const next = Object.hasOwn(at, segment) ? at[segment] : undefined;
    if (next === undefined) at[segment] = {};
    else if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      throw new UsageError(`-d ${parameter.path.join('.')}: ${parameter.path.slice(0, i + 1).join('.')} is already a value, not an object.`);
    }
    at = at[segment] as Record<string, unknown>;
  });
}

export interface ApiCall {
  method: 'GET' | 'POST';
  /** The path under the base URL, `{api}/...`. */
  path: string;
  query: Record<string, string>;
  body?: Record<string, unknown> | undefined;
}

/**
 * What to send for `paylink api METHOD PATH`: the path under `{api}/` unless it starts with
 * `/gateway/` (`payments/abc`, `/payments/abc` and `{api}/payments/abc` are the same), its query
 * string kept, the body read from `--data`.
 */
export function apiCallOf(
  method: string,
  path: string,
  flags: ApiFlags,
  readInput: (file: string) => string = (file) => readFileSync(file === '-' ? 0 : file, 'utf8'),
): ApiCall {
  const verb = method.toUpperCase();
  if (verb !== 'GET' && verb !== 'POST') throw new UsageError(`The API takes GET and POST, not "${method}". Example: paylink api GET payments/<id>`);
  if (/^https?:\/\//i.test(path))
    throw new UsageError('Give the path only (payments/<id>); the base URL comes from --base-url, PAYLINK_BASE_URL or the config file.');
  const q = path.indexOf('?');
  const rawPath = q < 0 ? path : path.slice(0, q);
  const trimmed = rawPath.replace(/^\/+/, '');
  // The API only: `../../__sandbox/reset` (or `%2e%2e`, or a backslash) would leave /gateway/ for the
  // sandbox's admin endpoints, which take the admin token, not the merchant's credentials.
  if (trimmed.split(/[\\/]/).some((segment) => leavesPath(segment)) || rawPath.includes('\\')) {
    throw new UsageError(
      `"${rawPath}" leaves the API: give a path under the API base (payments/<id>) without "." or ".." segments. The sandbox's own endpoints have their commands (paylink reset, clock, logs...).`,
    );
  }
  const fullPath = /^gateway(\/|$)/i.test(trimmed) ? `/${trimmed}` : `${API_BASE}/${trimmed}`;
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(q < 0 ? '' : path.slice(q + 1))) query[key] = value;
  const given = flags.data ?? [];
  const documents: string[] = [];
  const parameters: ApiParameter[] = [];
  for (const text of given) {
    const parameter = parameterOf(text);
    if (parameter === undefined) documents.push(text);
    else parameters.push(parameter);
  }
  if (documents.length > 1) throw new UsageError('--data: give one JSON document; add fields to it with -d path=value.');
  if (verb === 'GET') {
    if (documents.length > 0)
      throw new UsageError('--data goes with POST: a GET sends its parameters in the path (payments?trackingCode=order-0001) or as -d name=value.');
    // A GET's parameters are its query string: one name each, no nesting.
    for (const parameter of parameters) {
      if (parameter.path.length > 1)
        throw new UsageError(`-d ${parameter.path.join('.')}: a GET's parameters go in its query string, one name each (-d trackingCode=order-0001).`);
      query[parameter.path[0]!] = String(parameter.value);
    }
    return { method: verb, path: fullPath, query };
  }
  let body: Record<string, unknown> = {};
  if (documents.length > 0) {
    let text = documents[0]!;
    if (text.startsWith('@')) {
      const file = text.slice(1);
      try {
        text = readInput(file);
      } catch (error) {
        throw new UsageError(`--data @${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
      }
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`--data: not JSON (${(error as Error).message}). Give a JSON object, or @file.json.`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new UsageError('--data: give a JSON object such as {"body": {...}}; the business id goes into its header.');
    body = parsed as Record<string, unknown>;
  }
  for (const parameter of parameters) setParameter(body, parameter);
  return { method: verb, path: fullPath, query, body };
}

/** `paylink api`: sends the request and prints the answer; a non-2xx answer ends with exit code 3. */
export async function api({ method, path }: Args<typeof spec>, flags: ApiFlags, ctx: CommandContext): Promise<unknown> {
  const call = apiCallOf(method, path, flags);
  const answer = call.method === 'GET' ? await ctx.client.get(call.path, call.query) : await ctx.client.post(withQuery(call.path, call.query), call.body ?? {});
  const ok = answer.status >= 200 && answer.status < 300;
  const { ui } = ctx;
  if (!ok) {
    // --json: the one document on stdout is the envelope, printed by the CLI's catch.
    if (!ui.options.json) ui.line(JSON.stringify(answer.body, null, 2));
    const error = ApiResponseError.fromEnvelope(answer.status, answer.body as ErrorEnvelope, `${call.method} ${call.path} answered HTTP ${answer.status}`);
    throw new ApiResponseError(error.message, answer.status, error.envelope, answer.body);
  }
  if (ui.options.json) ui.json(answer.body);
  else ui.line(JSON.stringify(answer.body, null, 2));
  return answer.body;
}

/** True for a `.` or `..` segment, spelled plainly or percent-encoded. */
function leavesPath(segment: string): boolean {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: the sandbox refuses it as it is.
  }
  return decoded === '.' || decoded === '..' || /^\.+$/.test(segment.replace(/%2e/gi, '.'));
}

function withQuery(path: string, query: Record<string, string>): string {
  const text = new URLSearchParams(query).toString();
  return text === '' ? path : `${path}?${text}`;
}
