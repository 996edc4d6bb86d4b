/**
 * The hosted payment pages (issue 4, contract 3): the card form of links and checkouts, the 3-D Secure
 * page, the pages for every state a customer can land on, and their stylesheet and script. Handlers load
 * records, let `services/attempts.ts` move the lifecycle, and hand view models to `src/pages/hosted`.
 */
import { readFileSync } from 'node:fs';
import { brandById } from '../domain/brands.js';
import { cvvLength } from '../domain/cards.js';
import { formatAmount } from '../domain/money.js';
import type { PaymentRecord } from '../domain/records.js';
import { ERROR_CODES, notFound, type ApiError } from '../errors.js';
import { packageFile } from '../../package-files.js';
import { readForm } from '../http/request.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import { HOSTED_CSS, renderCardFormPage, renderChallengePage, renderStatePage, type OrderSummary, type StatePageView } from '../../pages/hosted/index.js';
import type { CardFormPost, ChallengeOutcome, KeptValues } from '../services/submission.js';
import { parentState, parentStatus, type Ending, type Parent, type ParentState } from '../domain/lifecycle.js';
import { challengePath, hostedPath, merchantRedirect, paymentFormPath } from '../domain/paths.js';
import { CARD_FIELDS, CHALLENGE_FIELDS, FORM_ACTIONS, FRAMED_ON, SAVE_CARD_ON, formTarget } from '../domain/hosted-form.js';
import { embeddedThreeDSecureMessage } from '../domain/three-d-secure.js';

/**
 * Headers of every hosted page. Scripts only from the sandbox itself (no inline script); styles, fonts and
 * the logo may come from the merchant's servers (`fontFamilyUrl`, `imageUrl`); any site may frame the page
 * (merchants embed it with the library); forms may post here and be redirected to the merchant's
 * `returnUrl` on any http(s) origin (Chromium checks form-action on redirects too).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' https: http:",
    "font-src 'self' https: http: data:",
    "img-src 'self' https: http: data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self' http: https:",
    'frame-ancestors *',
  ].join('; '),
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** A hosted page answer with the hosted pages' headers. */
export function page(status: number, text: string): Reply {
  return Reply.html(status, text, { ...PAGE_HEADERS });
}

/** A 303 that is never cached. */
export function seeOther(location: string): Reply {
  return Reply.redirect(location, 303, { 'cache-control': 'no-store' });
}

function orderOf(parent: Parent): OrderSummary {
  const t = parent.record.transaction;
  return { merchant: parent.record.businessId, amountText: formatAmount(t.amount, t.currencyCode), trackingCode: t.trackingCode };
}

/** The sandbox clock's year and month, for the card form's past-expiry check. */
export function nowParts(sandbox: SandboxView): { year: number; month: number } {
  const now = new Date(sandbox.clock.now());
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
}

const NOUN: Record<Parent['kind'], string> = { link: 'payment link', checkout: 'checkout' };

function lastPaymentId(parent: Parent): string | undefined {
  return parent.record.paymentIds[parent.record.paymentIds.length - 1];
}

/** The page for a link or checkout that offers no form: what happened, and the way back to the shop. */
function statePageView(sandbox: SandboxView, parent: Parent, state: Exclude<ParentState, 'open' | 'challenge'>, alert?: string): StatePageView {
  const noun = NOUN[parent.kind];
  const status = parentStatus(parent, sandbox.clock.now());
  const texts: Record<
    typeof state,
    { title: string; message: string; tone: StatePageView['tone']; back?: { ending: Ending; paymentId?: string | undefined } }
  > = {
    expired: { title: `This ${noun} has expired`, message: `It can no longer be paid. Ask the shop for a new one.`, tone: 'warn' },
    cancelled: { title: `This ${noun} was cancelled`, message: 'The shop cancelled it, so it can no longer be paid.', tone: 'warn' },
    paid: {
      title: 'This has already been paid',
      message: `The ${noun} was paid successfully. Nothing more is needed.`,
      tone: 'good',
      back: { ending: 'paid', paymentId: sandbox.services.hosted.paidPaymentId(parent) },
    },
    declined: {
      title: 'This payment was declined',
      message: `The payment failed three times, so this ${noun} can no longer be used.`,
      tone: 'bad',
      back: { ending: 'declined', paymentId: lastPaymentId(parent) },
    },
    declinedbycustomer: {
      title: 'You declined this payment',
      message: `The ${noun} was declined on this page, so it can no longer be paid.`,
      tone: 'neutral',
      back: { ending: 'declinedbycustomer' },
    },
  };
  const text = texts[state];
  // Expired and cancelled pages also lead back with the id, so the shop can read the status.
  const returnUrl = text.back ? merchantRedirect(parent, text.back.ending, text.back.paymentId) : merchantRedirect(parent, 'declinedbycustomer');
  return {
    state,
    title: text.title,
    message: text.message,
    tone: text.tone,
    order: orderOf(parent),
    alert,
    returnUrl,
    terminal: { code: ERROR_CODES.notPayable, message: `${text.title}.`, state: status },
  };
}

