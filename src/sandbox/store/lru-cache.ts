/**
 * A bounded map that forgets what was not used lately; reads of hot resources skip SQLite.
 *
 * Two generations instead of a strict LRU order: entries used since the last turnover live in `young`, the
 * others in `old`. A hit in `young` is one map lookup (a strict LRU re-inserted the entry on every read:
 * a delete and a set per GET); a hit in `old` moves the entry to `young`. When `young` is full it becomes
 * `old` and what `old` held is forgotten. At most `capacity` entries are held, and an entry used within the
 * last `capacity / 2` uses is always kept.
 */
export class LruCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly generation: number;

  constructor(capacity: number) {
    this.generation = Math.max(1, Math.ceil(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older !== undefined) {
      this.old.delete(key);
      this.promote(key, older);
    }
    return older;
  }

  set(key: K, value: V): void {
    if (this.young.has(key)) {
      this.young.set(key, value);
      return;
    }
    this.old.delete(key);
    this.promote(key, value);
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }

  private promote(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.generation) {
      this.old = this.young;
      this.young = new Map();
    }
  }
}
