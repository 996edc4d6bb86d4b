/**
 * The fault rules' index (domain/faults.ts FaultRuleIndex) finds exactly the rules `matchesRoute` finds, in
 * the order added, for patterns with literals, `*` and `**` anywhere, methods, spent rules and paylink's
 * marked requests; removing and replacing rules keeps it so.
 */
import { describe, expect, it } from 'vitest';
import { FaultRuleIndex, matchesRoute, type FaultRule } from '../../src/sandbox/domain/faults.js';

const PATTERNS = [
  'payments',
  'payments/*',
  'payments/*/refund',
  '**',
  '/**',
  '/gateway/**',
  'payments/**',
  '*/*/capture',
  'paymentlinks/x',
  '/__sandbox/health',
  '**/refund',
  'PAYMENTS',
];
const PATHS = [
  '/gateway/v3/payments',
  '/gateway/v3/payments/p1',
  '/gateway/v3/payments/p1/refund',
  '/gateway/v3/payments/p1/capture',
  '/Gateway/V3/Payments/',
  '/gateway/v3/paymentlinks/x',
  '/__sandbox/health',
  '/',
  '/other',
];
const METHODS = [undefined, 'GET', 'POST'] as const;

function rule(i: number): FaultRule {
  const method = METHODS[i % METHODS.length];
  return {
    id: `f${i}`,
    kind: 'status',
    status: 503,
    createdAt: 0,
    fired: 0,
    match: { path: PATTERNS[(i * 7) % PATTERNS.length]!, ...(method !== undefined ? { method } : {}), ...(i % 5 === 0 ? { includePaylink: true } : {}) },
    ...(i % 4 === 0 ? { remaining: i % 8 === 0 ? 0 : 1 } : {}),
  } as FaultRule;
}

function expectSame(index: FaultRuleIndex, rules: FaultRule[]): void {
  for (const path of PATHS) {
    for (const method of ['GET', 'POST', 'HEAD']) {
      for (const marked of [false, true]) {
        const facts = { method, path, marked };
        expect(
          index.candidates(facts).map((r) => r.id),
          `${method} ${path} ${marked}`,
        ).toEqual(rules.filter((r) => matchesRoute(r, facts)).map((r) => r.id));
      }
    }
  }
}

describe('the fault rules index', () => {
  it('finds what matchesRoute finds, in the order added, as rules come, fire and go', () => {
    let rules = Array.from({ length: 60 }, (_, i) => rule(i));
    const index = new FaultRuleIndex(rules);
    expectSame(index, rules);
    expect(index.active).toBe(true);

    for (const id of ['f3', 'f10', 'f33', 'f59']) index.remove(id);
    rules = rules.filter((r) => !['f3', 'f10', 'f33', 'f59'].includes(r.id));
    expectSame(index, rules);

    // A rule with one firing left is spent by firing once.
    const spent = { ...rules.find((r) => r.remaining === 1)!, remaining: 0, fired: 1 };
    index.replace(spent);
    rules = rules.map((r) => (r.id === spent.id ? spent : r));
    expectSame(index, rules);
    expect(index.list().map((r) => r.id)).toEqual(rules.map((r) => r.id));

    index.add(rule(100));
    rules.push(rule(100));
    expectSame(index, rules);
    index.clear();
    expect(index.active).toBe(false);
    expectSame(index, []);
  });

  it('is inactive when every rule is spent', () => {
    const index = new FaultRuleIndex([{ ...rule(1), remaining: 1 }]);
    expect(index.active).toBe(true);
    index.replace({ ...rule(1), remaining: 0, fired: 1 });
    expect(index.active).toBe(false);
  });
});
