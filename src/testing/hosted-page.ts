/**
 * `payOnHostedPage(page, options)`: plays the customer on the sandbox's hosted payment page in a Playwright
 * page, whether the page is the hosted page itself (after following `redirect.url`) or the merchant's own
 * page with the browser library's iframe in it. It picks a test card of a brand the page accepts for the
 * outcome, fills the form (or, on a one-click checkout, picks a saved card and types its CVV), ticks the
 * save-card box when asked, answers the 3-D Secure challenge, and
 * resolves once the browser is back at the merchant's `returnUrl` (or the form came back with an error).
 *
 * It finds everything by the pages' `data-paylink-*` attributes, the contract docs/testing.md lists; the
 * Page type is structural (the few methods used), so consumers need no Playwright types to compile.
 */
import {
  CARD_FIELDS,
  CHALLENGE_FIELDS,
  defaultCardFields,
  FORM_ACTIONS,
  PAGE_CONFIG_ID,
  PAGE_FORMS,
  PAGE_MARKS as M,
  testCardCvv,
} from '../sandbox/domain/hosted-form.js';
import { cardForOutcome, detectBrand, THREE_DS_APPROVE_CODE, type OutcomeName } from '../sandbox/domain/test-cards.js';
import { HOSTED_BASE } from '../sandbox/domain/routes.js';

export type { OutcomeName } from '../sandbox/domain/test-cards.js';

/** The part of Playwright's Locator used here. */
export interface LocatorLike {
  count(): Promise<number>;
  nth(index: number): LocatorLike;
  fill(value: string, options?: { timeout?: number }): Promise<void>;
  click(options?: { timeout?: number }): Promise<void>;
  check(options?: { timeout?: number }): Promise<void>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  textContent(options?: { timeout?: number }): Promise<string | null>;
}

/** The part of Playwright's Frame used here. */
export interface FrameLike {
  url(): string;
  locator(selector: string): LocatorLike;
}

/** The part of Playwright's Request used here. */
export interface RequestLike {
  url(): string;
  isNavigationRequest(): boolean;
  frame(): unknown;
}

/** The part of Playwright's Page used here: a Playwright `Page` is one. */
export interface PageLike {
  url(): string;
  frames(): FrameLike[];
  /** Playwright's; when present, the redirect to the returnUrl is read from the navigation itself. */
  mainFrame?(): unknown;
  on?(event: 'request', listener: (request: RequestLike) => void): unknown;
  off?(event: 'request', listener: (request: RequestLike) => void): unknown;
}

export interface PayOnHostedPageOptions {
  /**
   * What the card does (a test card of an accepted brand is chosen for it): `approved`, `declined`,
   * `insufficient-funds`, `3ds`, ... (docs/test-cards.md).
   * @default "approved"
   */
  outcome?: OutcomeName;
  /** Pay with this card number instead of one chosen for the outcome. */
  cardNumber?: string;
  /** Tick "save this card" (checkouts and links with tokenize INQUIRE); fails when the page offers none. */
  saveCard?: boolean;
  /**
   * One-click checkouts: pay with a saved card the page offers instead of typing one: `true` for the first
   * (the one the page chose), or the token of the one to pick. Its CVV is typed when the page asks for it
   * (`oneClick.requireCvv`); fails when the page offers no such saved card. `outcome` and `cardNumber` do not
   * apply: a saved card replays the outcome it was saved with.
   */
  savedCard?: boolean | string;
  /**
   * The code typed into the 3-D Secure challenge; `null` presses Cancel instead.
   * @default "1234" (approves)
   */
  threeDSecureCode?: string | null;
  /** Press "Decline payment" instead of paying. */
  decline?: boolean;
  /** Name on the card. @default "Test Customer" */
  holderName?: string;
  /**
   * How long to wait for the form, the challenge and the way back.
   * @default 30000
   */
  timeoutMs?: number;
}

export interface PayOnHostedPageResult {
  /** True once the browser was sent back to the merchant's returnUrl. */
  returned: boolean;
  /**
   * The returnUrl the browser was sent to (with `linkId`/`checkoutId`/`id`) when returned, even when nothing
   * answers there; else the page's URL at the end.
   */
  url: string;
  /** True when the browser was sent back but nothing answered at the returnUrl (the browser shows its own error page). */
  returnUrlUnanswered?: boolean;
  /** The card number used (none for a decline or a saved card). */
  cardNumber?: string;
  /** The saved card's token paid with (`savedCard`). */
  savedCard?: string;
  /** Where the customer stayed when not returned: `form` (shown again after a failed attempt) or the page's state. */
  state?: string;
  /** The message the page showed when the form came back. */
  error?: string;
}

const HOSTED_PATH = `${HOSTED_BASE}/`;
const POLL_MS = 100;
/** Longest one look at a page waits (an element may go with a navigation between count and read). */
const PEEK = { timeout: 1000 };

