/**
 * Plays the customer on the hosted pages over plain HTTP, exactly as a browser submits them (contract 3):
 * GET the page, read its one-time `formToken`, POST the card, answer a 3-D Secure challenge, follow the
 * 303 to the merchant's returnUrl, then read the resulting status from the API. Used by `paylink pay` and
 * by the fixture runner (`src/cli/seed`).
 */
import { checkoutStateOfResult } from '../sandbox/domain/lifecycle.js';
import { brandById } from '../sandbox/domain/brands.js';
import { cardForOutcome, detectBrand, TEST_CARDS, testCard, THREE_DS_APPROVE_CODE, type OutcomeName, type TestCard } from '../sandbox/domain/test-cards.js';
import { CARD_FIELDS as F, CHALLENGE_FIELDS, defaultCardFields, FORM_ACTIONS, PAGE_MARKS, SAVE_CARD_ON, testCardCvv } from '../sandbox/domain/hosted-form.js';
import { bankPath, walletPath } from '../sandbox/domain/paths.js';
import { expectOk, networkReason, resolveKind, type AdminConnection, type ApiClient, type ApiResponse, type HttpAnswer } from './client.js';
import { ApiResponseError, UsageError, type ErrorEnvelope } from './errors.js';
import { matchRoute, pathOfId } from '../sandbox/domain/routes.js';

export type ResourceKind = 'link' | 'checkout';

/** What `pay` can play: a link's or checkout's hosted form, or a bank or wallet payment's simulator page. */
export type PlayKind = ResourceKind | 'payment';

/** What the customer can do on the bank and wallet pages: the page's three buttons. */
export const SIMULATOR_OUTCOMES = ['approved', 'cancelled', 'failed', 'declined'] as const;
export type SimulatorOutcome = (typeof SIMULATOR_OUTCOMES)[number];

/** Each outcome's button on the page, and the result the payment then reads (docs/api.md, "Redirect payments"). */
const SIMULATOR_BUTTONS: Record<SimulatorOutcome, { action: 'approve' | 'cancel' | 'fail' | 'decline'; result: number }> = {
  approved: { action: 'approve', result: 0 },
  cancelled: { action: 'cancel', result: -10 },
  failed: { action: 'fail', result: -2 },
  declined: { action: 'decline', result: -4 },
};

export interface PlayCustomerOptions {
  /** Link or checkout; found by asking the sandbox (`admin`), else by trying the link, then the checkout. */
  kind?: ResourceKind | undefined;
  /** The sandbox's admin endpoints, to resolve the id's kind without a failed request. */
  admin?: AdminConnection | undefined;
  /** Card number to type (spaces allowed). Takes precedence over `outcome`. */
  card?: string | undefined;
  /** A test-card outcome name (`OUTCOME_NAMES`). @default "approved" */
  outcome?: OutcomeName | undefined;
  /** @default "12" */
  expiryMonth?: string | undefined;
  /** @default the sandbox clock's year + 3 */
  expiryYear?: string | undefined;
  /** @default "123" ("1234" for American Express) */
  cvv?: string | undefined;
  /** @default "Test Customer" */
  holderName?: string | undefined;
  /** Tick "save card" (checkouts with tokenize INQUIRE). */
  saveCard?: boolean | undefined;
  /** Pay with the first saved card a one-click checkout offers (its CVV only: `cvv`, default "123"). */
  savedCard?: boolean | undefined;
  /** Press the decline button instead of paying. */
  decline?: boolean | undefined;
  /** The code for a 3-D Secure challenge; `null` presses cancel. @default "1234" */
  threeDSCode?: string | null | undefined;
  /** GET the returnUrl the page redirects to (the merchant's answer is reported, never fatal). @default true */
  follow?: boolean | undefined;
  /** Progress notes ("Submitting the card..."), for a spinner. */
  onStep?: ((text: string) => void) | undefined;
}

/** One page answer on the way. */
export interface PlayStep {
  /** What was sent: the card form, the decline button, the 3-D Secure code or cancel, a bank or wallet page's button. */
  action: 'pay' | 'decline' | '3ds-submit' | '3ds-cancel' | 'approve' | 'cancel' | 'fail';
  /** The URL posted to. */
  url: string;
  /** HTTP status of the answer (303 redirect, 200 page). */
  status: number;
  /** Where a 303 pointed. */
  location?: string | undefined;
  /** `data-paylink-state` of a page answer. */
  state?: string | undefined;
  /** The page's alert text (the reason of a failed attempt). */
  message?: string | undefined;
}

