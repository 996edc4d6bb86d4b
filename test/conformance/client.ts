/**
 * A black-box client written from docs/api.md alone: plain `fetch`, envelope checks, and a
 * "browser" that fills in the hosted form over HTTP (GET the page, read the form from the HTML, POST it).
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { requestJson, uniqueCode, type JsonResponse, type TestSandbox } from '../helpers/sandbox.js';

export const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const REQUEST_CODE = /^\d+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RETURN_URL = 'https://merchant.example/return';

/** Descriptions of the result table of docs/api.md. */
export const DESCRIPTION: Record<number, string> = {
  2: 'Pending',
  4: 'Timeout',
  [-1]: 'Input error',
  [-2]: 'Failed',
  [-3]: 'Failed, retry',
  [-4]: 'Declined',
  [-5]: 'Declined, retry',
  [-6]: 'Security error',
  [-7]: 'Internal server error',
  [-8]: 'Business rule error',
  [-9]: 'Fraud',
  [-10]: 'Customer processing error',
  [-11]: 'Referrals',
};

/** HTTP status of the result table of docs/api.md. */
export function httpStatusOf(result: number): number {
  if (result >= 0) return 200;
  if (result === -7) return 500;
  return 400;
}

export const FUTURE = { expiryMonth: '12', expiryYear: '2035' };

export function card(number: string, more: Record<string, unknown> = {}) {
  return { number, cvv: number.length === 15 ? '1234' : '123', ...FUTURE, holderName: 'Ada Lovelace', ...more };
}

/** Checks the envelope every response has. */
export function expectEnvelope(res: JsonResponse): void {
  expect(res.body, `not a JSON envelope: ${res.text.slice(0, 200)}`).toBeTypeOf('object');
  expect(Number.isInteger(res.body.result)).toBe(true);
  expect(res.body.description).toBeTypeOf('string');
  expect(res.body.header.requestTimestamp).toMatch(ISO_Z);
  expect(res.body.body).toBeTypeOf('object');
}

/** Checks an error envelope: HTTP status, result and description, requestCode, and `body.error`. */
export function expectError(res: JsonResponse, expected: { result: number; status?: number; code?: number; path?: string; message?: string | RegExp }): void {
  expectEnvelope(res);
  expect(res.body.result, res.text.slice(0, 300)).toBe(expected.result);
  expect(res.status, res.text.slice(0, 300)).toBe(expected.status ?? httpStatusOf(expected.result));
  if (DESCRIPTION[expected.result] !== undefined) expect(res.body.description).toBe(DESCRIPTION[expected.result]);
  expect(res.body.header.requestCode).toMatch(REQUEST_CODE);
  expect(Number.isInteger(res.body.body.error.code)).toBe(true);
  expect(res.body.body.error.message).toBeTypeOf('string');
  if (expected.code !== undefined) expect(res.body.body.error.code, res.body.body.error.message).toBe(expected.code);
  if (expected.path !== undefined) expect(res.body.body.error.message).toContain(expected.path);
  if (typeof expected.message === 'string') expect(res.body.body.error.message).toBe(expected.message);
  if (expected.message instanceof RegExp) expect(res.body.body.error.message).toMatch(expected.message);
}

/** Date-times in API answers are whole seconds, as the provider answered them (docs/api.md, "Compatibility"). */
export const ISO_Z_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * Expects an input error (400, -1 Input error) with the code, a message that starts with the field's path
 * ("Property not found in request: <path>." for 1004, "Invalid property value: <path>." for 1002), whole-second
 * requestTimestamp, and nothing stored echoed back (no body.transaction).
 */
export function expectInputError(res: JsonResponse, code: 1002 | 1004, path: string): void {
  expectError(res, { result: -1, status: 400, code, path });
  expect(res.body.header.requestTimestamp).toMatch(ISO_Z_SECONDS);
  const prefix = code === 1004 ? `Property not found in request: ${path}.` : `Invalid property value: ${path}.`;
  expect(res.body.body.error.message.startsWith(prefix), res.body.body.error.message).toBe(true);
  expect(res.body.body.transaction).toBeUndefined();
}

export function linkBody(patch: { businessId?: string; transaction?: Record<string, unknown>; link?: Record<string, unknown> } = {}) {
  return {
    header: { businessId: patch.businessId ?? 'conf-biz' },
    body: {
      transaction: { amount: 12.5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode('cl'), ...patch.transaction },
      link: { duration: 'P1D', brandIds: [1010, 1020, 1030], returnUrl: RETURN_URL, ...patch.link },
    },
  };
}