interface FormOptions {
  error?: string | undefined;
  attemptsLeft?: number | undefined;
  values?: KeptValues | undefined;
  status?: number;
}

/** The card form with a fresh one-time token. */
async function formPage(sandbox: SandboxView, parent: Parent, options: FormOptions = {}): Promise<Reply> {
  const formToken = sandbox.services.hosted.issueFormToken(formTarget(parent.kind, parent.record.id));
  return page(
    options.status ?? 200,
    renderCardFormPage({
      ...orderOf(parent),
      kind: parent.kind,
      action: hostedPath(parent.kind, parent.record.id),
      formToken,
      brands: parent.record.brandIds.flatMap((id) => {
        const brand = brandById(id);
        return brand && brand.kind === 'card' ? [{ id, name: brand.name }] : [];
      }),
      tokenize: parent.record.tokenize,
      savedCards:
        parent.kind === 'checkout'
          ? sandbox.services.hosted.savedCards(parent.record).map((t) => ({
              token: t.token,
              brandId: t.brandId,
              brandName: brandById(t.brandId)?.name ?? 'Card',
              lastFourDigits: t.lastFourDigits,
              expiry: `${t.expiryMonth.padStart(2, '0')}/${t.expiryYear}`,
              cvvLength: cvvLength(t.brandId),
            }))
          : undefined,
      savedCardCvv: parent.kind === 'checkout' ? parent.record.oneClick?.requireCvv !== false : true,
      error: options.error,
      attemptsLeft: options.attemptsLeft,
      values: options.values,
      now: nowParts(sandbox),
    }),
  );
}

/** Whatever the customer should see of a link or checkout now. */
async function currentPage(sandbox: SandboxView, parent: Parent, alert?: string, status = 200): Promise<Reply> {
  const state = parentState(parent, sandbox.clock.now());
  if (state === 'open') return formPage(sandbox, parent, { error: alert, status });
  if (state === 'challenge') {
    const open = sandbox.services.hosted.openChallenge(parent);
    if (open) return seeOther(challengePath(open.id));
    return formPage(sandbox, parent, { error: alert, status });
  }
  return page(status, renderStatePage(statePageView(sandbox, parent, state, alert)));
}

const ENDINGS: Record<Ending, { title: string; message: string; tone: StatePageView['tone'] }> = {
  paid: { title: 'Payment approved', message: 'Thank you. Taking you back to the shop…', tone: 'good' },
  declined: { title: 'Payment declined', message: 'The payment could not be completed. Taking you back to the shop…', tone: 'bad' },
  declinedbycustomer: { title: 'Payment declined', message: 'You declined the payment. Taking you back to the shop…', tone: 'neutral' },
};

/** The end of the flow: a 303 to the merchant, or inside the library's iframe a page that posts `{redirect}`. */
export function toMerchant(url: string, ending: Ending, framed: boolean): Reply {
  if (!framed) return seeOther(url);
  const text = ENDINGS[ending];
  return page(200, renderStatePage({ state: 'result', ...text, returnUrl: url, redirect: true }));
}

function text(form: URLSearchParams, name: string): string {
  return form.get(name) ?? '';
}

