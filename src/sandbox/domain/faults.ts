/**
 * API faults (docs/faults.md): rules that make the sandbox's API misbehave the way a real gateway does,
 * slow, failing, silent, or taking the payment and then timing out. Pure: what a rule is, which request it
 * matches, whether it fires, and the envelope a `status` fault answers with. Applying a fault to a
 * connection is the transport's (http/fault-injection.ts); keeping the rules is store/faults.ts's.
 */
import { API_SEGMENTS } from './routes.js';

/**
 * - `status`: answer an HTTP status with the provider's envelope for it, without acting;
 * - `latency`: act, and send the real answer late;
 * - `timeout`: hold the connection without acting until the client gives up (bounded by `holdMs`);
 * - `reset`: drop the connection without acting and without an answer;
 * - `ghost`: act (the payment is made, its webhooks go out), then answer as `timeout` or `reset`.
 */
export const FAULT_KINDS = ['status', 'latency', 'timeout', 'reset', 'ghost'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The HTTP statuses a `status` fault can answer. */
export const FAULT_STATUSES = [401, 403, 429, 500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** How a `ghost` fault hides the answer. */
export const GHOST_MODES = ['timeout', 'reset'] as const;
export type GhostMode = (typeof GHOST_MODES)[number];

/** How long `timeout` (and a ghost answered as one) holds the connection when the rule does not say. */
export const DEFAULT_HOLD_MS = 60_000;
/** The longest a connection is ever held: a client that never gives up does not keep it forever. */
export const MAX_HOLD_MS = 300_000;
/** The longest `latency` delay. */
export const MAX_LATENCY_MS = 120_000;

/** Which requests a rule applies to. Every field given must match; `path` always is. */
export interface FaultMatch {
  /** `GET` or `POST`; any method when absent. */
  method?: string | undefined;
  /**
   * Path pattern under `{api}/` (or a whole path starting with `/`), any letter case: literal
   * segments, `*` for one segment, `**` for any number. `payments` is payment creation and the lookup by
   * tracking code; `payments/*` a payment's read; `payments/*\/refund` refunds; `**` the whole API.
   */
  path: string;
  /** `header.businessId` of a POST, `businessId` of a GET's query. */
  businessId?: string | undefined;
  /** `body.transaction.brandId`, or the brand of `body.card.number`. */
  brandId?: number | undefined;
  /** `body.transaction.amount` within this range (inclusive). */
  amountMin?: number | undefined;
  amountMax?: number | undefined;
  /** Also requests that paylink's own tools send (the `x-paylink-client` mark); they are spared otherwise. */
  includePaylink?: boolean | undefined;
}

export interface FaultRule {
  /** `f1`, `f2`, ...: never reused within a database. */
  id: string;
  /** Epoch ms (wall clock) when the rule was added. */
  createdAt: number;
  match: FaultMatch;
  kind: FaultKind;
  /** `status`: the HTTP status answered. */
  status?: FaultStatus | undefined;
  /** `latency`: the delay, fixed (`min === max`) or drawn uniformly from the range, in ms. */
  latencyMinMs?: number | undefined;
  latencyMaxMs?: number | undefined;
  /** `timeout`, and `ghost` as timeout: how long the connection is held before it is dropped. */
  holdMs?: number | undefined;
  /** `ghost`: how the answer is withheld. */
  ghostAs?: GhostMode | undefined;
  /** Chance each matching request is faulted, 0 to 1; always when absent. */
  probability?: number | undefined;
  /** `--times N`: how many firings the rule was given; absent for a rule without a limit. */
  times?: number | undefined;
  /** Firings left of `times`; a spent rule (0) stays listed and fires no more. */
  remaining?: number | undefined;
  /** How often it fired. */
  fired: number;
}

/** What the app knows of a request when it asks which rule fires. */
export interface FaultRequestFacts {
  method: string;
  path: string;
  /** The request carries paylink's own mark (`x-paylink-client`). */
  marked: boolean;
  businessId?: string | undefined;
  brandId?: number | undefined;
  amount?: number | undefined;
}

/** The segments of `pattern` as matched against a request path (which is lower-cased the same way). */
export function patternSegments(pattern: string): string[] {
  const trimmed = pattern.trim();
  const absolute = trimmed.startsWith('/');
  const segments = trimmed
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => s.toLowerCase());
  return absolute ? segments : [...API_SEGMENTS, ...segments];
}

/** A pattern a rule can hold: segments of letters, digits, `-`, `_`, `.`, `:` or `*`/`**` alone. */
export function validPathPattern(pattern: string): boolean {
  if (pattern.trim() === '' || pattern.length > 200) return false;
  return patternSegments(pattern).every((s) => s === '*' || s === '**' || /^[a-z0-9._:-]+$/.test(s));
}

function segmentsMatch(pattern: readonly string[], path: readonly string[], p = 0, q = 0): boolean {
  while (p < pattern.length) {
    const segment = pattern[p]!;
    if (segment === '**') {
      for (let k = q; k <= path.length; k++) if (segmentsMatch(pattern, path, p + 1, k)) return true;
      return false;
    }
    if (q >= path.length) return false;
    if (segment !== '*' && segment !== path[q]) return false;
    p += 1;
    q += 1;
  }
  return q === path.length;
}

/** Whether `path` (as requested, any case, empty segments ignored) matches the rule's pattern. */
export function pathMatches(pattern: string, path: string): boolean {
  const parts = path
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => s.toLowerCase());
  return segmentsMatch(patternSegments(pattern), parts);
}

