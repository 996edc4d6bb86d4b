import { getHeapSpaceStatistics } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepYoungGenerationSize, v8YoungGeneration } from '../../src/cli/young-generation.js';

const MB = 1024 * 1024;

describe('keepYoungGenerationSize', () => {
  // The checks run on Node's setInterval: fake timers move that time, so each check is one advance, not a sleep.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does the tuning given for the first check once, at the first check, on the same timer', () => {
    let firstChecks = 0;
    const stop = keepYoungGenerationSize(8 * MB, { size: () => 8 * MB, setGrowthFactor: () => {} }, 5, () => (firstChecks += 1));
    try {
      expect(firstChecks).toBe(0); // not at the start
      vi.advanceTimersByTime(5);
      expect(firstChecks).toBe(1);
      vi.advanceTimersByTime(50);
      expect(firstChecks).toBe(1);
    } finally {
      stop();
    }
  });

  it('lets the young generation grow while it is below the size, and stops it there', () => {
    let size = 8 * MB;
    const factors: number[] = [];
    const stop = keepYoungGenerationSize(8 * MB, { size: () => size, setGrowthFactor: (f) => factors.push(f) }, 5);
    try {
      expect(factors).toEqual([]); // nothing at the start: V8 lets the young generation grow until then
      vi.advanceTimersByTime(5);
      expect(factors).toEqual([1]); // at the size at the first check: no growth
      size = 2 * MB; // an idle full collection shrank it
      vi.advanceTimersByTime(30);
      expect(factors).toEqual([1, 2]); // switched once, not on every check
      size = 4 * MB;
      vi.advanceTimersByTime(30);
      expect(factors).toEqual([1, 2]);
      size = 8 * MB;
      vi.advanceTimersByTime(30);
      expect(factors).toEqual([1, 2, 1]);
    } finally {
      stop();
    }
    size = 1 * MB;
    vi.advanceTimersByTime(30);
    expect(factors).toEqual([1, 2, 1]); // stopped: no more checks
  });

  it('reads a real size from V8 (under a renamed space it would never let the young generation grow back)', () => {
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    expect(newSpace?.space_size).toBeGreaterThan(0);
    expect(v8YoungGeneration.size()).toBe(newSpace!.space_size);
  });
});
