/**
 * One read per key for a run, shared by every caller that asks while it is in flight or after it succeeded; a read
 * that fails is forgotten, so the next call tries again (a transient upstream error is not cached for the run).
 */
export class PromiseMemo<K, V> {
  private readonly entries = new Map<K, Promise<V>>();

  /** The memoised promise for `key`, starting `load()` when there is none. */
  get(key: K, load: () => Promise<V>): Promise<V> {
    let p = this.entries.get(key);
    if (!p) {
      p = load();
      this.entries.set(key, p);
      p.catch(() => this.entries.delete(key));
    }
    return p;
  }
}