/** True when the rule could fire for this method and path, before the body is read. */
export function matchesRoute(rule: FaultRule, facts: Pick<FaultRequestFacts, 'method' | 'path' | 'marked'>): boolean {
  return routeAllows(rule, facts) && pathMatches(rule.match.path, facts.path);
}

/** The part of {@link matchesRoute} before the path: spent, marked by paylink, method. */
function routeAllows(rule: FaultRule, facts: Pick<FaultRequestFacts, 'method' | 'marked'>): boolean {
  if (rule.remaining !== undefined && rule.remaining <= 0) return false;
  if (facts.marked && rule.match.includePaylink !== true) return false;
  if (rule.match.method !== undefined && rule.match.method !== facts.method.toUpperCase() && !(rule.match.method === 'GET' && facts.method === 'HEAD'))
    return false;
  return true;
}

/** A rule as the index holds it: its place in the order added and its pattern already split. */
interface IndexedRule {
  rule: FaultRule;
  order: number;
  segments: string[];
}

/** A node of the index: the rules whose pattern's literal leading segments end here, and the next segments. */
interface IndexNode {
  rules: IndexedRule[];
  next: Map<string, IndexNode>;
}

/**
 * The fault rules in the order added, indexed by the literal segments their path pattern starts with (a
 * rule for `payments/*` sits under `gateway` > `v3` > `payments`). A request looks only at the rules along
 * its own path, so rules for other paths cost nothing; adding, removing and replacing a rule cost O(1)
 * amortized (docs/reliability.md, "Fault rules at any count").
 */
export class FaultRuleIndex {
  private readonly byId = new Map<string, IndexedRule>();
  private readonly root: IndexNode = { rules: [], next: new Map() };
  private order = 0;
  /** Rules that can still fire (no limit, or firings left). */
  private live = 0;

  constructor(rules: readonly FaultRule[] = []) {
    for (const rule of rules) this.add(rule);
  }

  /** Whether any rule can still fire. */
  get active(): boolean {
    return this.live > 0;
  }

  get size(): number {
    return this.byId.size;
  }

  /** Every rule, in the order added. */
  list(): FaultRule[] {
    return [...this.byId.values()].map((r) => r.rule);
  }

  get(id: string): FaultRule | undefined {
    return this.byId.get(id)?.rule;
  }

  add(rule: FaultRule): void {
    const segments = patternSegments(rule.match.path);
    const indexed: IndexedRule = { rule, order: this.order++, segments };
    let node = this.root;
    for (const segment of segments) {
      if (segment === '*' || segment === '**') break;
      let child = node.next.get(segment);
      if (child === undefined) {
        child = { rules: [], next: new Map() };
        node.next.set(segment, child);
      }
      node = child;
    }
    node.rules.push(indexed);
    this.byId.set(rule.id, indexed);
    if (canFire(rule)) this.live += 1;
  }

  /** Replaces a rule by one with the same id and pattern (its counters after firing); keeps its place. */
  replace(rule: FaultRule): void {
    const indexed = this.byId.get(rule.id);
    if (indexed === undefined) return;
    this.live += (canFire(rule) ? 1 : 0) - (canFire(indexed.rule) ? 1 : 0);
    indexed.rule = rule;
  }

  remove(id: string): boolean {
    const indexed = this.byId.get(id);
    if (indexed === undefined) return false;
    this.byId.delete(id);
    if (canFire(indexed.rule)) this.live -= 1;
    const path: IndexNode[] = [this.root];
    for (const segment of indexed.segments) {
      if (segment === '*' || segment === '**') break;
      path.push(path.at(-1)!.next.get(segment)!);
    }
    const node = path.at(-1)!;
    node.rules.splice(node.rules.indexOf(indexed), 1);
    return true;
  }

  clear(): void {
    this.byId.clear();
    this.root.rules = [];
    this.root.next.clear();
    this.live = 0;
  }

  /** The rules that may fire for this method and path (see {@link matchesRoute}), in the order added. */
  candidates(facts: Pick<FaultRequestFacts, 'method' | 'path' | 'marked'>): FaultRule[] {
    const parts = facts.path
      .split('/')
      .filter((s) => s.length > 0)
      .map((s) => s.toLowerCase());
    const found: IndexedRule[] = [];
    let node: IndexNode | undefined = this.root;
    for (let depth = 0; node !== undefined; depth++) {
      for (const indexed of node.rules) {
        if (routeAllows(indexed.rule, facts) && segmentsMatch(indexed.segments, parts)) found.push(indexed);
      }
      node = depth < parts.length ? node.next.get(parts[depth]!) : undefined;
    }
    return found.sort((a, b) => a.order - b.order).map((r) => r.rule);
  }
}

