/**
 * Plays the hosted form over plain HTTP, as contract 3 describes it: read the page's one-time formToken,
 * post the fields, look at the answer without following redirects.
 */
import type { TestSandbox } from '../helpers/sandbox.js';
// The same reader of the hosted page as `paylink pay` (one parser of the form's HTML, not a copy).
import { alertText, hiddenInput, pageState } from '../../src/cli/customer.js';
import { testCardCvv } from '../../src/sandbox/domain/hosted-form.js';
import { detectBrand } from '../../src/sandbox/domain/test-cards.js';

export interface PageResponse {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
  state: string | undefined;
  formToken: string | undefined;
  alert: string | undefined;
}

async function toPage(response: Response): Promise<PageResponse> {
  const html = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    html,
    location: response.headers.get('location'),
    state: pageState(html),
    formToken: hiddenInput(html, 'formToken'),
    alert: alertText(html),
  };
}

export async function openPage(sb: TestSandbox, path: string): Promise<PageResponse> {
  return toPage(await fetch(sb.url + path, { redirect: 'manual' }));
}

export async function postPage(sb: TestSandbox, path: string, fields: Record<string, string | undefined>): Promise<PageResponse> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.set(k, v);
  return toPage(
    await fetch(sb.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    }),
  );
}

/** The card fields for a test card, with a valid expiry and CVV. */
export function card(number: string, more: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    action: 'pay',
    cardNumber: number,
    expiryMonth: '12',
    expiryYear: String(new Date().getUTCFullYear() + 3),
    cvv: testCardCvv(detectBrand(number)),
    holderName: 'Test Customer',
    ...more,
  };
}

/** Opens the page and posts the card form once; returns the answer to the post. */
export async function submit(sb: TestSandbox, path: string, fields: Record<string, string | undefined>): Promise<PageResponse> {
  const opened = await openPage(sb, path);
  if (!opened.formToken) throw new Error(`no form on ${path} (state ${opened.state}, status ${opened.status})`);
  return postPage(sb, path, { formToken: opened.formToken, ...fields });
}

export const APPROVE = '4111111111111111';
export const DECLINE = '4000000000000002';
export const FAILED_RETRY = '4000000000000101';
export const DECLINED_RETRY = '4000000000000325';
export const THREE_DS = '4000000000003220';
export const INTERNAL_ERROR = '4000000000000010';