async function firstFrameWith(page: PageLike, selector: string): Promise<FrameLike | undefined> {
  for (const frame of page.frames()) {
    try {
      if ((await frame.locator(selector).count()) > 0) return frame;
    } catch {
      // A frame navigating or detached while asked: look again on the next round.
    }
  }
  return undefined;
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`payOnHostedPage: ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Neither a hosted page of the sandbox nor the blank page a frame starts with. */
function outsideSandbox(url: string, startUrl: string): boolean {
  return url !== startUrl && !url.includes(HOSTED_PATH) && !url.startsWith('about:');
}

/** Where the top window was last sent outside the sandbox's pages, read from its navigations (Playwright pages). */
function watchReturn(page: PageLike, startUrl: string): { sentTo(): string | undefined; stop(): void } {
  let sentTo: string | undefined;
  if (page.on === undefined || page.mainFrame === undefined) return { sentTo: () => undefined, stop: () => {} };
  const main = page.mainFrame();
  const listener = (request: RequestLike) => {
    try {
      if (request.isNavigationRequest() && request.frame() === main && outsideSandbox(request.url(), startUrl) && /^https?:/.test(request.url()))
        sentTo = request.url();
    } catch {
      // A request of a worker or of a frame already gone: not the top window's.
    }
  };
  page.on('request', listener);
  return { sentTo: () => sentTo, stop: () => page.off?.('request', listener) };
}

/**
 * The sandbox clock's year, as the card form's page data gives it (`now`): the year the sandbox judges a
 * card's expiry by, which `paylink clock` may have moved. This machine's year when the page has none.
 */
async function pageYear(frame: FrameLike): Promise<number> {
  const text = await frame
    .locator(`#${PAGE_CONFIG_ID}`)
    .textContent(PEEK)
    .catch(() => null);
  try {
    // Read as data (src/testing may not import the pages): `now` of pages/hosted/page-config.ts.
    const year: unknown = (JSON.parse(text ?? '') as { now?: { year?: unknown } }).now?.year;
    if (typeof year === 'number' && Number.isInteger(year)) return year;
  } catch {
    // No page data: this machine's year.
  }
  return new Date().getUTCFullYear();
}

/** The selector of one of the hosted pages' forms, by its mark. */
const formOf = (kind: (typeof PAGE_FORMS)[keyof typeof PAGE_FORMS]): string => `[${M.form}="${kind}"]`;

/**
 * Picks a saved card on a one-click checkout's page (its saved-card form, whose radio buttons carry each card's
 * brand), types the CVV of its brand when asked and presses its pay button; answers the token paid with.
 */
async function paySavedCard(frame: FrameLike, choice: true | string): Promise<string> {
  const saved = formOf(PAGE_FORMS.saved);
  const radios = `${saved} input[name="${CARD_FIELDS.savedToken}"]`;
  if ((await frame.locator(radios).count()) === 0)
    throw new Error(
      'payOnHostedPage: savedCard was asked, but this page offers no saved card (a one-click checkout: checkout.oneClick.tokens, or useCustomerTokens with customer.customerId)',
    );
  let chosen = frame.locator(radios).nth(0);
  if (typeof choice === 'string') {
    if (!/^[A-Za-z0-9_-]+$/.test(choice)) throw new Error(`payOnHostedPage: savedCard "${choice}" is not a token`);
    chosen = frame.locator(`${radios}[value="${choice}"]`);
    if ((await chosen.count()) === 0) throw new Error(`payOnHostedPage: this page does not offer the saved card ${choice}`);
  }
  await chosen.check();
  const token = (await chosen.getAttribute('value')) ?? '';
  const brandId = Number(await chosen.getAttribute(M.savedBrand, PEEK));
  const cvv = frame.locator(`${saved} input[name="${CARD_FIELDS.cvv}"]`);
  if ((await cvv.count()) > 0) await cvv.fill(testCardCvv(Number.isFinite(brandId) ? brandId : undefined));
  await frame.locator(`${saved} button[name="${CARD_FIELDS.action}"][value="${FORM_ACTIONS.pay}"]`).click();
  return token;
}