/** The fields of a posted card form (contract 3), the same for links, checkouts and redirect payments. */
/**
 * A post that enters a page rather than submits its form: neither the one-time `formToken` every form of
 * the sandbox's pages carries nor a button's `action`. Clients built on generic payment libraries enter a
 * `redirect.url` by posting its `fields` (or nothing) whatever its `method`, so every page the sandbox hands
 * out answers such a post as it answers a GET; it changes nothing.
 */
export function isEntryPost(form: URLSearchParams): boolean {
  return !form.has(CARD_FIELDS.formToken) && !form.has(CARD_FIELDS.action);
}

export function cardFormPost(form: URLSearchParams, saveCard: boolean): CardFormPost {
  return {
    formToken: text(form, CARD_FIELDS.formToken),
    action: form.get(CARD_FIELDS.action) === FORM_ACTIONS.decline ? 'decline' : 'pay',
    cardNumber: text(form, CARD_FIELDS.cardNumber),
    expiryMonth: text(form, CARD_FIELDS.expiryMonth),
    expiryYear: text(form, CARD_FIELDS.expiryYear),
    cvv: text(form, CARD_FIELDS.cvv),
    holderName: text(form, CARD_FIELDS.holderName),
    savedToken: text(form, CARD_FIELDS.savedToken),
    saveCard,
  };
}

function parentRoutes(kind: Parent['kind'], param: string): Route[] {
  const load = (req: RouteRequest): Parent => req.sandbox.services.hosted.parent(kind, req.params[param]!);
  return [
    {
      route: kind === 'link' ? 'hosted.link' : 'hosted.checkout',
      handler: (req) => currentPage(req.sandbox, load(req)),
    },
    {
      route: kind === 'link' ? 'hosted.link.submit' : 'hosted.checkout.submit',
      handler: async (req) => {
        const { sandbox } = req;
        const parent = load(req);
        const form = await readForm(req.event.node.req);
        if (isEntryPost(form)) return currentPage(sandbox, parent);
        const framed = form.get(CARD_FIELDS.framed) === FRAMED_ON;
        const outcome = await sandbox.services.hosted.postCardForm(parent, cardFormPost(form, form.get(CARD_FIELDS.saveCard) === SAVE_CARD_ON));
        return answer(sandbox, outcome, framed, () => sandbox.services.hosted.parent(kind, parent.record.id));
      },
    },
  ];
}

/** Turns a submission's outcome into the HTTP answer of contract 3. */
async function answer(sandbox: SandboxView, outcome: ChallengeOutcome, framed: boolean, reload: () => Parent): Promise<Reply> {
  switch (outcome.kind) {
    case 'redirect':
      return toMerchant(outcome.url, outcome.ending, framed);
    case 'challenge':
      return seeOther(outcome.url);
    case 'retry':
      return formPage(sandbox, reload(), { error: outcome.reason, attemptsLeft: outcome.attemptsLeft, values: outcome.values, status: outcome.httpStatus });
    case 'refused': {
      const parent = reload();
      const noun = NOUN[parent.kind];
      return currentPage(sandbox, parent, `This ${noun} cannot be paid any more (-8 Business rule error). Nothing was charged.`, 400);
    }
    case 'replay': {
      const previous = outcome.outcome;
      if (previous?.kind === 'redirect') return toMerchant(previous.url, previous.ending, framed);
      if (previous?.kind === 'challenge') return seeOther(previous.url);
      const parent = reload();
      return seeOther(hostedPath(parent.kind, parent.record.id));
    }
    case 'stale':
      return currentPage(sandbox, reload(), 'This form has expired or was not sent from this page, so nothing was charged. Please enter the card again.', 400);
    case 'finished':
      return page(200, renderStatePage(finishedView(outcome.payment)));
  }
}

/** A 3-D Secure check of a direct API payment (no link or checkout to go back to). */
function finishedView(payment: PaymentRecord): StatePageView {
  const approved = payment.result === 0;
  return {
    state: 'result',
    title: approved ? '3-D Secure check passed' : '3-D Secure check failed',
    message: approved
      ? 'The payment is approved. You can close this page.'
      : `The payment was not approved (${payment.result} ${payment.description}). You can close this page.`,
    tone: approved ? 'good' : 'bad',
    order: { merchant: payment.businessId, amountText: formatAmount(payment.amount, payment.currencyCode), trackingCode: payment.trackingCode },
  };
}

