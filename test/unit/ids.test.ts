import { describe, expect, it } from 'vitest';
import { RandomIds, SeededIds } from '../../src/sandbox/domain/ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('random ids are version-4 UUIDs that sort in creation order, with the time first', () => {
    const ids = new RandomIds();
    const before = Date.now();
    const made = Array.from({ length: 10_000 }, () => ids.uuid());
    for (const id of made) expect(id).toMatch(UUID_V4);
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    const firstMs = parseInt(made[0]!.replace('-', '').slice(0, 12), 16);
    expect(firstMs).toBeGreaterThanOrEqual(before);
    expect(firstMs).toBeLessThanOrEqual(Date.now());
    // The random part differs between ids made in the same millisecond.
    expect(new Set(made.map((id) => id.slice(19))).size).toBe(made.length);
  });

  it('random ids stay ordered when more than 4096 are made in one millisecond', () => {
    const ids = new RandomIds();
    const made: string[] = [];
    const realNow = Date.now;
    const frozen = realNow();
    Date.now = () => frozen;
    try {
      for (let i = 0; i < 5000; i++) made.push(ids.uuid());
    } finally {
      Date.now = realNow;
    }
    expect([...made].sort()).toEqual(made);
    expect(made.at(-1)!.slice(0, 13)).not.toBe(made[0]!.slice(0, 13));
    for (const id of made) expect(id).toMatch(UUID_V4);
  });

  it('seeded ids repeat for the same seed and counter', () => {
    const a = new SeededIds('seed-1');
    const b = new SeededIds('seed-1');
    expect([a.uuid(), a.uuid(), a.approvalCode()]).toEqual([b.uuid(), b.uuid(), b.approvalCode()]);
    expect(new SeededIds('seed-2').uuid()).not.toBe(new SeededIds('seed-1').uuid());
    expect(a.uuid()).toMatch(UUID_V4);
  });
});
