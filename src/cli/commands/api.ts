/**
 * `paylink api <METHOD> <path> [--data JSON | --data @file]`: any request to the API, with the base URL,
 * HTTP Basic credentials and the business id filled in (`businessId` in a GET's query, `header.businessId`
 * in a POST's body, unless given), printing the answer as it came, like `stripe get` / `stripe post`.
 */
import { readFileSync } from 'node:fs';
import { ApiResponseError, UsageError, type ErrorEnvelope } from '../errors.js';
import type { CommandContext } from '../context.js';
import { API_BASE } from '../../sandbox/domain/routes.js';

export interface ApiFlags {
  /** A JSON document, `@file` to read one, or `@-` for standard input. */
  data?: string | undefined;
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
export function apiCallOf(method: string, path: string, flags: ApiFlags, readInput: (file: string) => string = (file) => readFileSync(file === '-' ? 0 : file, 'utf8')): ApiCall {
  const verb = method.toUpperCase();
  if (verb !== 'GET' && verb !== 'POST') throw new UsageError(`The API takes GET and POST, not "${method}". Example: paylink api GET payments/<id>`);
  if (/^https?:\/\//i.test(path)) throw new UsageError('Give the path only (payments/<id>); the base URL comes from --base-url, PAYLINK_BASE_URL or the config file.');
  const q = path.indexOf('?');
  const rawPath = q < 0 ? path : path.slice(0, q);
  const trimmed = rawPath.replace(/^\/+/, '');
  // The API only: `../../__sandbox/reset` (or `%2e%2e`, or a backslash) would leave /gateway/ for the
  // sandbox's admin endpoints, which take the admin token, not the merchant's credentials.
  if (trimmed.split(/[\\/]/).some((segment) => leavesPath(segment)) || rawPath.includes('\\')) {
    throw new UsageError(`"${rawPath}" leaves the API: give a path under the API base (payments/<id>) without "." or ".." segments. The sandbox's own endpoints have their commands (paylink reset, clock, logs...).`);
  }
  const fullPath = /^gateway(\/|$)/i.test(trimmed) ? `/${trimmed}` : `${API_BASE}/${trimmed}`;
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(q < 0 ? '' : path.slice(q + 1))) query[key] = value;
  if (verb === 'GET') {
    if (flags.data !== undefined) throw new UsageError('--data goes with POST: a GET sends its parameters in the path (payments?trackingCode=order-0001).');
    return { method: verb, path: fullPath, query };
  }
  let body: Record<string, unknown> = {};
  if (flags.data !== undefined) {
    let text = flags.data;
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
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError('--data: give a JSON object such as {"body": {...}}; the business id goes into its header.');
    body = parsed as Record<string, unknown>;
  }
  return { method: verb, path: fullPath, query, body };
}

/** `paylink api`: sends the request and prints the answer; a non-2xx answer ends with exit code 3. */
export async function api(method: string, path: string, flags: ApiFlags, ctx: CommandContext): Promise<unknown> {
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