export function checkoutBody(patch: { businessId?: string; transaction?: Record<string, unknown>; checkout?: Record<string, unknown> } = {}) {
  return {
    header: { businessId: patch.businessId ?? 'conf-biz' },
    body: {
      transaction: { amount: 20, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: uniqueCode('cc'), ...patch.transaction },
      checkout: { brandIds: [1010, 1020, 1030], returnUrl: RETURN_URL, tokenize: 'false', ...patch.checkout },
    },
  };
}

export function paymentBody(
  patch: {
    businessId?: string;
    action?: string;
    transaction?: Record<string, unknown>;
    card?: Record<string, unknown> | null;
    bank?: Record<string, unknown>;
  } = {},
) {
  const body: Record<string, unknown> = {
    transaction: { amount: 10.5, currencyCode: 'EUR', trackingCode: uniqueCode('cp'), ...patch.transaction },
  };
  if (patch.card !== null) body.card = patch.card ?? card('4111111111111111');
  if (patch.bank !== undefined) body.bank = patch.bank;
  return { action: patch.action ?? 'payment', header: { businessId: patch.businessId ?? 'conf-biz' }, body };
}

export async function createLink(sb: TestSandbox, patch: Parameters<typeof linkBody>[0] = {}) {
  const res = await sb.post('/Gateway/v3/Paymentlinks', linkBody(patch));
  expect(res.status, res.text).toBe(200);
  return res.body.body as { link: { linkId: string; redirect: { method: string; url: string }; expirationTime: string }; transaction: any };
}

export async function createCheckout(sb: TestSandbox, patch: Parameters<typeof checkoutBody>[0] = {}) {
  const res = await sb.post('/Gateway/v3/Checkouts', checkoutBody(patch));
  expect(res.status, res.text).toBe(200);
  return res.body.body as {
    checkout: { checkoutId: string; redirect: { method: string; url: string }; expirationTime: string; tokenize: string };
    transaction: any;
  };
}

export async function moveClock(sb: TestSandbox, body: Record<string, unknown>): Promise<JsonResponse> {
  const res = await sb.post('/__sandbox/clock', body);
  expect(res.status, res.text).toBe(200);
  return res;
}

/** A GET with a JSON body (fetch refuses one, so plain node:http). */
export function getWithBody(url: string, body: string): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(target, { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: new Headers(), body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---- the hosted form, as a browser would submit it ----

interface HtmlForm {
  action: string;
  method: string;
  inputs: Array<{ name: string; type: string; value: string; autocomplete: string }>;
  buttons: Array<{ name: string; value: string; text: string }>;
}

function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  if (!match) return undefined;
  return decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The POST forms of a page, read from its HTML. */
export function parseForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  const formPattern = /<form\b([^>]*)>([\s\S]*?)<\/form>/gi;
  for (const match of html.matchAll(formPattern)) {
    const open = match[1] ?? '';
    const inner = match[2] ?? '';
    const form: HtmlForm = {
      action: attr(open, 'action') ?? '',
      method: (attr(open, 'method') ?? 'get').toLowerCase(),
      inputs: [],
      buttons: [],
    };
    for (const input of inner.matchAll(/<input\b[^>]*>/gi)) {
      const tag = input[0];
      const name = attr(tag, 'name');
      if (!name) continue;
      form.inputs.push({
        name,
        type: (attr(tag, 'type') ?? 'text').toLowerCase(),
        value: attr(tag, 'value') ?? '',
        autocomplete: attr(tag, 'autocomplete') ?? '',
      });
    }
    for (const button of inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)) {
      const tag = button[1] ?? '';
      if ((attr(` ${tag}`, 'type') ?? 'submit').toLowerCase() !== 'submit') continue;
      form.buttons.push({ name: attr(` ${tag}`, 'name') ?? '', value: attr(` ${tag}`, 'value') ?? '', text: (button[2] ?? '').replace(/<[^>]*>/g, '').trim() });
    }
    forms.push(form);
  }
  return forms.filter((form) => form.method === 'post');
}

export interface CustomerInput {
  number?: string;
  cvv?: string;
  expiryMonth?: string;
  expiryYear?: string;
  holderName?: string;
  /** Which submit button: matched against its text (case-insensitive), default the first one. */
  button?: RegExp;
  /** Tick every checkbox (the "save card" box). */
  tick?: boolean;
  /** The 3-D Secure code to type, if a challenge page shows up; `cancel` presses its other button. */
  challengeCode?: string | 'cancel';
}

export type HostedOutcome = { kind: 'returned'; url: URL } | { kind: 'page'; status: number; html: string; url: string };

