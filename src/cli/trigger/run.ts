/**
 * Plays a `paylink trigger` scenario (scenarios.ts) over HTTP only, as a merchant's server and its customer
 * would: API calls through the CLI's client (marked `x-paylink-client: trigger`), the hosted, 3-D Secure and
 * bank pages played like `paylink pay` does, then the events the sandbox made for the payments, read from
 * the admin API.
 */
import { adminOk, clockYear, expectOk, type AdminConnection, type ApiClient } from '../client.js';
import { hiddenInput, playCustomer, playSimulator } from '../customer.js';
import { CHALLENGE_FIELDS, DEFAULT_HOLDER_NAME, defaultCardFields, FORM_ACTIONS } from '../../sandbox/domain/hosted-form.js';
import { SCENARIO_PAYMENT_DEFAULTS } from '../defaults.js';
import { UsageError } from '../errors.js';
import { cardForOutcome, TEST_CARDS } from '../../sandbox/domain/test-cards.js';
import { brandById, CARD_BRAND_IDS } from '../../sandbox/domain/brands.js';
import { sandboxAccount } from '../../sandbox/domain/bank-accounts.js';
import type { Scenario, Step } from './scenarios.js';
import type { CREATE_ROUTE } from '../../client/api.js';

export interface TriggerOptions {
  /** `body.transaction.notifyUrl` of every creation: where the scenario's webhooks go. */
  notifyUrl?: string | undefined;
  /** @default 10 (bank.expired: 3.50, the amount convention's timeout) */
  amount?: number | undefined;
  /** @default "EUR" */
  currency?: string | undefined;
  /** A card brand for card steps, or a bank or wallet brand for bank steps. */
  brandId?: number | undefined;
  /** `path=value` set in every request document the scenario sends (`body.transaction.description=Order 7`). */
  set?: ReadonlyArray<[path: string, value: unknown]> | undefined;
  /** Progress notes for a spinner. */
  onStep?: ((text: string) => void) | undefined;
}

/** An event the scenario caused, as `GET /__sandbox/events` answers it. */
export interface TriggeredEvent {
  id: string;
  type: string;
  paymentId: string;
  action: string | null;
  result: number | null;
  deliveries: Array<{ url: string; status: string }>;
}

export interface TriggerResult {
  scenario: string;
  businessId: string;
  /** Every id the scenario made, by its step name (`payment`, `link`, `refund`...). */
  ids: Record<string, string>;
  /** The events of the payments it made, oldest first; undefined when the admin API could not be read. */
  events?: TriggeredEvent[] | undefined;
  /** Why the events could not be read. */
  eventsError?: string | undefined;
}

/** Keys that would reach an object's prototype instead of a field of the request (prototype pollution). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The keys of a `--set` path; a usage error for one that names no field or reaches a prototype. */
function pathKeys(path: string): string[] {
  const keys = path.split('.').filter((k) => k.length > 0);
  if (keys.length === 0) throw new UsageError(`--set: "${path}" names no field.`);
  const bad = keys.find((key) => FORBIDDEN_KEYS.has(key));
  if (bad !== undefined)
    throw new UsageError(`--set: "${path}" uses "${bad}", which names no field of a request (__proto__, constructor and prototype are refused).`);
  return keys;
}

