/**
 * Sharded renders (`render --shard I/N`): a CI matrix splits the clusters of one project across N jobs. Every tree
 * path has exactly one owning shard, computed from the path alone, so a shard can leave the rest of the tree untouched
 * and the union of all N shards is the full render. A cluster's directory belongs to the shard of its shard key; every
 * other path (providers, ClusterClasses, namespaces, Argo CD glue) belongs to shard 1.
 */
import { sha256Hex } from '../cache/index.js';
import { UsageError } from '../errors.js';

/** One shard of N: `index` is 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * The stable identity a cluster is sharded by: `<target>/<namespace>/<name>`, with target `""` for the single
 * management cluster form (so `/<namespace>/<name>`).
 */
export function shardKey(target: string, namespace: string, name: string): string {
  return `${target}/${namespace}/${name}`;
}

/** The 1-based shard of `key` among `count`: the first 64 bits of its SHA-256, modulo `count`. */
export function shardIndexOf(key: string, count: number): number {
  const head = BigInt(`0x${sha256Hex(key).slice(0, 16)}`);
  return Number(head % BigInt(count)) + 1;
}

/** Whether the cluster `target/namespace/name` is rendered by `shard`. */
export function clusterInShard(shard: Shard, target: string, namespace: string, name: string): boolean {
  return shardIndexOf(shardKey(target, namespace, name), shard.count) === shard.index;
}

/**
 * The shard owning a tree path: `clusters/<ns>/<name>/…` (and `targets/<target>/clusters/<ns>/<name>/…`) belong to
 * their cluster's shard; everything else to shard 1.
 */
export function shardOfPath(path: string, count: number): number {
  const segs = path.split('/');
  if (segs[0] === 'clusters' && segs.length >= 4) return shardIndexOf(shardKey('', segs[1]!, segs[2]!), count);
  if (segs[0] === 'targets' && segs[2] === 'clusters' && segs.length >= 6) return shardIndexOf(shardKey(segs[1]!, segs[3]!, segs[4]!), count);
  return 1;
}

/** Whether `shard` owns the tree path. */
export function pathInShard(shard: Shard, path: string): boolean {
  return shardOfPath(path, shard.count) === shard.index;
}

/** `--shard I/N`: 1 ≤ I ≤ N ≤ 10000. */
export function parseShard(text: string, option = '--shard'): Shard {
  const m = /^([0-9]+)\/([0-9]+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || count > 10000 || index < 1 || index > count) {
    throw new UsageError(`invalid ${option} "${text}": expected I/N with 1 ≤ I ≤ N (at most 10000 shards)`, { hint: `${option} 2/4 renders the second of four shards` });
  }
  return { index, count };
}
