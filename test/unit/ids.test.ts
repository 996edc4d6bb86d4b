import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/sandbox/domain/faults.js';
import { RandomIds, SeededIds, timeKeyCeiling, timeKeyOf } from '../../src/sandbox/domain/ids.js';

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

  it('timeKeyOf gives random ids an integer key in creation order, made of their millisecond and sequence', () => {
    const ids = new RandomIds();
    const before = Date.now();
    const made = Array.from({ length: 5_000 }, () => ids.uuid());
    const keys = made.map((id) => timeKeyOf(id));
    for (const key of keys) {
      expect(Number.isSafeInteger(key)).toBe(true);
      expect(key).toBeGreaterThanOrEqual(timeKeyCeiling(before) - 0xfff);
      expect(key).toBeLessThanOrEqual(timeKeyCeiling(Date.now() + 2));
    }
    for (let i = 1; i < keys.length; i++) expect(keys[i]!).toBeGreaterThan(keys[i - 1]!);
    // The millisecond times 4096 plus the three hex digits after the version digit.
    expect(timeKeyOf('0196f5c2-7a10-4abc-8123-456789abcdef')).toBe((0x0196f5c27a10 - Date.UTC(2020, 0, 1)) * 4096 + 0xabc);
  });

  it('timeKeyOf reads an id as the pattern and parsing it replaced do, for 50,000 random ids and near-misses', () => {
    // The reading it replaced (a regular expression, then three parseInt of slices), as the reference.
    const reference = (id: string): number | undefined => {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) return undefined;
      const offset = Number.parseInt(id.slice(0, 8), 16) * 0x10000 + Number.parseInt(id.slice(9, 13), 16) - Date.UTC(2020, 0, 1);
      if (offset < 0 || offset > 2 ** 41 - 1) return undefined;
      return offset * 4096 + Number.parseInt(id.slice(15, 18), 16);
    };
    const next = seededRandom('ids: timeKeyOf');
    const ids = new RandomIds();
    const alphabet = '0123456789abcdefABCDEF-4g ';
    let keyed = 0;
    for (let i = 0; i < 50_000; i++) {
      let id = next() < 0.5 ? ids.uuid() : crypto.randomUUID();
      // Most get one character changed (a digit, a letter out of range, a dash, a capital), some one more or less.
      const r = next();
      const at = Math.floor(next() * id.length);
      if (r < 0.6) id = id.slice(0, at) + alphabet[Math.floor(next() * alphabet.length)] + id.slice(at + 1);
      else if (r < 0.65) id = id.slice(0, at) + id.slice(at + 1);
      else if (r < 0.7) id += '0';
      expect(timeKeyOf(id), id).toBe(reference(id));
      if (reference(id) !== undefined) keyed += 1;
    }
    expect(keyed).toBeGreaterThan(10_000);
  });

  it('timeKeyOf refuses what is not a lower-case v4 UUID with a time between 2020 and 2089', () => {
    for (const id of [
      'id-1',
      '',
      '0196F5C2-7A10-4ABC-8123-456789ABCDEF', // upper case: ids are compared exactly
      '0196f5c2-7a10-1abc-8123-456789abcdef', // version 1
      '0196f5c2-7a10-4abc-c123-456789abcdef', // not the RFC 4122 variant
      '0196f5c2-7a10-4abc-8123-456789abcdef0', // too long
      '0196f5c27a104abc8123456789abcdef', // no dashes
      '016f5e66-e7ff-4fff-8000-000000000000', // 2019-12-31T23:59:59.999Z
      'ffffffff-ffff-4fff-bfff-ffffffffffff', // far beyond 2089: would not be a safe integer
    ]) {
      expect(timeKeyOf(id), id).toBeUndefined();
    }
    expect(timeKeyOf('016f5e66-e800-4000-8000-000000000000')).toBe(0); // 2020-01-01T00:00:00.000Z
  });
});