function fill(form: HtmlForm, input: CustomerInput): URLSearchParams {
  const params = new URLSearchParams();
  const number = input.number ?? '4111111111111111';
  for (const field of form.inputs) {
    const hint = `${field.autocomplete} ${field.name}`.toLowerCase();
    if (field.type === 'hidden') params.append(field.name, field.value);
    else if (field.type === 'checkbox') {
      if (input.tick) params.append(field.name, field.value || 'on');
    } else if (hint.includes('cc-number')) params.append(field.name, number);
    else if (hint.includes('cc-exp-month')) params.append(field.name, input.expiryMonth ?? FUTURE.expiryMonth);
    else if (hint.includes('cc-exp-year')) params.append(field.name, input.expiryYear ?? FUTURE.expiryYear);
    else if (hint.includes('cc-csc')) params.append(field.name, input.cvv ?? (number.length === 15 ? '1234' : '123'));
    else if (hint.includes('cc-name')) params.append(field.name, input.holderName ?? 'Ada Lovelace');
    else if (hint.includes('one-time-code') || field.name.toLowerCase().includes('code')) {
      params.append(field.name, typeof input.challengeCode === 'string' && input.challengeCode !== 'cancel' ? input.challengeCode : '');
    } else params.append(field.name, field.value);
  }
  return params;
}

function pickButton(form: HtmlForm, pattern: RegExp | undefined) {
  const button = pattern ? form.buttons.find((b) => pattern.test(b.text)) : form.buttons[0];
  if (!button) throw new Error(`no submit button ${String(pattern)} among ${form.buttons.map((b) => b.text).join(', ')}`);
  return button;
}

async function post(url: string, params: URLSearchParams): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
}

/**
 * Plays the customer on a hosted page: GET it, fill the card form, press a button, and follow the sandbox's
 * own redirects (3-D Secure) until the browser would leave for the merchant or stay on a sandbox page.
 */
/** The hosted card form's fields for the approved test card, with the pay button. */
export const APPROVED_CARD_FIELDS: Readonly<Record<string, string>> = {
  cardNumber: '4111111111111111',
  expiryMonth: '12',
  expiryYear: '2035',
  cvv: '123',
  holderName: 'A',
  action: 'pay',
};

/** The one-time `formToken` a hosted page carries now. */
export async function formTokenOf(pageUrl: string): Promise<string> {
  const html = await (await fetch(pageUrl)).text();
  return /name="formToken" value="([^"]*)"/.exec(html)?.[1] ?? '';
}

/**
 * An approved card posted to a hosted page with a `formToken` read earlier (the link may have changed
 * since: cancelled, expired); answers the HTTP status of the post, not followed.
 */
export async function postCardWithToken(pageUrl: string, formToken: string): Promise<number> {
  const form = new URLSearchParams({ formToken, framed: '', ...APPROVED_CARD_FIELDS });
  const submitted = await post(pageUrl, form);
  await submitted.text();
  return submitted.status;
}

export async function customerSubmits(pageUrl: string, input: CustomerInput = {}): Promise<HostedOutcome> {
  const page = await fetch(pageUrl);
  const html = await page.text();
  expect(page.status, html.slice(0, 300)).toBe(200);
  const form = parseForms(html)[0];
  if (!form) throw new Error(`no POST form on ${pageUrl}`);
  const params = fill(form, input);
  const button = pickButton(form, input.button);
  if (button.name) params.append(button.name, button.value);
  let response = await post(new URL(form.action || pageUrl, pageUrl).toString(), params);
  let current = pageUrl;
  const origin = new URL(pageUrl).origin;
  for (let hop = 0; hop < 6; hop += 1) {
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location') ?? '', current);
      if (location.origin !== origin) return { kind: 'returned', url: location };
      current = location.toString();
      response = await fetch(current, { redirect: 'manual' });
      continue;
    }
    const text = await response.text();
    const challenge = /one-time-code|challenge/i.test(text) ? parseForms(text)[0] : undefined;
    if (challenge && input.challengeCode !== undefined && challenge.inputs.some((f) => f.type !== 'hidden' && /code/i.test(f.name))) {
      const answer = fill(challenge, input);
      const choice = input.challengeCode === 'cancel' ? challenge.buttons[challenge.buttons.length - 1]! : challenge.buttons[0]!;
      if (choice.name) answer.append(choice.name, choice.value);
      const target = new URL(challenge.action || current, current).toString();
      response = await post(target, answer);
      current = target;
      input = { ...input, challengeCode: undefined };
      continue;
    }
    return { kind: 'page', status: response.status, html: text, url: current };
  }
  throw new Error('too many redirects on the hosted page');
}

/** Submits the hosted form and expects the browser to be sent back to the merchant. */
export async function customerReturns(pageUrl: string, input: CustomerInput = {}): Promise<URL> {
  const outcome = await customerSubmits(pageUrl, input);
  if (outcome.kind !== 'returned') throw new Error(`stayed on the sandbox (${outcome.status}): ${outcome.html.replace(/\s+/g, ' ').slice(0, 400)}`);
  return outcome.url;
}

export { requestJson, uniqueCode };
