/**
 * The `capiform diff` report: what `--format json` prints (schemaVersion 1). Everything a reviewer sees in the text
 * and markdown formats comes from this one structure, so scripts and the PR comment never disagree.
 */
import type { Impact, ClusterSummary, ProviderSummary, RolloutSummary } from '../rollout/types.js';
import type { TopologyReview } from '../topology/types.js';
import type { ValueDiff } from './value-diff.js';

export type { ValueDiff } from './value-diff.js';

/** One step of a field path: an object key, a list index, or a list item picked by its `name` (or `class`). */
export type PathSegment = string | number | { field: 'name' | 'class'; value: string };

export interface FieldChange {
  /** Readable path, e.g. `.spec.template.spec.containers[name=manager].image`. */
  path: string;
  /** The same path as segments (used by the rollout rules; not part of the JSON output). */
  segments?: PathSegment[];
  action: 'added' | 'removed' | 'changed';
  /** Old value (absent for `added` and for redacted fields). */
  old?: unknown;
  /** New value (absent for `removed` and for redacted fields). */
  new?: unknown;
  /**
   * Set for Secret data and secret-variable values: the values are never shown; `oldHash`/`newHash` are salted
   * sha256 prefixes so a reviewer can tell two changes apart.
   */
  redacted?: { oldHash?: string; newHash?: string; reason: string };
  /** What changed inside the value (a changed multi-line string or flag list); absent for redacted fields. */
  valueDiff?: ValueDiff;
}


export type Owner =
  | { type: 'cluster'; namespace: string; name: string }
  | { type: 'provider'; label: string }
  | { type: 'namespace'; namespace: string }
  | { type: 'argocd' }
  | { type: 'other' };

export interface ObjectChange {
  /** A fleet's tree: the management cluster (`targets/<name>/`) the object belongs to. */
  target?: string;
  action: 'added' | 'removed' | 'changed' | 'rotated';
  /** `<group>/<kind>/<namespace>/<name>` (group `core` for the core API group; namespace empty if cluster-scoped). */
  key: string;
  apiVersion: string;
  /** apiVersion in the base tree when it differs (a changed or rotated object). */
  previousApiVersion?: string;
  kind: string;
  namespace: string;
  name: string;
  /** For a rotation: the template's name in the base tree. */
  previousName?: string;
  /** For a rotation that is only `templates.hashNames` switched on or off: which way. */
  renamedBy?: 'hash-names-on' | 'hash-names-off';
  /** Tree-relative file in the head tree (or in the base tree for removed objects). */
  file: string;
  previousFile?: string;
  owner: Owner;
  /** Field changes (changed and rotated objects). Secrets are redacted. */
  fields: FieldChange[];
  impacts: Impact[];
}

export interface DiffSide {
  /** How the tree was read: `working tree`, `git:<ref>`, a directory, or `<ref> (rendered)` / `working tree (rendered)`. */
  label: string;
  files: number;
  objects: number;
}

/**
 * A change whose rendered tree does not follow its config or lock (a bot edited `capi.config.ts` and nothing else):
 * the review then compares both sides rendered in memory (the lock resolved as `capiform lock` would, nothing
 * written) and says what to run. Absent when the committed trees were compared as they are.
 */
export interface DiffStale {
  /** The head's capi.lock.yaml does not satisfy its config (or is missing): `capiform lock` changes it. */
  config: boolean;
  /** The head's committed tree is not what its config and lock render: `capiform render` changes it. */
  lock: boolean;
  /** The base side was not up to date either (its own config and lock were rendered in memory too). */
  base?: { config: boolean; lock: boolean };
  /** The headline: what the review shows instead of the committed tree. */
  message: string;
  /** The command that brings the head up to date, e.g. `capiform lock && capiform render`. */
  fix: string;
}

export interface DiffReport {
  schemaVersion: 1;
  base: DiffSide;
  head: DiffSide;
  /** True when any object was added, removed, changed or rotated. */
  changed: boolean;
  counts: { added: number; removed: number; changed: number; rotated: number; unchanged: number };
  summary: RolloutSummary;
  clusters: ClusterSummary[];
  providers: ProviderSummary[];
  /** Sorted: providers first, then clusters, then the rest; by key within each. */
  changes: ObjectChange[];
  warnings: string[];
  /**
   * The ClusterClass review: for each topology Cluster a change reaches, its desired objects compared by role
   * (both sides expanded), what CAPI does, and the changes its webhooks reject. Absent when no change touches a
   * topology Cluster, a ClusterClass or a template.
   */
  topology?: TopologyReview;
  /** Set when the head's tree was not re-rendered after its config or lock changed (see DiffStale). */
  stale?: DiffStale;
}