function canFire(rule: FaultRule): boolean {
  return rule.remaining === undefined || rule.remaining > 0;
}

/** True when the rule needs the request's business, brand or amount to decide. */
export function needsRequestFacts(rule: FaultRule): boolean {
  const m = rule.match;
  return m.businessId !== undefined || m.brandId !== undefined || m.amountMin !== undefined || m.amountMax !== undefined;
}

/** Whether the rule's business, brand and amount hold for the request (for a rule that matches its route). */
export function matchesFacts(rule: FaultRule, facts: Omit<FaultRequestFacts, 'method' | 'path' | 'marked'>): boolean {
  const m = rule.match;
  if (m.businessId !== undefined && facts.businessId !== m.businessId) return false;
  if (m.brandId !== undefined && facts.brandId !== m.brandId) return false;
  if (m.amountMin !== undefined && (facts.amount === undefined || facts.amount < m.amountMin)) return false;
  if (m.amountMax !== undefined && (facts.amount === undefined || facts.amount > m.amountMax)) return false;
  return true;
}

/** Whether a matching request is faulted, given a uniform draw in [0, 1). */
export function fires(rule: FaultRule, draw: number): boolean {
  if (rule.remaining !== undefined && rule.remaining <= 0) return false;
  return rule.probability === undefined || draw < rule.probability;
}

/** The rule after it fired once: counted, and one firing fewer left when it has a limit. */
export function afterFiring(rule: FaultRule): FaultRule {
  return { ...rule, fired: rule.fired + 1, ...(rule.remaining !== undefined ? { remaining: Math.max(0, rule.remaining - 1) } : {}) };
}

/** The delay of a `latency` fault for a draw in [0, 1). */
export function latencyOf(rule: FaultRule, draw: number): number {
  const min = rule.latencyMinMs ?? 0;
  const max = rule.latencyMaxMs ?? min;
  return Math.round(min + (max - min) * draw);
}

/** How long a `timeout` (or a ghost answered as a timeout) holds the connection. */
export function holdOf(rule: FaultRule): number {
  return Math.min(rule.holdMs ?? DEFAULT_HOLD_MS, MAX_HOLD_MS);
}

/** A one-line description of what a rule does, for lists and the dashboard. */
export function describeFault(rule: FaultRule): string {
  switch (rule.kind) {
    case 'status':
      return `answer ${rule.status ?? 503}`;
    case 'latency':
      return rule.latencyMaxMs !== undefined && rule.latencyMaxMs !== rule.latencyMinMs
        ? `delay ${rule.latencyMinMs}-${rule.latencyMaxMs} ms`
        : `delay ${rule.latencyMinMs ?? 0} ms`;
    case 'timeout':
      return `hold up to ${holdOf(rule)} ms, no answer`;
    case 'reset':
      return 'drop the connection';
    case 'ghost':
      return rule.ghostAs === 'reset' ? 'act, then drop the connection' : `act, then hold up to ${holdOf(rule)} ms, no answer`;
  }
}

/** A one-line description of what a rule matches. */
export function describeMatch(match: FaultMatch): string {
  const parts = [`${match.method ?? 'any'} ${match.path}`];
  if (match.businessId !== undefined) parts.push(`business ${match.businessId}`);
  if (match.brandId !== undefined) parts.push(`brand ${match.brandId}`);
  if (match.amountMin !== undefined || match.amountMax !== undefined) {
    parts.push(match.amountMin === match.amountMax ? `amount ${match.amountMin}` : `amount ${match.amountMin ?? ''}..${match.amountMax ?? ''}`);
  }
  if (match.includePaylink) parts.push("paylink's own requests too");
  return parts.join(', ');
}

/** A small seeded generator (mulberry32) so a `--deterministic` sandbox fires the same faults each run. */
export function seededRandom(seed: string): () => number {
  let state = 0x9e3779b9;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 0x85ebca6b) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a fault did to one request, as a request log line says it: `fault f3 ghost: 200 withheld, client gave up`. */
export function describeFiredFault(fault: {
  rule: string;
  kind: string;
  delayMs?: number | undefined;
  withheldStatus?: number | undefined;
  ended?: string | undefined;
}): string {
  const details: string[] = [];
  if (fault.delayMs !== undefined) details.push(`answer delayed ${fault.delayMs} ms`);
  if (fault.withheldStatus !== undefined) details.push(`acted, ${fault.withheldStatus} withheld`);
  if (fault.ended === 'reset') details.push('connection reset');
  else if (fault.ended === 'client-gave-up') details.push('no answer, client gave up');
  else if (fault.ended === 'held-to-the-limit') details.push('no answer, dropped at the hold limit');
  return `fault ${fault.rule} ${fault.kind}${details.length > 0 ? `: ${details.join(', ')}` : ''}`;
}
