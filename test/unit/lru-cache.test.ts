import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/sandbox/store/lru-cache.js';

describe('LruCache', () => {
  it('keeps an entry read within the last capacity / 2 uses, however many others come after', () => {
    const cache = new LruCache<number, string>(10);
    cache.set(0, 'hot');
    for (let i = 1; i <= 1000; i++) {
      cache.set(i, `cold ${i}`);
      if (i % 4 === 0) expect(cache.get(0)).toBe('hot');
    }
    expect(cache.get(0)).toBe('hot');
  });

  it('forgets entries nobody read, and holds at most its capacity', () => {
    const cache = new LruCache<number, number>(10);
    for (let i = 0; i < 100; i++) cache.set(i, i);
    const held = Array.from({ length: 100 }, (_, i) => cache.get(i)).filter((v) => v !== undefined);
    expect(held.length).toBeLessThanOrEqual(10);
    expect(cache.get(0)).toBeUndefined();
    expect(cache.get(99)).toBe(99);
  });

  it('answers the newest value set, and nothing after a delete or clear', () => {
    const cache = new LruCache<string, number>(4);
    cache.set('a', 1);
    for (const k of ['b', 'c', 'd']) cache.set(k, 0);
    cache.set('a', 2);
    expect(cache.get('a')).toBe(2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.set('e', 5);
    cache.clear();
    expect(cache.get('e')).toBeUndefined();
  });
});