/** Sets `path` (dot-separated) in `doc` to `value`, creating objects on the way; own fields only. */
export function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const keys = pathKeys(path);
  let node: Record<string, unknown> = doc;
  for (const key of keys.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

/** `path=value` of `--set`: the value as JSON when it parses (numbers, true, objects), else as text. */
export function parseSet(text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set: expected path=value (body.transaction.description=Order 7), got "${text}".`);
  pathKeys(text.slice(0, eq));
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // text
  }
  return [text.slice(0, eq).trim(), value];
}

function trackingCode(scenario: string, step: string): string {
  return `trigger-${scenario}-${step}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Steps that pay by card (a card payment, a hosted card form, a credit) and steps that pay by bank or wallet. */
const CARD_STEPS: ReadonlySet<Step['do']> = new Set(['card-payment', 'link', 'checkout', 'hosted-page', 'credit']);
const BANK_STEPS: ReadonlySet<Step['do']> = new Set(['bank-payment', 'bank-page']);

/**
 * `--brand` must be one the scenario's payments can use: a card brand for card steps, a bank or wallet
 * brand for bank steps. A brand of the other kind was silently replaced (iDEAL for `bank.approved --brand
 * visa`, VISA for `payment.approved --brand ideal`): a usage error instead, before anything is sent.
 */
export function checkBrandFits(scenario: Scenario, brandId: number | undefined): void {
  if (brandId === undefined) return;
  const brand = brandById(brandId);
  if (brand === undefined) return;
  const card = scenario.steps.some((step) => CARD_STEPS.has(step.do));
  const bank = scenario.steps.some((step) => BANK_STEPS.has(step.do));
  const isCard = brand.kind === 'card';
  const isBank = !isCard && brand.kind !== 'invoice' && brand.kind !== 'debit';
  if ((card && isCard) || (bank && isBank)) return;
  const wants =
    card && bank
      ? 'a card brand or a bank or wallet brand'
      : card
        ? 'a card brand (visa, mastercard, amex...)'
        : bank
          ? 'a bank or wallet brand (ideal, sofort, giropay, eps, paypal)'
          : 'no brand';
  throw new UsageError(
    `--brand ${brand.name}: trigger ${scenario.name} ${card ? 'pays by card' : bank ? 'pays by bank or wallet' : 'makes no payment a brand applies to'}; give ${wants}.`,
  );
}

/** A test card's expiry alone, for a request that sends no CVV (a token, a credit), when the year is `year`. */
function testExpiry(year: number): { expiryMonth: string; expiryYear: string } {
  const { expiryMonth, expiryYear } = defaultCardFields(undefined, year);
  return { expiryMonth, expiryYear };
}

export async function runScenario(client: ApiClient, admin: AdminConnection, scenario: Scenario, options: TriggerOptions = {}): Promise<TriggerResult> {
  checkBrandFits(scenario, options.brandId);
  const ids: Record<string, string> = {};
  const codes: Record<string, string> = {};
  const paymentIds: string[] = [];
  const note = options.onStep ?? (() => {});
  const currency = options.currency ?? SCENARIO_PAYMENT_DEFAULTS.currency;
  const brand = options.brandId !== undefined ? brandById(options.brandId) : undefined;

  const finish = (doc: Record<string, unknown>): Record<string, unknown> => {
    for (const [path, value] of options.set ?? []) setPath(doc, path, value);
    return doc;
  };
  const transaction = (step: string, amount?: number): Record<string, unknown> => {
    codes[step] = trackingCode(scenario.name, step);
    return {
      amount: amount ?? options.amount ?? SCENARIO_PAYMENT_DEFAULTS.amount,
      currencyCode: currency,
      trackingCode: codes[step],
      ...(options.notifyUrl !== undefined ? { notifyUrl: options.notifyUrl } : {}),
    };
  };
  const idOf = (name: string): string => {
    const id = ids[name];
    if (id === undefined) throw new Error(`scenario ${scenario.name}: step refers to "${name}" before it was made`);
    return id;
  };
  const post = async (kind: keyof typeof CREATE_ROUTE, doc: Record<string, unknown>, what: string) =>
    expectOk(await client.api.createFrom<any>(kind, finish(doc)), what).body;
  // The customer of the one-click scenario: whose saved cards a checkout offers.
  const customerId = trackingCode(scenario.name, 'customer');
  // The sandbox clock's year: card expiries and birth dates are counted from it, as the sandbox judges them.
  const year = await clockYear(admin);

  for (const step of scenario.steps) {
    note(describe(step));
    await play(step);
  }

  async function play(step: Step): Promise<void> {
    switch (step.do) {
      case 'card-payment': {
        const outcome = step.outcome ?? 'approved';
        const cardBrands = brand?.kind === 'card' ? [brand.id] : undefined;
        const card = step.threeDSecure1Only
          ? TEST_CARDS.find((c) => c.outcome === outcome && c.threeDSecure1Only === true)
          : cardForOutcome(outcome, cardBrands);
        if (card === undefined) throw new UsageError(`No test card for ${outcome}.`);
        const t = transaction(step.as);
        if (step.sameTrackingCodeAs !== undefined) t.trackingCode = codes[step.as] = codes[step.sameTrackingCodeAs]!;
        const answer = await client.api.createFrom<any>(
          'payment',
          finish({
            action: step.authorize ? 'authorize' : 'payment',
            body: {
              transaction: { ...t, brandId: card.brandId },
              card: { number: card.number, ...defaultCardFields(card.brandId, year) },
              ...(step.threeDSecure !== undefined ? { threeDSecure: step.threeDSecure } : {}),
            },
          }),
        );
        if (step.challengeCode !== undefined && answer.body?.result === 2 && typeof answer.body?.body?.redirect?.url === 'string') {
          await answerChallenge(answer.body.body.redirect.url, step.challengeCode);
        }
        // A decline or failure asked for is what the scenario produces: only an answer without a payment is an error.
        const id = answer.body?.body?.id;
        if (typeof id !== 'string') expectOk(answer, `${scenario.name}: ${step.as}`);
        ids[step.as] = id;
        paymentIds.push(id);
        return;
      }
      case 'capture':
      case 'refund':
      case 'cancel': {
        const original = idOf(step.of);
        let amount: number | undefined;
        if (step.part !== undefined) {
          const read = expectOk(await client.api.payments.get(original), `${scenario.name}: read ${step.of}`).body;
          amount = Math.round(Number(read.body?.transaction?.amount) * step.part * 100) / 100;
        }
        const body = expectOk(
          await client.api.payments.followUpFrom(step.do, original, finish({ body: { transaction: amount !== undefined ? { amount } : {} } })),
          `${scenario.name}: ${step.do} ${step.of}`,
        ).body;
        ids[step.as] = body.body.id;
        paymentIds.push(body.body.id);
        return;
      }
      case 'token': {
        const cardBrands = brand?.kind === 'card' ? [brand.id] : undefined;
        // Another brand's approved card when none of the brand asked for is one (cardForOutcome's fallback).
        const card = cardForOutcome('approved', cardBrands)!;
        const body = await post('token', { body: { card: { number: card.number, ...testExpiry(year) }, customer: { customerId } } }, `${scenario.name}: token`);
        ids[step.as] = body.body.token;
        return;
      }
      case 'link':
      case 'checkout': {
        const t = { ...transaction(step.as), authorizationMode: 'payment' };
        const brandIds = brand?.kind === 'card' ? [brand.id] : [...CARD_BRAND_IDS];
        const doc =
          step.do === 'link'
            ? {
                body: {
                  transaction: t,
                  link: { duration: 'P1D', returnUrl: 'http://127.0.0.1:9/return', brandIds, ...(step.threeDSecure ? { threeDSecure: true } : {}) },
                },
              }
            : {
                body: {
                  transaction: t,
                  checkout: {
                    returnUrl: 'http://127.0.0.1:9/return',
                    tokenize: step.tokenize ?? 'false',
                    brandIds,
                    ...(step.threeDSecure ? { threeDSecure: true } : {}),
                    ...(step.oneClick ? { oneClick: { useCustomerTokens: true } } : {}),
                  },
                  ...(step.oneClick ? { customer: { customerId } } : {}),
                },
              };
        const body = await post(step.do, doc, `${scenario.name}: ${step.do}`);
        ids[step.as] = step.do === 'link' ? body.body.link.linkId : body.body.checkout.checkoutId;
        return;
      }
      case 'hosted-page': {
        const kind = scenario.steps.find((s) => 'as' in s && s.as === step.of)?.do === 'checkout' ? 'checkout' : 'link';
        const played = await playCustomer(client, idOf(step.of), {
          kind,
          admin,
          outcome: step.outcome ?? 'approved',
          ...(step.threeDSCode !== undefined ? { threeDSCode: step.threeDSCode } : {}),
          saveCard: step.saveCard,
          savedCard: step.savedCard,
          // The returnUrl is nobody's: the scenario is about the payment and its webhooks.
          follow: false,
        });
        if (played.payment?.id === undefined) throw new Error(`scenario ${scenario.name}: the hosted page made no payment (${played.state}).`);
        ids[step.as] = played.payment.id;
        if (played.payment.token !== undefined) ids.token = played.payment.token;
        paymentIds.push(played.payment.id);
        return;
      }
      case 'bank-payment': {
        const bankBrand = brand !== undefined && brand.kind !== 'card' && brand.kind !== 'invoice' && brand.kind !== 'debit' ? brand : brandById(3010)!;
        const amount = step.amount ?? options.amount ?? SCENARIO_PAYMENT_DEFAULTS.amount;
        const body = await post(
          'payment',
          {
            action: step.authorize ? 'authorize' : 'payment',
            body: {
              transaction: { ...transaction(step.as, amount), brandId: bankBrand.id, returnUrl: 'http://127.0.0.1:9/return' },
              ...(bankBrand.kind === 'bank'
                ? { bank: { countryCode: bankBrand.id === 3010 ? 'NL' : 'DE', ...(bankBrand.id === 3010 ? { issuerId: 20 } : {}) } }
                : {}),
            },
          },
          `${scenario.name}: ${step.as}`,
        );
        ids[step.as] = body.body.id;
        paymentIds.push(body.body.id);
        return;
      }
      case 'bank-page':
        await playSimulator(client, idOf(step.of), { outcome: step.outcome, follow: false });
        return;
      case 'read':
        expectOk(await client.api.payments.get(idOf(step.of)), `${scenario.name}: read ${step.of}`);
        return;
      case 'sepa-debit': {
        const body = await post(
          'payment',
          {
            action: step.authorize ? 'authorize' : 'payment',
            body: {
              transaction: { ...transaction(step.as), currencyCode: 'EUR', brandId: 6010 },
              bank: { ...sandboxAccount('DE'), accountHolderName: DEFAULT_HOLDER_NAME },
            },
          },
          `${scenario.name}: ${step.as}`,
        );
        ids[step.as] = body.body.id;
        paymentIds.push(body.body.id);
        return;
      }
      case 'afterpay': {
        const born = `${year - (step.underAge ? 10 : 30)}-01-01`;
        const answer = await client.api.createFrom<any>(
          'payment',
          finish({ action: 'payment', body: { transaction: { ...transaction(step.as), currencyCode: 'EUR', brandId: 5020 }, customer: { birthDate: born } } }),
        );
        // The decline asked for is what the scenario produces: only an answer without a payment is an error.
        const id = answer.body?.body?.id;
        if (typeof id !== 'string') expectOk(answer, `${scenario.name}: ${step.as}`);
        ids[step.as] = id;
        paymentIds.push(id);
        return;
      }
      case 'credit': {
        const card = cardForOutcome('approved', brand?.kind === 'card' ? [brand.id] : undefined)!;
        const body = await post(
          'credit',
          {
            body: {
              transaction: transaction(step.as),
              card: { number: card.number, ...testExpiry(year), holderName: DEFAULT_HOLDER_NAME },
            },
          },
          `${scenario.name}: credit`,
        );
        ids[step.as] = body.body.id;
        paymentIds.push(body.body.id);
        return;
      }
    }
  }

  /** The customer on the 3-D Secure page of a direct payment: the code, or cancel for null. */
  async function answerChallenge(url: string, code: string | null): Promise<void> {
    const page = await client.page(url);
    const formToken = hiddenInput(await page.text(), CHALLENGE_FIELDS.formToken);
    if (formToken === undefined) throw new Error(`scenario ${scenario.name}: the 3-D Secure page offers no form (HTTP ${page.status}).`);
    const fields =
      code === null
        ? { [CHALLENGE_FIELDS.formToken]: formToken, [CHALLENGE_FIELDS.action]: FORM_ACTIONS.cancel }
        : { [CHALLENGE_FIELDS.formToken]: formToken, [CHALLENGE_FIELDS.action]: FORM_ACTIONS.submit, [CHALLENGE_FIELDS.code]: code };
    const answered = await client.postForm(url, fields);
    await answered.body?.cancel();
  }

  const result: TriggerResult = { scenario: scenario.name, businessId: client.businessId, ids };
  note('Reading the events it made');
  try {
    const events: TriggeredEvent[] = [];
    for (const paymentId of new Set(paymentIds)) {
      const answer = await adminOk<{ body: { events: Array<TriggeredEvent & { seq: number; deliveries: Array<{ url: string; status: string }> }> } }>(
        admin,
        'GET',
        `/__sandbox/events?paymentId=${encodeURIComponent(paymentId)}&limit=100`,
      );
      for (const e of answer.body.events) events.push({ ...e, seq: e.seq } as TriggeredEvent & { seq: number });
    }
    result.events = (events as Array<TriggeredEvent & { seq: number }>)
      .sort((a, b) => a.seq - b.seq)
      .map((e) => ({
        id: e.id,
        type: e.type,
        paymentId: e.paymentId,
        action: e.action,
        result: e.result,
        deliveries: e.deliveries.map((d) => ({ url: d.url, status: d.status })),
      }));
  } catch (error) {
    result.eventsError = (error as Error).message;
  }
  return result;
}

function describe(step: Step): string {
  switch (step.do) {
    case 'card-payment':
      return `Paying by card (${step.outcome ?? 'approved'}${step.authorize ? ', authorize' : ''})`;
    case 'capture':
    case 'refund':
    case 'cancel':
      return `${step.do[0]!.toUpperCase()}${step.do.slice(1)} of ${step.of}`;
    case 'token':
      return 'Saving a card for the customer';
    case 'link':
    case 'checkout':
      return `Creating a ${step.do === 'link' ? 'payment link' : 'checkout'}`;
    case 'hosted-page':
      return 'Paying on the hosted page as the customer';
    case 'bank-payment':
      return 'Creating a bank payment';
    case 'bank-page':
      return `Pressing ${step.outcome} on the bank page`;
    case 'read':
      return `Reading ${step.of}`;
    case 'credit':
      return 'Paying out a credit';
    case 'sepa-debit':
      return `Debiting a bank account by SEPA Direct Debit${step.authorize ? ' (authorize)' : ''}`;
    case 'afterpay':
      return `Paying by AfterPay${step.underAge ? ' (a customer under 18)' : ''}`;
  }
}