/** What `playCustomer` did and what came of it (the `--json` output of `paylink pay`). */
export interface PlayResult {
  kind: PlayKind;
  /**
   * For a payment: which page it waited on (`bank` for iDEAL, Sofort, Giropay, EPS; `wallet` for PayPal;
   * `3ds` the 3-D Secure page of a direct card payment; `card-form` the card form of a card redirect payment).
   */
  page?: 'bank' | 'wallet' | '3ds' | 'card-form' | undefined;
  id: string;
  /** The hosted page the customer opened. */
  pageUrl: string;
  /** The card typed, masked (never the full number). */
  card?: { brandId?: number | undefined; lastFourDigits: string; outcome?: OutcomeName | undefined } | undefined;
  /** The result asked for: the test card's result, 0 or -10 for 3-D Secure, -10 for the decline button. */
  expectedResult?: number | undefined;
  steps: PlayStep[];
  /** The returnUrl the browser was sent to, when the page redirected there. */
  returnUrl?: string | undefined;
  /** The merchant's answer at returnUrl (status), or why none came (error). */
  merchant?: { status?: number | undefined; error?: string | undefined } | undefined;
  /** The attempt this play made (last payment entry), when one was stored. */
  payment?: { id?: string | undefined; result: number; description: string; token?: string | undefined } | undefined;
  /**
   * The payment that paid the link or checkout while this customer was on its page (another tab, another
   * `pay`): this play's card was then refused by the page and made no payment of its own.
   */
  paidByAnother?: string | undefined;
  /** Lifecycle after the play: link status, checkout result description, or the payment's description. */
  state: string;
  /** True when the outcome is what was asked for. */
  asExpected: boolean;
  /** The API's status envelope of the link, checkout or payment after the play. */
  status: unknown;
}

const MAX_STEPS = 6;

/** Reads the link or checkout's status envelope, trying the link first when `kind` is not given. */
export async function findResource(
  client: ApiClient,
  id: string,
  kind?: ResourceKind,
  admin?: AdminConnection,
): Promise<{ kind: ResourceKind; response: ApiResponse }> {
  const path = (k: ResourceKind) => pathOfId(k === 'link' ? 'links.get' : 'checkouts.get', id);
  if (!kind && admin) {
    const resolved = await resolveKind(admin, id, client.businessId);
    if (resolved === 'link' || resolved === 'checkout') kind = resolved;
    else if (resolved === 'payment' || resolved === 'credit' || resolved === 'token') {
      throw new ApiResponseError(`No payment link or checkout ${id} for business ${client.businessId}: that id is a ${resolved}.`, 404, undefined);
    } else if (resolved === null) {
      // Nothing has that id: one request, so that the API's own 404 envelope is what --json prints.
      const checkout = await client.get(path('checkout'));
      throw ApiResponseError.fromEnvelope(
        checkout.status,
        checkout.body as ErrorEnvelope,
        `No payment link or checkout ${id} for business ${client.businessId}`,
      );
    }
  }
  if (kind) return { kind, response: expectOk(await client.get(path(kind)), `${kind} ${id}`) };
  const link = await client.get(path('link'));
  if (link.status !== 404) return { kind: 'link', response: expectOk(link, `link ${id}`) };
  const checkout = await client.get(path('checkout'));
  if (checkout.status !== 404) return { kind: 'checkout', response: expectOk(checkout, `checkout ${id}`) };
  throw ApiResponseError.fromEnvelope(404, checkout.body as ErrorEnvelope, `No payment link or checkout ${id} for business ${client.businessId}`);
}

/** Lifecycle of a link or checkout status envelope: link status, or the checkout's result description. */
export function lifecycleOf(kind: ResourceKind, envelope: any): string {
  if (kind === 'link') return String(envelope?.body?.link?.status ?? envelope?.description ?? 'UNKNOWN');
  return checkoutStateOfResult(envelope?.result as number) ?? String(envelope?.description ?? 'UNKNOWN');
}

/**
 * Why the customer can no longer pay a link or checkout (it is paid, declined, cancelled or expired), or
 * undefined while its page still offers the form.
 */
