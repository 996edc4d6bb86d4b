/**
 * The API fault rules of a sandbox (docs/faults.md): kept in store/faults.ts, held in memory in the order
 * they were added, and asked for every API request which rule fires. The decision is taken synchronously
 * (a `--times 1` rule fires for exactly one of two concurrent requests); the counters it changes are
 * committed before the faulted answer leaves, so a restart never fires a spent rule again.
 */
import {
  afterFiring,
  FaultRuleIndex,
  fires,
  matchesFacts,
  needsRequestFacts,
  type FaultMatch,
  type FaultRequestFacts,
  type FaultRule,
} from '../domain/faults.js';
import type { Store } from '../store/group-commit.js';
import type { FaultRepository } from '../store/faults.js';

/** A new rule as the admin API or the CLI describes it (validated by the handler). */
export type FaultRuleInput = Omit<FaultRule, 'id' | 'createdAt' | 'fired' | 'remaining' | 'match'> & { match: FaultMatch };

/** A rule that fired for a request, and the commit of its counters. */
export interface FiredFault {
  rule: FaultRule;
  /** Resolves once the rule's new counters are committed. */
  committed: Promise<void>;
}

export class FaultService {
  private rules: FaultRuleIndex;

  constructor(private readonly deps: { store: Store; faults: FaultRepository; random: () => number; now: () => number }) {
    this.rules = new FaultRuleIndex(deps.faults.list());
  }

  /** Reads the rules again (a snapshot restore replaced the stored ones). */
  reload(): void {
    this.rules = new FaultRuleIndex(this.deps.faults.list());
  }

  /** Whether any rule could still fire: when none can, requests skip fault matching entirely. */
  get active(): boolean {
    return this.rules.active;
  }

  list(): FaultRule[] {
    return this.rules.list().map((r) => ({ ...r, match: { ...r.match } }));
  }

  /** The rules that may fire for this method and path, in order; empty when none. */
  candidates(facts: Pick<FaultRequestFacts, 'method' | 'path' | 'marked'>): FaultRule[] {
    return this.rules.candidates(facts);
  }

  /** Whether deciding among `candidates` needs the request's business, brand or amount (its body). */
  needsFacts(candidates: readonly FaultRule[]): boolean {
    return candidates.some(needsRequestFacts);
  }

  /**
   * The first rule (in the order added) that matches the request and fires, counted and committed; undefined
   * when none does. Each matching rule draws once, so two rules at 0.5 fault about three requests in four.
   */
  pick(candidates: readonly FaultRule[], facts: FaultRequestFacts): FiredFault | undefined {
    for (const candidate of candidates) {
      // The rule as it is now (its route matched): another request may have spent it since.
      const rule = this.rules.get(candidate.id);
      if (rule === undefined || !matchesFacts(rule, facts) || !fires(rule, this.deps.random())) continue;
      const next = afterFiring(rule);
      this.rules.replace(next);
      const committed = this.deps.store.write(() => this.deps.faults.update(next));
      return { rule: next, committed };
    }
    return undefined;
  }

  async add(input: FaultRuleInput): Promise<FaultRule> {
    const rule = await this.deps.store.write(() => {
      const seq = this.deps.faults.nextSeq();
      const made: FaultRule = {
        id: `f${seq}`,
        createdAt: this.deps.now(),
        ...input,
        ...(input.times !== undefined ? { remaining: input.times } : {}),
        fired: 0,
      };
      this.deps.faults.insert(seq, made);
      return made;
    });
    this.rules.add(rule);
    return rule;
  }

  /** Removes one rule; false when there is none with that id. */
  async remove(id: string): Promise<boolean> {
    const removed = await this.deps.store.write(() => this.deps.faults.remove(id));
    this.rules.remove(id);
    return removed;
  }

  /** Removes every rule; answers how many there were. */
  async clear(): Promise<number> {
    const count = await this.deps.store.write(() => this.deps.faults.clear());
    this.rules.clear();
    return count;
  }
}