/**
 * The end of the embedded 3-D Secure flow (a challenge page the merchant framed itself, for a payment with
 * no link or checkout): a page that tells the merchant's page how the check ended and then opens the return
 * address inside the frame, instead of a 303 of the whole frame (or, without a return address, the page
 * saying how it ended). Undefined when the check did not end with this post.
 */
function embeddedEnd(outcome: ChallengeOutcome, payment: PaymentRecord): Reply | undefined {
  const previous = outcome.kind === 'replay' ? outcome.outcome : outcome;
  if (previous === undefined || (previous.kind !== 'redirect' && previous.kind !== 'finished')) return undefined;
  const next = previous.kind === 'redirect' ? previous.url : undefined;
  const view = finishedView(payment);
  return page(
    200,
    renderStatePage({
      ...view,
      ...(next !== undefined ? { message: 'Taking you back to the shop…', returnUrl: next } : {}),
      embeddedEnd: { message: embeddedThreeDSecureMessage(payment), targetOrigin: next !== undefined ? new URL(next).origin : '*', next },
    }),
  );
}

function cardHint(payment: PaymentRecord): string {
  const brand = brandById(payment.brandId)?.name ?? 'card';
  return `${brand} •••• ${payment.card?.lastFourDigits ?? '????'}`;
}

async function challengePage(sandbox: SandboxView, payment: PaymentRecord, error?: string, status = 200): Promise<Reply> {
  const formToken = sandbox.services.hosted.issueFormToken(formTarget('challenge', payment.id));
  return page(
    status,
    renderChallengePage({
      merchant: payment.businessId,
      amountText: formatAmount(payment.amount, payment.currencyCode),
      trackingCode: payment.trackingCode,
      action: challengePath(payment.id),
      formToken,
      cardHint: cardHint(payment),
      error,
      embeddable: payment.parentKind === undefined,
      windowSize: payment.challenge?.windowSize,
      downgraded: payment.challenge?.downgraded === true,
    }),
  );
}

function loadPayment(req: RouteRequest): PaymentRecord {
  return req.sandbox.services.hosted.payment(req.params.paymentId!);
}

/** A payment made on a hosted page (a link's, a checkout's, a card redirect's), which has pages of its own. */
function hostedFlow(payment: PaymentRecord): boolean {
  return payment.parentKind !== undefined || payment.flow === 'card';
}

/** A payment that is no longer waiting: its link, checkout or card redirect page, or how the check ended. */
function afterChallenge(sandbox: SandboxView, payment: PaymentRecord): Reply {
  const parent = sandbox.services.hosted.parentOfPayment(payment);
  if (parent) return seeOther(hostedPath(parent.kind, parent.record.id));
  if (payment.flow === 'card') return seeOther(paymentFormPath(payment.id));
  return page(200, renderStatePage(finishedView(payment)));
}

/** The 3-D Secure page as the customer enters it (a GET, or a post of `redirect.fields`). */
function challengeEntry(sandbox: SandboxView, payment: PaymentRecord): Reply | Promise<Reply> {
  if (payment.result === 2 && payment.challenge !== undefined) return challengePage(sandbox, payment);
  // No open challenge: a hosted flow's payment leads back to its own page (a reload after the check); any
  // other (a plain API payment, a direct one whose check is over) is not found, so its id alone shows
  // nothing of it: not its business, amount or reference.
  if (hostedFlow(payment)) return afterChallenge(sandbox, payment);
  throw notFound('Payment');
}

