/**
 * money (docs/advisor.md#money): amounts with more decimals than the currency has, follow-ups above what is
 * left, and amounts that look like minor units sent as major units.
 */
import { hasAtMostDecimals, minorUnits } from '../../money.js';
import type { CheckMeta, CheckOutcome, Evidence, Finding, ResourceInfo, TrafficRequest } from '../model.js';
import { amountValue, createdIdOf, ERROR_CODES, errorOf, evidenceOf, resultOf, text, transactionOf, type Target, type TrafficReader } from '../reader.js';

export const meta: CheckMeta = {
  id: 'money',
  title: 'Amounts in the currency’s units, within what was authorised',
  severity: 'error',
  docs: 'docs/advisor.md#money',
};

/** The currency of a follow-up or creation request: its own, else the original payment's record. */
function currencyOf(r: TrafficRequest, target: Target, resources: ReadonlyMap<string, ResourceInfo>): string | undefined {
  const own = text(transactionOf(r)?.currencyCode)?.toUpperCase();
  if (own) return own;
  return target.op === 'follow-up' ? resources.get(target.id)?.currencyCode : undefined;
}

function toMinor(amount: number, decimals: number): number {
  return Math.round(amount * 10 ** decimals);
}

/** An amount of a flow: asked by a request, or the record of an original created before the window. */
interface Amount {
  request?: TrafficRequest | undefined;
  amount: number;
  currencyCode: string;
  what: string;
}

export function check(traffic: TrafficReader): CheckOutcome {
  const findings: Finding[] = [];
  // Amounts per flow (an order, and a business's tracking code), to compare within one flow.
  const flows = new Map<string, Amount[]>();
  const addTo = (key: string | undefined, entry: Amount) => {
    if (key === undefined) return;
    const list = flows.get(key);
    if (list) list.push(entry);
    else flows.set(key, [entry]);
  };
  const addAmount = ([order, tracking]: [string | undefined, string | undefined], entry: Amount) => {
    addTo(order, entry);
    if (tracking !== order) addTo(tracking, entry);
  };
  const trackingKey = (business: string | null, tracking: string | undefined) => (tracking === undefined ? undefined : `tc:${business}\u0000${tracking}`);
  for (const r of traffic.requests) {
    if (r.kind !== 'api' || r.method !== 'POST') continue;
    const target = traffic.target(r);
    if (!target || (target.op !== 'create' && target.op !== 'follow-up')) continue;
    const asked = transactionOf(r)?.amount;
    const amount = amountValue(asked);
    const currency = currencyOf(r, target, traffic.resources);
    const error = errorOf(r);
    const business = traffic.businessOf(r, target.op === 'follow-up' ? target.id : undefined);
    const decimals = currency === undefined ? undefined : minorUnits(currency);
    if (
      amount !== undefined &&
      decimals !== undefined &&
      resultOf(r) === -1 &&
      error?.code === ERROR_CODES.invalidValue &&
      !hasAtMostDecimals(amount, decimals)
    ) {
      findings.push({
        check: meta.id,
        severity: 'error',
        businessId: business,
        message: `An amount of ${text(asked)} ${currency} was refused: ${currency} has ${decimals} decimal${decimals === 1 ? '' : 's'}. Round to the currency's minor units before sending.`,
        evidence: [evidenceOf(r)],
        at: r.at,
      });
      continue;
    }
    if (
      target.op === 'follow-up' &&
      target.action !== 'cancel' &&
      resultOf(r) === -8 &&
      error?.code === ERROR_CODES.invalidTransition &&
      amount !== undefined
    ) {
      // The follow-up rules' own wording (domain/follow-ups.ts) for an amount above what is left.
      if (/^At most .* can be (captured|refunded) now|already (captured|refunded) in full/.test(error.message ?? '')) {
        const original = traffic.resources.get(target.id);
        findings.push({
          check: meta.id,
          severity: 'error',
          businessId: business,
          message: `A ${target.action} of ${amount} ${currency ?? ''} was attempted above what ${target.action === 'capture' ? 'the authorisation left to capture' : 'was paid or captured and not yet refunded'}${original ? ` (original ${original.amount} ${original.currencyCode})` : ''}: keep your own running totals of captures and refunds.`,
          resource: { kind: 'payment', id: target.id },
          evidence: [evidenceOf(r, error.message)],
          at: r.at,
        });
      }
    }
    if (amount === undefined || currency === undefined) continue;
    if (target.op === 'follow-up') {
      const original = traffic.resources.get(target.id);
      const order = traffic.orderOf(target.id);
      // The original may have been created before the window: its record still counts.
      const root = traffic.resources.get(order);
      if (root && !flows.has(order))
        addAmount([order, trackingKey(business, root.trackingCode)], { amount: root.amount, currencyCode: root.currencyCode, what: root.kind });
      addAmount([order, trackingKey(business, original?.trackingCode)], { request: r, amount, currencyCode: currency, what: target.action });
    } else {
      const id = createdIdOf(r);
      const tracking = text(transactionOf(r)?.trackingCode);
      addAmount([id !== undefined ? traffic.orderOf(id) : undefined, trackingKey(business, tracking)], {
        request: r,
        amount,
        currencyCode: currency,
        what: target.kind,
      });
    }
  }
  const flagged = new Set<number>();
  for (const list of flows.values()) {
    if (list.length < 2) continue;
    // Amounts by currency and value in minor units, to find `small` with `big` = `small` x 10^decimals at once.
    const byMinor = new Map<string, Amount[]>();
    for (const o of list) {
      const key = `${o.currencyCode}:${toMinor(o.amount, minorUnits(o.currencyCode) ?? 2)}`;
      const same = byMinor.get(key);
      if (same) same.push(o);
      else byMinor.set(key, [o]);
    }
    for (const big of list) {
      const decimals = minorUnits(big.currencyCode) ?? 2;
      if (!big.request || flagged.has(big.request.seq) || decimals === 0 || !Number.isInteger(big.amount)) continue;
      const small = byMinor.get(`${big.currencyCode}:${big.amount}`)?.find((o) => o.amount !== big.amount);
      if (!small) continue;
      flagged.add(big.request.seq);
      const evidence = [small.request ? evidenceOf(small.request) : undefined, evidenceOf(big.request)].filter((e): e is Evidence => e !== undefined);
      findings.push({
        check: meta.id,
        severity: 'warning',
        businessId: traffic.businessOf(big.request),
        message: `A ${big.what} of ${big.amount} ${big.currencyCode} in a flow where the ${small.what} was ${small.amount} ${big.currencyCode}: this looks like minor units (cents) sent as major units. Amounts are major units with decimals (19.99).`,
        evidence,
        at: big.request.at,
      });
    }
  }
  return { findings };
}
