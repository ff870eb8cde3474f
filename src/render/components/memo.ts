/**
 * The memo `renderComponents` may be handed: the result is a pure function of an explicit input record, so a memo
 * (the pipeline's disk one, src/pipeline/generate/components-memo.ts) stores it under that record's digest. Render
 * builds the record and never computes a key or touches a disk itself.
 */
import type { KubeObject } from '../../yaml/index.js';
import type { ImageOverrides } from './images.js';

/**
 * Everything a components render depends on besides capiform itself (the memo adds capiform's version and code).
 * The text is already substituted, so its digest covers the values of the variables it uses.
 */
export interface ComponentsRecord {
  /** sha256 (hex) of the substituted components text. */
  componentsDigest: string;
  providerName: string;
  providerType: string;
  manifestLabel: string;
  version: string;
  /** `""` when none was asked for. */
  targetNamespace: string;
  /** `images:` of clusterctl.yaml; null when it has no `images` key. */
  images: ImageOverrides | null;
}

/** What a memo stores of a render. */
export interface MemoizedComponents {
  targetNamespace: string;
  images: string[];
  objects: KubeObject[];
  /** The capiform-style YAML text. */
  yaml: string;
}

/** A hit: the objects are parsed only when someone reads them (`generate provider` prints the text alone). */
export interface MemoizedComponentsHit {
  targetNamespace: string;
  images: string[];
  yaml: string;
  /** The objects, or undefined when that part of the entry is damaged (then it is a miss after all). */
  objects(): KubeObject[] | undefined;
}

/** A store of components renders keyed by their record; a damaged or missing entry is a miss, never an error. */
export interface ComponentsMemo {
  get(record: ComponentsRecord): MemoizedComponentsHit | undefined;
  /** Best effort: a memo that cannot store must not fail the render. */
  put(record: ComponentsRecord, value: MemoizedComponents): void;
}