/** Pays (or declines) on the hosted page shown in `page`; see the module's comment. */
export async function payOnHostedPage(page: PageLike, options: PayOnHostedPageOptions = {}): Promise<PayOnHostedPageResult> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const startUrl = page.url();
  const form = await waitFor(`no hosted card form (${formOf(PAGE_FORMS.card)}) appeared`, timeoutMs, () => firstFrameWith(page, formOf(PAGE_FORMS.card)));
  const tokenInput = `${formOf(PAGE_FORMS.card)} input[name="${CARD_FIELDS.formToken}"]`;
  const token = await form.locator(tokenInput).getAttribute('value');
  const field = (name: string) => form.locator(`[${M.field}="${name}"]`);
  let cardNumber: string | undefined;
  let savedCard: string | undefined;
  const watch = watchReturn(page, startUrl);

  if (options.decline === true) {
    await form.locator(`[${M.action}="${FORM_ACTIONS.decline}"]`).click();
  } else if (options.savedCard !== undefined && options.savedCard !== false) {
    savedCard = await paySavedCard(form, options.savedCard);
  } else {
    const brands = form.locator(`[${M.brand}]`);
    const brandIds: number[] = [];
    for (let i = 0; i < (await brands.count()); i++) brandIds.push(Number(await brands.nth(i).getAttribute(M.brand, PEEK)));
    const outcome = options.outcome ?? 'approved';
    const card = options.cardNumber === undefined ? cardForOutcome(outcome, brandIds) : undefined;
    if (options.cardNumber === undefined && card === undefined) throw new Error(`payOnHostedPage: no test card gives the outcome "${outcome}"`);
    cardNumber = options.cardNumber ?? card!.number;
    // The brand by the sandbox's own rules (test-card table, then the number's range), for the CVV's length.
    // The sandbox's own default for a test card: an expiry counted from the sandbox clock's year, as the page's fill buttons give it.
    const filled = defaultCardFields(card?.brandId ?? detectBrand(cardNumber.replace(/\D/g, '')), await pageYear(form));
    await field(CARD_FIELDS.cardNumber).fill(cardNumber);
    await field(CARD_FIELDS.expiryMonth).fill(filled.expiryMonth);
    await field(CARD_FIELDS.expiryYear).fill(filled.expiryYear);
    await field(CARD_FIELDS.cvv).fill(filled.cvv);
    await field(CARD_FIELDS.holderName).fill(options.holderName ?? filled.holderName);
    if (options.saveCard === true) {
      const box = field(CARD_FIELDS.saveCard);
      if ((await box.count()) === 0)
        throw new Error('payOnHostedPage: saveCard was asked, but this page offers no "save this card" box (tokenize must be INQUIRE)');
      await box.check();
    }
    await form.locator(`[${M.action}="${FORM_ACTIONS.pay}"]`).click();
  }

  let challenged = false;
  try {
    return await waitFor('the browser did not get back to the returnUrl, and the form did not come back', timeoutMs, async () => {
      const now = page.url();
      if (outsideSandbox(now, startUrl)) {
        // Nothing answered at the returnUrl: the browser shows its error page, the redirect still says where it went.
        const sentTo = watch.sentTo();
        if (now.startsWith('chrome-error:') && sentTo !== undefined)
          return { returned: true, url: sentTo, returnUrlUnanswered: true, ...(cardNumber ? { cardNumber } : {}), ...(savedCard ? { savedCard } : {}) };
        return { returned: true, url: now, ...(cardNumber ? { cardNumber } : {}), ...(savedCard ? { savedCard } : {}) };
      }
      if (!challenged) {
        const challenge = await firstFrameWith(page, formOf(PAGE_FORMS.challenge));
        if (challenge !== undefined) {
          challenged = true;
          if (options.threeDSecureCode === null) {
            await challenge.locator(`[${M.action}="${FORM_ACTIONS.cancel}"]`).click();
          } else {
            await challenge.locator(`[${M.field}="${CHALLENGE_FIELDS.code}"]`).fill(options.threeDSecureCode ?? THREE_DS_APPROVE_CODE);
            await challenge.locator(`[${M.action}="${FORM_ACTIONS.submit}"]`).click();
          }
          return undefined;
        }
      }
      // The form again (a new one-time token) with the reason: the attempt failed and the customer stays.
      const again = await firstFrameWith(page, formOf(PAGE_FORMS.card));
      if (
        again !== undefined &&
        (await again
          .locator(`[${M.alert}]`)
          .count()
          .catch(() => 0)) > 0
      ) {
        const next = await again
          .locator(tokenInput)
          .getAttribute('value', PEEK)
          .catch(() => token);
        const alert = (
          (await again
            .locator(`[${M.alert}]`)
            .textContent(PEEK)
            .catch(() => '')) ?? ''
        ).trim();
        if (next !== token && alert !== '')
          return { returned: false, url: page.url(), state: 'form', error: alert, ...(cardNumber ? { cardNumber } : {}), ...(savedCard ? { savedCard } : {}) };
      }
      // A page with no form (declined, expired, paid...) that did not send the browser back.
      for (const frame of page.frames()) {
        if (
          (await frame
            .locator(`body[${M.state}]`)
            .count()
            .catch(() => 0)) === 0
        )
          continue;
        const state = await frame
          .locator(`body[${M.state}]`)
          .getAttribute(M.state, PEEK)
          .catch(() => null);
        if (state !== null && state !== 'form' && state !== 'challenge' && state !== 'result') {
          const text = (
            (await frame
              .locator(`[${M.alert}]`)
              .textContent(PEEK)
              .catch(() => '')) ?? ''
          ).trim();
          return {
            returned: false,
            url: page.url(),
            state,
            ...(text ? { error: text } : {}),
            ...(cardNumber ? { cardNumber } : {}),
            ...(savedCard ? { savedCard } : {}),
          };
        }
      }
      return undefined;
    });
  } finally {
    watch.stop();
  }
}