export function notPayable(kind: ResourceKind, id: string, envelope: unknown): string | undefined {
  const state = lifecycleOf(kind, envelope);
  if (state === 'READY' || state === 'PENDING') return undefined;
  return `The ${kind} ${id} cannot be paid: it is ${state}, so its hosted page offers no payment form.`;
}

/** The value of a hidden input by name, whatever the attribute order. */
export function hiddenInput(html: string, name: string): string | undefined {
  for (const tag of html.match(/<input\b[^>]*>/gi) ?? []) {
    if (attribute(tag, 'name') === name) return decodeEntities(attribute(tag, 'value') ?? '');
  }
  return undefined;
}

/** The value each `<select>` of a page submits untouched: its `selected` option, else its first. */
export function selectDefaults(html: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const match of html.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)) {
    const name = attribute(match[1] ?? '', 'name');
    const options = [...(match[2] ?? '').matchAll(/<option\b([^>]*)>([\s\S]*?)(?=<option\b|$)/gi)];
    const chosen = options.find((option) => /\sselected\b/i.test(option[1] ?? '')) ?? options[0];
    if (name === undefined || chosen === undefined) continue;
    const value = attribute(chosen[1] ?? '', 'value') ?? stripTags(chosen[2] ?? '');
    values[name] = decodeEntities(value);
  }
  return values;
}

/** The first saved card a one-click checkout's page offers: its token and brand (docs/testing.md), whatever the attribute order. */
export function firstSavedCard(html: string): { token: string; brandId: number | undefined } | undefined {
  for (const tag of html.match(/<input\b[^>]*>/gi) ?? []) {
    if (attribute(tag, 'name') !== F.savedToken) continue;
    const brand = Number(attribute(tag, PAGE_MARKS.savedBrand));
    return { token: decodeEntities(attribute(tag, 'value') ?? ''), brandId: Number.isInteger(brand) && brand > 0 ? brand : undefined };
  }
  return undefined;
}

/** `data-paylink-state` of a hosted page. */
export function pageState(html: string): string | undefined {
  const body = /<body\b[^>]*>/i.exec(html)?.[0];
  return body ? attribute(body, PAGE_MARKS.state) : undefined;
}

