/**
 * The transport under `client.ts`: one HTTP/1.1 request over node:http (node:https for an https URL),
 * shaped like the part of `fetch` the client uses, so a real `fetch` can stand in for it (tests, proxies).
 *
 * Not `fetch` itself, for start-up time: Node 20's `fetch` loads undici and compiles its WebAssembly HTTP
 * parser on first use, about 100 ms of CPU (30-40 ms of wall time on the 2-core development machine) in a
 * process that sends five requests and exits, which was most of what `paylink pay` spent on its own. Each
 * request has its own connection (no keep-alive), so nothing is left open when a command is done.
 */
import type { IncomingMessage } from 'node:http';
import { interruption } from './interrupt.js';

/** What the client sends: the subset of `RequestInit` it uses. */
export interface HttpRequest {
  /** @default "GET" */
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  /** `manual` hands 3xx answers back; `follow` follows them as `fetch` does. @default "follow" */
  redirect?: 'manual' | 'follow' | undefined;
  /** A certificate or CA (PEM) trusted for https besides the system's roots (a `--https` sandbox's own). */
  ca?: string | undefined;
}

/** What the client reads of an answer: the subset of `Response` it uses. */
export interface HttpAnswer {
  status: number;
  headers: { get(name: string): string | null; getSetCookie(): string[] };
  text(): Promise<string>;
  /** Discards the body without reading it. */
  body: { cancel(): Promise<void> } | null;
}

/** A function that sends one request: {@link httpRequest}, or `fetch`. */
export type Transport = (url: string, init: HttpRequest) => Promise<HttpAnswer>;

const MAX_REDIRECTS = 20;

/**
 * Sends one request. Rejects with the system error (`ECONNREFUSED`...) when no answer comes, and with the
 * signal's reason when `init.signal` aborts, as `fetch` does (a `TimeoutError` for `AbortSignal.timeout`).
 */
export async function httpRequest(url: string, init: HttpRequest = {}): Promise<HttpAnswer> {
  let target = new URL(url);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  for (let hop = 0; ; hop++) {
    const answer = await once(target, method, init.headers ?? {}, body, init.signal, init.ca);
    const location = answer.headers.get('location');
    if (init.redirect === 'manual' || answer.status < 300 || answer.status >= 400 || location === null || hop >= MAX_REDIRECTS) return answer;
    await answer.body?.cancel();
    // fetch's rules: 301/302 turn a POST into a GET, 303 turns anything but HEAD into a GET; 307/308 resend.
    if (answer.status === 303 ? method !== 'HEAD' : (answer.status === 301 || answer.status === 302) && method === 'POST') {
      method = 'GET';
      body = undefined;
    }
    target = new URL(location, target);
  }
}

async function once(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal | undefined,
  ca: string | undefined,
): Promise<HttpAnswer> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw Object.assign(new Error(`unsupported protocol ${url.protocol}`), { code: 'ERR_UNSUPPORTED_PROTOCOL' });
  // Ctrl-C (interrupt.ts) aborts whatever is in flight, whoever sent it.
  const stop = signal ? AbortSignal.any([signal, interruption]) : interruption;
  stop.throwIfAborted();
  const https = url.protocol === 'https:';
  // Node's modules taken when used (process.getBuiltinModule), not with import(): a chunk of the bundled CLI
  // with an import() in it cannot be compiled from its code cache (bin/code-cache.js).
  const { request } = process.getBuiltinModule(https ? 'node:https' : 'node:http');
  // `ca` replaces the roots a request trusts: keep the system's (and NODE_EXTRA_CA_CERTS) beside it.
  const trust = https && ca !== undefined ? { ca: [...process.getBuiltinModule('node:tls').rootCertificates, ca] } : {};
  const sent: Record<string, string> = { ...headers };
  if (body !== undefined) sent['content-length'] = String(Buffer.byteLength(body));
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = request(url, { method, headers: sent, agent: false, signal: stop, ...trust }, (res) => resolve(answerOf(res)));
    req.on('error', (error) => reject(stop.aborted ? stop.reason : error));
    req.end(body);
  });
}

function answerOf(res: IncomingMessage): HttpAnswer {
  return {
    status: res.statusCode ?? 0,
    headers: {
      get(name) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      getSetCookie: () => res.headers['set-cookie'] ?? [],
    },
    text: () =>
      new Promise((resolve, reject) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      }),
    body: {
      cancel: async () => {
        res.resume();
      },
    },
  };
}