const challengeRoutes: Route[] = [
  {
    route: 'challenge.page',
    handler: (req) => challengeEntry(req.sandbox, loadPayment(req)),
  },
  {
    route: 'challenge.submit',
    handler: async (req) => {
      const { sandbox } = req;
      const payment = loadPayment(req);
      const form = await readForm(req.event.node.req);
      // The merchant's page posting `redirect.fields` (MD, PaReq, TermUrl): the challenge, as a GET shows it.
      if (isEntryPost(form)) return challengeEntry(req.sandbox, payment);
      const framed = form.get(CARD_FIELDS.framed) === FRAMED_ON;
      const { outcome, current } = await sandbox.services.hosted.postChallenge(payment, {
        formToken: text(form, CHALLENGE_FIELDS.formToken),
        action: form.get(CHALLENGE_FIELDS.action) === FORM_ACTIONS.cancel ? 'cancel' : 'submit',
        code: text(form, CHALLENGE_FIELDS.code),
      });
      // A form of no challenge of this payment (it never had one, or the token is unknown) is not found either;
      // a replayed token of the flow that opened it still leads on.
      if (outcome.kind === 'stale' && (payment.result !== 2 || payment.challenge === undefined) && !hostedFlow(payment)) throw notFound('Payment');
      if (outcome.kind === 'stale') {
        if (current.result === 2) return challengePage(sandbox, current, 'This form has expired or was already sent. Please enter the code again.', 400);
        return afterChallenge(sandbox, current);
      }
      if (outcome.kind === 'replay' && outcome.outcome?.kind !== 'redirect' && outcome.outcome?.kind !== 'challenge') {
        return afterChallenge(sandbox, current);
      }
      const parent = sandbox.services.hosted.parentOfPayment(current);
      if (framed && parent === undefined) {
        const end = embeddedEnd(outcome, current);
        if (end) return end;
      }
      return answer(sandbox, outcome, framed, () => parent!);
    },
  },
];

/** Where the hosted pages' script is built (`tsconfig.hosted.json`, scripts/build.mjs). */
const HOSTED_SCRIPT_URL = packageFile('dist/hosted/hosted.js');

/** The hosted pages' script (src/pages/hosted/client), read once; undefined when the build has not made it. */
const HOSTED_SCRIPT: string | undefined = (() => {
  try {
    return readFileSync(HOSTED_SCRIPT_URL, 'utf8');
  } catch {
    return undefined;
  }
})();

function hostedScript(): string {
  if (HOSTED_SCRIPT === undefined) throw new Error(`The hosted pages' script is not built (${HOSTED_SCRIPT_URL.pathname} is missing): run \`npm run build\`.`);
  return HOSTED_SCRIPT;
}

const ASSETS: Record<string, { type: string; body: () => string }> = {
  'hosted.css': { type: 'text/css; charset=utf-8', body: () => HOSTED_CSS },
  'hosted.js': { type: 'application/javascript; charset=utf-8', body: hostedScript },
};

const assetRoutes: Route[] = [
  {
    route: 'hosted.asset',
    handler: (req) => {
      // Own keys only: `__proto__` or `constructor` would otherwise find Object.prototype's members.
      const asset = Object.hasOwn(ASSETS, req.params.name!) ? ASSETS[req.params.name!] : undefined;
      if (!asset) throw notFound(`Asset ${req.params.name}`);
      return new Reply(200, asset.body(), { 'content-type': asset.type, 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' });
    },
  },
];

/** Every hosted-page route; listed in `webRoutes`. */
export const hostedRoutes: Route[] = [...parentRoutes('link', 'linkId'), ...parentRoutes('checkout', 'checkoutId'), ...challengeRoutes, ...assetRoutes];

/** The page for a failure on a page route: the 404 page for an unknown id, an error page otherwise. */
export function hostedErrorPage(error: ApiError): Reply {
  const missing = error.httpStatus === 404;
  const view: StatePageView = missing
    ? {
        state: 'notfound',
        title: 'Payment page not found',
        message: 'There is no payment here. Check the address, or ask the shop for a new payment link.',
        tone: 'warn',
        terminal: { code: error.code, message: error.message, state: 'NOTFOUND' },
      }
    : {
        state: 'error',
        title: 'Something went wrong',
        message: error.message,
        tone: 'bad',
        terminal: { code: error.code, message: error.message, state: 'ERROR' },
      };
  return page(error.httpStatus, renderStatePage(view));
}
