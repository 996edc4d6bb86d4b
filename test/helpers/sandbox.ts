/**
 * Starts a real sandbox over HTTP on port 0 with a temporary SQLite file, and a small JSON client for it.
 * Nothing of the project's own is mocked. A test fails if the sandbox met an unexpected error (a 500 that
 * no test card asked for).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../../src/sandbox/index.js';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestSandbox {
  readonly url: string;
  readonly running: RunningSandbox;
  readonly dbPath: string;
  readonly dir: string;
  get(path: string, init?: RequestInit): Promise<JsonResponse>;
  post(path: string, body: unknown, init?: RequestInit): Promise<JsonResponse>;
  /** Stops and starts the sandbox on the same database file (a new port). */
  restart(options?: Partial<StartSandboxOptions>): Promise<void>;
}

export async function requestJson(url: string, init: RequestInit = {}): Promise<JsonResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/**
 * The HTTP Basic credentials the helper's `get` and `post` send unless a test gives its own
 * `authorization`: the provider required them on every call, and the advisor's sends-no-credentials flags a
 * business whose calls come without them. The sandbox takes any credentials by default.
 */
export const TEST_AUTHORIZATION = `Basic ${Buffer.from('test:test').toString('base64')}`;

function withCredentials(headers: RequestInit['headers'] | undefined): Record<string, string> {
  const given = new Headers(headers);
  if (!given.has('authorization')) given.set('authorization', TEST_AUTHORIZATION);
  return Object.fromEntries(given.entries());
}

/** Creates a sandbox before the file's tests and closes it after; `options` go to `startSandbox`. */
export function useSandbox(options: Partial<StartSandboxOptions> = {}): TestSandbox {
  let running: RunningSandbox | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'paylink-test-'));
  const dbPath = join(dir, 'sandbox.db');
  let current: Partial<StartSandboxOptions> = options;

  const handle: TestSandbox = {
    get url() {
      return running!.url;
    },
    get running() {
      return running!;
    },
    dbPath,
    dir,
    get: (path, init = {}) => requestJson(handle.url + path, { ...init, headers: withCredentials(init.headers) }),
    post: (path, body, init = {}) =>
      requestJson(handle.url + path, {
        method: 'POST',
        ...init,
        headers: withCredentials({ 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) }),
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async restart(more = {}) {
      await running?.close();
      current = { ...current, ...more };
      running = await startSandbox({ port: 0, db: dbPath, ...current });
    },
  };

  beforeAll(async () => {
    running = await startSandbox({ port: 0, db: dbPath, ...current });
  });
  afterEach(() => {
    const errors = running?.sandbox.unexpectedErrors.splice(0) ?? [];
    expect(errors, 'the sandbox met unexpected errors (500s)').toEqual([]);
  });
  afterAll(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return handle;
}

/** A link creation request body with sensible defaults; `patch` overrides parts of it. */
export function linkRequest(patch: { businessId?: string; transaction?: Record<string, unknown>; link?: Record<string, unknown> } = {}) {
  return {
    header: { businessId: patch.businessId ?? 'biz-1' },
    body: {
      transaction: { amount: 12.5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode(), ...patch.transaction },
      link: { duration: 'P1D', brandIds: [1010, 1020], returnUrl: 'https://merchant.example/return', ...patch.link },
    },
  };
}

/** A checkout creation request body with sensible defaults. */
export function checkoutRequest(patch: { businessId?: string; transaction?: Record<string, unknown>; checkout?: Record<string, unknown> } = {}) {
  return {
    header: { businessId: patch.businessId ?? 'biz-1' },
    body: {
      transaction: { amount: 20, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode(), ...patch.transaction },
      checkout: { brandIds: [1010, 1020, 1030], returnUrl: 'https://merchant.example/return', tokenize: 'false', ...patch.checkout },
    },
  };
}

/** `POST /payments` of a card with 3DS 2.0 asked for (`threeDSecure.version` "2"): the approved card, frictionless. */
export function threeDSecure2PaymentRequest(businessId: string, codePrefix: string) {
  return {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { storeId: 1, brandId: 1010, trackingCode: uniqueCode(codePrefix), amount: 1, currencyCode: 'EUR', returnUrl: 'http://127.0.0.1:9/r' },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035' },
      threeDSecure: { version: '2' },
    },
  };
}

/** `POST /payments` of a SEPA Direct Debit (brand 6010) from Ada Lovelace's example account. */
export function sepaDebitRequest(businessId: string, codePrefix: string, action: 'payment' | 'authorize', amount: number) {
  return {
    action,
    header: { businessId },
    body: {
      transaction: { amount, currencyCode: 'EUR', brandId: 6010, trackingCode: uniqueCode(codePrefix) },
      bank: { iban: 'DE89370400440532013000', accountHolderName: 'Ada Lovelace' },
    },
  };
}

let counter = 0;
export function uniqueCode(prefix = 'tc'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/**
 * Reads `read()` again and again until `done` holds for what it gives (a condition the sandbox reaches, polled
 * over HTTP), then answers it; throws with the last value after `ms`. The one poll interval of the tests
 * that wait on the sandbox: a test waits on an event, never for a fixed time.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`still not there after ${ms} ms: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