/** Text of the page's first non-empty alert (`role="alert"` or `aria-live`), tags stripped. */
export function alertText(html: string): string | undefined {
  const re = /<(\w+)\b([^>]*\b(?:role\s*=\s*["']alert["']|aria-live\s*=\s*["'](?:assertive|polite)["'])[^>]*)>([\s\S]*?)<\/\1>/gi;
  for (const match of html.matchAll(re)) {
    const text = decodeEntities((match[3] ?? '').replace(/<[^>]*>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim();
    if (text) return text;
  }
  return undefined;
}

function attribute(tag: string, name: string): string | undefined {
  const re = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');
  const m = re.exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}

/** The card to type: `--card` as given, else the outcome's test card, preferring a brand the page offers. */
export function chooseCard(options: Pick<PlayCustomerOptions, 'card' | 'outcome'>, brandIds: number[]): { number: string; known: TestCard | undefined } {
  if (options.card !== undefined) {
    const number = options.card.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(number))
      throw new UsageError(
        `--card: expected 12 to 19 digits (spaces and dashes allowed); the value given is not (not repeated here: it may be a real card number).`,
      );
    return { number, known: testCard(number) };
  }
  const outcome = options.outcome ?? 'approved';
  const offered = TEST_CARDS.find((c) => c.outcome === outcome && brandIds.includes(c.brandId));
  // A page that names its brands takes no card of another: typing one would fail for the wrong reason.
  if (!offered && brandIds.length > 0) throw new UsageError(noCardFor(outcome, brandIds));
  const card = offered ?? cardForOutcome(outcome);
  if (!card) throw new UsageError(`--outcome: unknown outcome "${outcome}".`);
  return { number: card.number, known: card };
}

/** Why no test card fits: the outcome's cards are of other brands; what this page's brands can do. */
function noCardFor(outcome: OutcomeName, brandIds: number[]): string {
  const names = (ids: Iterable<number>) => [...new Set(ids)].map((id) => brandById(id)?.name ?? `brand ${id}`).join(', ');
  const elsewhere = TEST_CARDS.filter((c) => c.outcome === outcome);
  const here = [...new Set(TEST_CARDS.filter((c) => brandIds.includes(c.brandId)).map((c) => c.outcome))];
  const can = here.length > 0 ? `Outcomes with a test card of ${names(brandIds)}: ${here.join(', ')}.` : `No test card exists for ${names(brandIds)} at all.`;
  return `--outcome ${outcome}: the page accepts ${names(brandIds)}, and the test card for ${outcome} is ${names(elsewhere.map((c) => c.brandId))}. ${can} Or create one that accepts ${names(elsewhere.map((c) => c.brandId))} (--brand).`;
}

/**
 * Pays (or declines) a link or checkout through its hosted page, as a customer's browser would, and
 * returns what happened. Throws `ApiResponseError` when the API refuses the lookup, and when the page
 * offers no form (a paid, cancelled or expired link), `UnreachableError` when the sandbox is down.
 */
export async function playCustomer(client: ApiClient, id: string, options: PlayCustomerOptions = {}): Promise<PlayResult> {
  const step = options.onStep ?? (() => {});
  step(`Looking up ${id}`);
  const found = await findResource(client, id, options.kind, options.admin);
  const { kind } = found;
  const before = found.response.body;
  const resource = kind === 'link' ? before?.body?.link : before?.body?.checkout;
  const pageUrl: string | undefined = resource?.redirect?.url;
  if (!pageUrl) throw new ApiResponseError(`The ${kind} ${id} has no redirect.url to a hosted page.`, found.response.status, before);
  // "Save card" is a box the page shows only for tokenize INQUIRE: ticking a box that is not there would
  // save nothing, and a script reading the token would get none.
  const tokenizeMode = String(resource?.tokenize ?? 'FALSE').toUpperCase();
  if (options.saveCard && !options.decline && tokenizeMode !== 'INQUIRE' && tokenizeMode !== 'TRUE') {
    throw new ApiResponseError(
      `--save-card: the ${kind} ${id} was created with tokenize ${tokenizeMode}, so its page offers no "save card" box and no token would be made. Create it with --tokenize inquire (the customer chooses) or --tokenize true (always saved).`,
      undefined,
      undefined,
    );
  }
  const brandIds: number[] = Array.isArray(resource?.brandIds) ? resource.brandIds : [];
  const paymentsBefore = Array.isArray(before?.body?.payments) ? before.body.payments.length : 0;

  const result: PlayResult = { kind, id, pageUrl, steps: [], state: lifecycleOf(kind, before), asExpected: false, status: before };
  // The card is chosen before the page is opened: a card that cannot fit is refused with nothing sent.
  const chosen = options.decline ? undefined : chooseCard(options, brandIds);

  step('Opening the hosted page');
  const response = await client.page(pageUrl);
  const html = await response.text();
  const state = pageState(html);
  const formToken = hiddenInput(html, F.formToken);
  if (response.status !== 200 || !formToken) {
    const why = headingText(html) ?? alertText(html) ?? stripTags(html).slice(0, 200);
    throw new ApiResponseError(
      `The hosted page of ${kind} ${id} offers no payment form (HTTP ${response.status}, state ${state ?? 'unknown'}, ${kind} is ${result.state})${why ? `: ${why}` : '.'}`,
      response.status,
      undefined,
    );
  }

  let fields: Record<string, string | undefined>;
  let action: PlayStep['action'];
  const saved = options.savedCard && !options.decline ? firstSavedCard(html) : undefined;
  if (options.savedCard && !options.decline && !saved?.token) {
    throw new ApiResponseError(
      `--saved-card: the hosted page of ${kind} ${id} offers no saved card (a one-click checkout's oneClick tokens or useCustomerTokens).`,
      undefined,
      undefined,
    );
  }
  if (options.decline) {
    fields = { [F.formToken]: formToken, [F.action]: FORM_ACTIONS.decline };
    action = 'decline';
    result.expectedResult = -10;
  } else if (saved !== undefined) {
    // The saved card's own CVV length (4 digits for American Express), as the page asks for it.
    fields = { [F.formToken]: formToken, [F.action]: FORM_ACTIONS.pay, [F.savedToken]: saved.token, [F.cvv]: options.cvv ?? testCardCvv(saved.brandId) };
    action = 'pay';
  } else {
    fields = cardFormFields(formToken, FORM_ACTIONS.pay, chosen!, sandboxYear(before), options);
    action = 'pay';
    expectCard(result, chosen!, options);
  }

  await submitAndFollow(client, result, { url: pageUrl, fields, action }, options);

  step('Reading the resulting status');
  const after = expectOk(await client.get(pathOfId(kind === 'link' ? 'links.get' : 'checkouts.get', id)), `${kind} ${id}`);
  result.status = after.body;
  result.state = lifecycleOf(kind, after.body);
  const payments: any[] = Array.isArray(after.body?.body?.payments) ? after.body.body.payments : [];
  // The page answered "already paid" to this play's form: another payment won the race since the page was
  // opened, and the payment the link now lists is that one, not this play's.
  const lost = result.steps.some((s) => s.location === undefined && s.state === 'paid');
  if (lost) {
    const winner = payments.find((p) => Number(p?.result) === 0) ?? payments[payments.length - 1];
    result.paidByAnother = String(winner?.body?.transaction?.id ?? 'unknown');
  } else if (payments.length > paymentsBefore) {
    const last = payments[payments.length - 1];
    result.payment = {
      id: last?.body?.transaction?.id,
      result: Number(last?.result),
      description: String(last?.description ?? ''),
      token: last?.body?.token?.token,
    };
  }
  result.asExpected = judge(result);
  return result;
}

/**
 * Did the play end as asked? A decline asked for is success; an unknown card counts when it was processed;
 * a retry card (failed-retry, declined-retry) fails only its first attempt, so its approval on a later
 * attempt is what the card does too.
 */
function judge(result: PlayResult): boolean {
  if (result.expectedResult === -10 && result.steps[0]?.action === 'decline') return result.state === 'DECLINEDBYCUSTOMER';
  if (!result.payment) return false;
  if (result.expectedResult === undefined) return true;
  const retryCard = result.card?.outcome === 'failed-retry' || result.card?.outcome === 'declined-retry';
  return result.payment.result === result.expectedResult || (retryCard && result.payment.result === 0);
}

type ChosenCard = ReturnType<typeof chooseCard>;

/** The card form's fields for `card`: what the options give, else what the sandbox's rules fill in for its brand. */
function cardFormFields(
  formToken: string,
  formAction: string,
  card: ChosenCard,
  year: number,
  options: PlayCustomerOptions,
): Record<string, string | undefined> {
  const { number, known } = card;
  // The brand by the sandbox's own rules (test-card table, then the number's range), for the CVV's length.
  const filled = defaultCardFields(known?.brandId ?? detectBrand(number.replace(/\D/g, '')), year);
  return {
    [F.formToken]: formToken,
    [F.action]: formAction,
    [F.cardNumber]: number,
    [F.expiryMonth]: options.expiryMonth ?? filled.expiryMonth,
    [F.expiryYear]: options.expiryYear ?? filled.expiryYear,
    [F.cvv]: options.cvv ?? filled.cvv,
    [F.holderName]: options.holderName ?? filled.holderName,
    [F.saveCard]: options.saveCard ? SAVE_CARD_ON : undefined,
  };
}

/** What paying with `card` should end in: its test-card outcome, a 3-D Secure card's by the code given. */
function expectCard(result: PlayResult, card: ChosenCard, options: PlayCustomerOptions): void {
  const { number, known } = card;
  result.card = { brandId: known?.brandId, lastFourDigits: number.slice(-4), outcome: known?.outcome };
  const code = options.threeDSCode === undefined ? THREE_DS_APPROVE_CODE : options.threeDSCode;
  if (known) result.expectedResult = known.outcome === '3ds' ? (code === THREE_DS_APPROVE_CODE ? 0 : -10) : known.result;
}

/** The fields that answer a 3-D Secure challenge: the code, or cancel when `code` is null. */
function challengeFields(formToken: string, code: string | null): Record<string, string> {
  return code === null
    ? { [CHALLENGE_FIELDS.formToken]: formToken, [CHALLENGE_FIELDS.action]: FORM_ACTIONS.cancel }
    : { [CHALLENGE_FIELDS.formToken]: formToken, [CHALLENGE_FIELDS.action]: FORM_ACTIONS.submit, [CHALLENGE_FIELDS.code]: code };
}

/**
 * Posts a hosted form and goes where its answer leads, as a browser would: the 3-D Secure challenge a card
 * opens is answered with the code asked for (cancelled when null), a redirect off the page is the return to
 * the merchant (followed unless `follow` is false), a page answer ends the play. Every post is a step of
 * `result`. Written once for the pages of links and checkouts and for a payment's own card form and challenge.
 */
async function submitAndFollow(
  client: ApiClient,
  result: PlayResult,
  start: { url: string; fields: Record<string, string | undefined>; action: PlayStep['action'] },
  options: PlayCustomerOptions,
): Promise<void> {
  const step = options.onStep ?? (() => {});
  const code = options.threeDSCode === undefined ? THREE_DS_APPROVE_CODE : options.threeDSCode;
  let { url: postUrl, fields, action } = start;
  for (let i = 0; i < MAX_STEPS; i++) {
    step(action === 'pay' ? 'Submitting the card' : action === 'decline' ? 'Pressing decline' : 'Answering the 3-D Secure challenge');
    const response = await client.postForm(postUrl, fields);
    const location = response.headers.get('location');
    const entry: PlayStep = { action, url: postUrl, status: response.status };
    result.steps.push(entry);
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      const target = new URL(location, postUrl).href;
      entry.location = target;
      if (action === 'pay' && isThreeDSecure(target, client.baseUrl, start.url)) {
        step('Opening the 3-D Secure challenge');
        const challenge = await client.page(target);
        const html = await challenge.text();
        const formToken = hiddenInput(html, CHALLENGE_FIELDS.formToken);
        if (challenge.status !== 200 || !formToken) {
          entry.message = alertText(html);
          break;
        }
        // A challenge the card did not ask for (a --3ds link) ends as the code given: cancelled or a wrong
        // code is -10 there too, which is what was asked.
        if (code !== THREE_DS_APPROVE_CODE) result.expectedResult = -10;
        fields = challengeFields(formToken, code);
        action = code === null ? '3ds-cancel' : '3ds-submit';
        postUrl = target;
        continue;
      }
      // A redirect back to the form itself (a payment's card form after a failed attempt) is no return.
      if (new URL(target).pathname !== new URL(postUrl).pathname) {
        result.returnUrl = target;
        if (options.follow !== false) {
          step('Following the redirect to returnUrl');
          result.merchant = await visitMerchant(client, target);
        }
      }
      break;
    }
    const html = await response.text();
    entry.state = pageState(html);
    entry.message = alertText(html);
    break;
  }
}

function isThreeDSecure(target: string, baseUrl: string, pageUrl: string): boolean {
  const url = new URL(target);
  const sameOrigin = url.origin === new URL(pageUrl).origin || url.origin === new URL(baseUrl).origin;
  return sameOrigin && matchRoute('GET', url.pathname).target?.name === 'challenge.page';
}

async function visitMerchant(client: ApiClient, url: string): Promise<{ status?: number; error?: string }> {
  try {
    const response = await client.visit(url);
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    return { error: networkReason(error) };
  }
}

function sandboxYear(envelope: any): number {
  const stamp = Date.parse(String(envelope?.header?.requestTimestamp ?? ''));
  return new Date(Number.isNaN(stamp) ? Date.now() : stamp).getUTCFullYear();
}

/** The page's first `<h1>`, for a one-line reason. */
function headingText(html: string): string | undefined {
  const match = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  const text = match ? stripTags(match[1] ?? '') : '';
  return text || undefined;
}

function stripTags(html: string): string {
  return decodeEntities(html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, '').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

export interface PlaySimulatorOptions {
  /** Which button the customer presses. @default "approved" */
  outcome?: SimulatorOutcome | undefined;
  /** GET the returnUrl the page redirects to (the merchant's answer is reported, never fatal). @default true */
  follow?: boolean | undefined;
  /** Progress notes, for a spinner. */
  onStep?: ((text: string) => void) | undefined;
}

/** Where a pending payment waits for the customer: its bank or wallet page, or a card page (3-D Secure, card form). */
export type PaymentPage = { page: 'bank' | 'wallet'; url: string; response: HttpAnswer } | { page: '3ds' | 'card-form'; url: string; envelope: unknown };

/**
 * Finds the page a pending payment waits on: its bank or wallet page first (GET, not a read of the payment:
 * a read applies the staging convention on the amount and would settle a bank payment before the customer
 * acts), else, read from the API, the 3-D Secure page of a direct card payment or the card form of a card
 * redirect payment. A payment that waits on no page is exit 3, saying what it is.
 */
export async function locatePaymentPage(client: ApiClient, id: string): Promise<PaymentPage> {
  for (const page of ['bank', 'wallet'] as const) {
    const url = client.url(page === 'bank' ? bankPath(id) : walletPath(id));
    const response = await client.page(url);
    if (response.status !== 404) return { page, url, response };
    await response.body?.cancel();
  }
  const read = await client.get(pathOfId('payments.get', id));
  if (read.status === 404) throw ApiResponseError.fromEnvelope(404, read.body as ErrorEnvelope, `No payment ${id} for business ${client.businessId}`);
  const envelope: any = read.body;
  const waiting: unknown = envelope?.body?.redirect?.url;
  if (typeof waiting === 'string' && Number(envelope?.result) === 2) {
    const url = new URL(waiting, client.baseUrl);
    const route = matchRoute('GET', url.pathname).target?.name;
    if (route === 'challenge.page') return { page: '3ds', url: url.href, envelope };
    if (route === 'hosted.payment') return { page: 'card-form', url: url.href, envelope };
  }
  throw new ApiResponseError(`Payment ${id} waits on no page the customer could use: it is ${describePayment(read.body)}.`, read.status, undefined);
}

/**
 * Plays the customer on the bank or wallet page of a pending iDEAL, Sofort, Giropay, EPS or PayPal payment,
 * as a browser does: GET the page (the bank page, else the wallet page), POST the button of the outcome
 * asked for (`located`: the page already found by {@link locatePaymentPage}), follow the 303 to the merchant's `returnUrl?id=` (or back to the page when the payment has no
 * returnUrl), then read the payment from the API. The payment is not read before the page is used: a read
 * applies the staging convention on the amount (1.xx approves...) and would settle it before the customer acts.
 */
export async function playSimulator(client: ApiClient, id: string, options: PlaySimulatorOptions = {}, located?: PaymentPage): Promise<PlayResult> {
  const step = options.onStep ?? (() => {});
  const outcome = options.outcome ?? 'approved';
  const button = SIMULATOR_BUTTONS[outcome];
  step('Opening the bank or wallet page');
  const found = located ?? (await locatePaymentPage(client, id));
  if (found.page !== 'bank' && found.page !== 'wallet')
    throw new ApiResponseError(
      `Payment ${id} waits on its ${found.page === '3ds' ? '3-D Secure page' : 'card form'}, not a bank or wallet page.`,
      undefined,
      undefined,
    );
  const { page, url: pageUrl } = found;
  const html = await found.response.text();
  const result: PlayResult = {
    kind: 'payment',
    id,
    page,
    pageUrl,
    steps: [],
    expectedResult: button.result,
    state: 'PENDING',
    asExpected: false,
    status: undefined,
  };
  const state = pageState(html);
  if (found.response.status !== 200 || state !== 'form') {
    const why = [headingText(html), alertText(html)].filter((text) => text !== undefined).join('. ');
    throw new ApiResponseError(
      `The ${page} page of payment ${id} offers no buttons (HTTP ${found.response.status}, state ${state ?? 'unknown'})${why ? `: ${why}` : '.'}`,
      found.response.status,
      undefined,
    );
  }

  step(`Pressing ${button.action}`);
  // What a browser sends with the button: the form's choices as they stand (iDEAL's bank, when the page asks).
  const response = await client.postForm(pageUrl, { ...selectDefaults(html), action: button.action });
  const entry: PlayStep = { action: button.action, url: pageUrl, status: response.status };
  result.steps.push(entry);
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) {
    await response.body?.cancel();
    const target = new URL(location, pageUrl).href;
    entry.location = target;
    if (new URL(target).pathname === new URL(pageUrl).pathname) {
      // No returnUrl: the page itself shows how it ended.
      const shown = await client.page(target);
      const text = await shown.text();
      entry.state = pageState(text);
      entry.message = alertText(text);
    } else {
      result.returnUrl = target;
      if (options.follow !== false) {
        step('Following the redirect to returnUrl');
        result.merchant = await visitMerchant(client, target);
      }
    }
  } else {
    const text = await response.text();
    entry.state = pageState(text);
    entry.message = alertText(text) ?? headingText(text);
  }

  step('Reading the payment');
  const payment = await readPaymentBack(client, id, result);
  result.asExpected = payment.result === button.result;
  return result;
}

/**
 * Plays the customer on the card page a direct or card redirect payment waits on (see
 * {@link locatePaymentPage}): the card form is filled in as on a link's page (the card of `card` or
 * `outcome`, then its 3-D Secure challenge when one opens), the 3-D Secure page answered with
 * `threeDSCode` (1234 approves, `null` cancels). Then the redirect to returnUrl is followed and the payment
 * read from the API.
 */
export async function playCardPage(
  client: ApiClient,
  id: string,
  located: Extract<PaymentPage, { page: '3ds' | 'card-form' }>,
  options: PlayCustomerOptions = {},
): Promise<PlayResult> {
  const step = options.onStep ?? (() => {});
  const code = options.threeDSCode === undefined ? THREE_DS_APPROVE_CODE : options.threeDSCode;
  const result: PlayResult = {
    kind: 'payment',
    id,
    page: located.page,
    pageUrl: located.url,
    steps: [],
    state: 'PENDING',
    asExpected: false,
    status: located.envelope,
  };
  step(located.page === '3ds' ? 'Opening the 3-D Secure page' : 'Opening the card form');
  const response = await client.page(located.url);
  const html = await response.text();
  let fields: Record<string, string | undefined>;
  let action: PlayStep['action'];
  if (located.page === '3ds') {
    const formToken = hiddenInput(html, CHALLENGE_FIELDS.formToken);
    if (response.status !== 200 || !formToken)
      throw new ApiResponseError(
        `The 3-D Secure page of payment ${id} offers no form (HTTP ${response.status})${alertText(html) ? `: ${alertText(html)}` : '.'}`,
        response.status,
        undefined,
      );
    fields = challengeFields(formToken, code);
    action = code === null ? '3ds-cancel' : '3ds-submit';
    result.expectedResult = code === THREE_DS_APPROVE_CODE ? 0 : -10;
  } else {
    const formToken = hiddenInput(html, F.formToken);
    if (response.status !== 200 || !formToken)
      throw new ApiResponseError(
        `The card form of payment ${id} offers no form (HTTP ${response.status})${alertText(html) ? `: ${alertText(html)}` : '.'}`,
        response.status,
        undefined,
      );
    const brandId = Number((located.envelope as any)?.body?.transaction?.brandId);
    const card = chooseCard(options, Number.isFinite(brandId) ? [brandId] : []);
    fields = cardFormFields(formToken, options.decline ? FORM_ACTIONS.decline : FORM_ACTIONS.pay, card, sandboxYear(located.envelope), options);
    action = options.decline ? 'decline' : 'pay';
    if (options.decline) result.expectedResult = -10;
    else expectCard(result, card, options);
  }
  await submitAndFollow(client, result, { url: located.url, fields, action }, options);
  step('Reading the payment');
  const payment = await readPaymentBack(client, id, result);
  const retryCard = result.card?.outcome === 'failed-retry' || result.card?.outcome === 'declined-retry';
  result.asExpected =
    result.expectedResult === undefined ? payment.result !== 2 : payment.result === result.expectedResult || (retryCard && payment.result === 0);
  return result;
}

/**
 * The payment read back after a page was played: its envelope, state and result on `result` (answered too). A settled
 * payment that did not succeed answers 400 with its envelope: still the payment, read back.
 */
async function readPaymentBack(client: ApiClient, id: string, result: PlayResult): Promise<NonNullable<PlayResult['payment']>> {
  const after = await client.get(pathOfId('payments.get', id));
  const envelope: any = after.body;
  if (envelope?.body?.transaction?.id === undefined) expectOk(after, `payment ${id}`);
  result.status = envelope;
  result.state = String(envelope?.description ?? 'UNKNOWN');
  result.payment = { id, result: Number(envelope?.result), description: String(envelope?.description ?? ''), token: envelope?.body?.token?.token };
  return result.payment;
}

function describePayment(envelope: any): string {
  const brandId = envelope?.body?.transaction?.brandId;
  const redirect = envelope?.body?.redirect?.url;
  const what = redirect ? `waiting on ${redirect}` : `${envelope?.description ?? 'settled'} (result ${envelope?.result})`;
  return `${brandId !== undefined ? `brand ${brandId}, ` : ''}${what}`;
}
