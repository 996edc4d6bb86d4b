/**
 * `isoUtc` (domain/clock.ts) writes every API date-time by arithmetic: it must answer exactly what
 * `Date#toISOString` does, cut to whole seconds, for any instant. Seeded random instants, and the edges
 * of days, months, leap years and centuries.
 */
import { describe, expect, it } from 'vitest';
import { isoUtc } from '../../src/sandbox/domain/clock.js';
import { seededRandom } from '../../src/sandbox/domain/faults.js';

const viaDate = (ms: number) => `${new Date(ms).toISOString().slice(0, -5)}Z`;

describe('isoUtc', () => {
  it('answers what Date does for 50,000 random instants from the year 1000 to 9999', () => {
    const next = seededRandom('iso-utc');
    const from = Date.UTC(1000, 0, 1);
    const to = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    for (let i = 0; i < 50_000; i++) {
      const ms = Math.floor(from + next() * (to - from));
      expect(isoUtc(ms)).toBe(viaDate(ms));
    }
  });

  it('answers what Date does at the edges: midnight, leap days, centuries, before 1970, and outside 1000-9999', () => {
    const edges = [
      0,
      -1,
      -1000,
      -1001,
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 12),
      Date.UTC(2000, 2, 1) - 1,
      Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 1, 29),
      Date.UTC(2026, 11, 31, 23, 59, 59, 500),
      Date.UTC(1000, 0, 1),
      Date.UTC(1000, 0, 1) - 1,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1,
      Date.UTC(-50, 5, 5),
      8.64e15,
      -8.64e15,
    ];
    for (const ms of edges) expect(isoUtc(ms), String(ms)).toBe(viaDate(ms));
    expect(isoUtc(Date.UTC(2020, 10, 16, 12, 45, 58, 731))).toBe('2020-11-16T12:45:58Z');
  });

  it('refuses what Date refuses (not a time)', () => {
    expect(() => isoUtc(Number.NaN)).toThrow(RangeError);
  });
});
