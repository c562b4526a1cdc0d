/**
 * A bounded, approximately least-recently-used map: caches of closed bars must not grow without
 * limit, and a hit must stay cheap. Two generations: hits in the old one are promoted to the young
 * one; when the young one is full the old one is dropped whole. Holds at most `capacity` entries and
 * never evicts anything used within the last capacity/2 insertions.
 */
export class Lru<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(readonly capacity: number) {
    if (!(capacity >= 2)) throw new RangeError(`LRU capacity must be >= 2: ${capacity}`);
    this.half = Math.floor(capacity / 2);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) {
      this.old.delete(key);
      this.insert(key, o);
    }
    return o;
  }

  set(key: K, value: V): void {
    this.old.delete(key);
    this.insert(key, value);
  }

  private insert(key: K, value: V): void {
    if (!this.young.has(key) && this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
