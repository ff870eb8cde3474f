/**
 * RFC 6902 JSON Patch as `github.com/evanphx/json-patch/v5` v5.9.11 applies it with its default options (v5/patch.go
 * `NewApplyOptions`: negative array indices count from the end, a missing parent or key is an error, `add` creates no
 * path, no limit on what `copy` adds). CAPI applies ClusterClass patches with it and kustomize a kustomization's, so
 * the same patch behaves and fails the same way wherever a capiform user writes it. The error texts are evanphx's.
 *
 * fast-json-patch (the package DESIGN.md names) differs exactly where a review must be right: without validation
 * `replace` of a missing key adds it, negative indices are refused, a missing member never passes a `test` against
 * `null`, and its error texts are its own. None of its primitives carry these rules
 * (its `applyOperation` is the semantics; its pointer helpers do not know negative indices or the empty key), so
 * this engine has none of its code: see docs/configuration.md "Patches" for the measurement.
 *
 * The patched document is a copy on write: it shares with the input every container no operation reaches, and a
 * container on an operation's way is copied (once) before anything below it changes. Patches write a few fields of
 * large objects; a deep copy per patch was most of the cost of applying them.
 */
import { cloneJson, isObject, setOwn, type JsonObject } from '../json/index.js';
import { goAtoi } from '../strconv.js';

export interface JsonPatchOperation {
  op: string;
  path?: string;
  from?: string;
  value?: unknown;
}

export interface JsonPatchOptions {
  /**
   * Called before each operation with the document as it is then (read only): a caller bounding what a patch may
   * grow a document to measures `copy` here.
   */
  readonly beforeOperation?: (op: JsonPatchOperation, doc: unknown) => void;
  /**
   * Change `doc` itself instead of copying what the operations reach (for a caller that owns it and drops it on an
   * error: an operation that fails leaves the earlier ones applied).
   */
  readonly inPlace?: boolean;
}

/** A patch that evanphx refuses (DecodePatch) or that does not apply (Apply); the message is evanphx's. */
export class JsonPatchError extends Error {}

type Container = JsonObject | unknown[];

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';
const TEST_FAILED = 'test failed';

const isContainer = (v: unknown): v is Container => Array.isArray(v) || isObject(v);

/** RFC 6901 unescaping, in evanphx's order (`~1` then `~0`, in one left-to-right pass: strings.NewReplacer). */
function decodeKey(k: string): string {
  return k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** An index into an array of `length` elements (`partialArray.get`): negative ones count from the end. */
function arrayIndex(key: string, length: number): number | { error: string } {
  let idx: number;
  try {
    idx = goAtoi(key);
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (idx < 0) {
    if (idx < -length) return { error: `Unable to access invalid index: ${idx}: ${INVALID_INDEX}` };
    idx += length;
  }
  if (idx >= length) return { error: `Unable to access invalid index: ${idx}: ${INVALID_INDEX}` };
  return idx;
}

/**
 * `partialDoc.get` / `partialArray.get`: the member, or an error for a missing one (`missing` marks ErrMissing,
 * which `test` treats as null). An empty key is the container itself.
 */
function get(con: Container, key: string): { value: unknown } | { error: string; missing: boolean } {
  if (key === '') return { value: con };
  if (!Array.isArray(con)) {
    return Object.hasOwn(con, key) ? { value: con[key] } : { error: `unable to get nonexistent key: ${key}: ${MISSING}`, missing: true };
  }
  const idx = arrayIndex(key, con.length);
  return typeof idx === 'number' ? { value: con[idx] } : { error: idx.error, missing: false };
}

/** The patch's working state: the root and the containers already copied (safe to change). */
interface Work {
  root: Container;
  owned: Set<Container>;
  inPlace: boolean;
}

function own(parent: Container, key: string, child: Container, work: Work): Container {
  if (work.inPlace || work.owned.has(child)) return child;
  const copy: Container = Array.isArray(child) ? child.slice() : { ...child };
  if (Array.isArray(parent)) {
    // `get` found the element, so the index is valid (a negative one counts from the end).
    const idx = goAtoi(key);
    parent[idx < 0 ? idx + parent.length : idx] = copy;
  } else setOwn(parent, key, copy);
  work.owned.add(copy);
  return copy;
}

/**
 * `findObject`: the container holding the path's last key, or null when a step is missing or not a container. With
 * `write`, the containers on the way are made owned copies, so the caller may change the one returned.
 */
function findObject(work: Work, path: string, write: boolean): { con: Container; key: string } | null {
  const split = path.split('/');
  if (split.length < 2) return path === '' ? { con: work.root, key: '' } : null;
  let con = work.root;
  for (let i = 1; i < split.length - 1; i++) {
    const key = decodeKey(split[i] as string);
    const next = get(con, key);
    if ('error' in next) return null;
    const value = next.value;
    if (!isContainer(value)) return null;
    // An empty key is the container itself (evanphx), already owned when writing.
    con = value === con || !write ? value : own(con, key, value, work);
  }
  return { con, key: decodeKey(split[split.length - 1] as string) };
}

/** `partialDoc.add` / `partialArray.add`: `-` appends, an index inserts (up to one past the end). */
function add(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return;
  }
  if (key === '-') {
    con.push(value);
    return;
  }
  let idx: number;
  try {
    idx = goAtoi(key);
  } catch (err) {
    throw new Error(`value was not a proper array index: '${key}': ${(err as Error).message}`);
  }
  const size = con.length + 1;
  if (idx >= size) throw new Error(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
  if (idx < 0) {
    if (idx < -size) throw new Error(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
    idx += size;
  }
  con.splice(idx, 0, value);
}

/** `partialDoc.remove` / `partialArray.remove` (the bounds are checked before a negative index is turned). */
function remove(con: Container, key: string): void {
  if (!Array.isArray(con)) {
    if (!Object.hasOwn(con, key)) throw new Error(`unable to remove nonexistent key: ${key}: ${MISSING}`);
    delete con[key];
    return;
  }
  let idx = goAtoi(key);
  if (idx >= con.length) throw new Error(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
  if (idx < 0) {
    if (idx < -con.length) throw new Error(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
    idx += con.length;
  }
  con.splice(idx, 1);
}

/** `set`, after `get` has checked the key (replace). */
function set(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return;
  }
  let idx = goAtoi(key);
  if (idx < 0) idx += con.length;
  con[idx] = value;
}

/**
 * `lazyNode.equal` (the `test` operation): objects by their members in any order, arrays element by element, strings
 * by value, other scalars by their JSON text. evanphx compares the raw bytes of the document's JSON, so `1` and
 * `1.0` differ there; capiform's documents hold parsed numbers, whose JSON text is the shortest form.
 */
function equal(doc: unknown, value: unknown): boolean {
  if (Array.isArray(doc)) {
    if (!Array.isArray(value) || doc.length !== value.length) return false;
    // evanphx dereferences nil on a null element here (a panic); null equals null.
    return doc.every((x, i) => equal(x, value[i]));
  }
  if (isObject(doc)) {
    if (!isObject(value)) return false;
    const keys = Object.keys(doc);
    if (keys.length !== Object.keys(value).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(value, k)) return false;
      const a = doc[k];
      const b = value[k];
      // A member holding null is a nil node in evanphx: equal only to another null.
      if ((a === null) !== (b === null)) return false;
      if (a !== null && !equal(a, b)) return false;
    }
    return true;
  }
  if (typeof doc === 'string') return typeof value === 'string' && doc === value;
  return !isContainer(value) && JSON.stringify(doc) === JSON.stringify(value);
}

/** `validateOperation` (DecodePatch): a known operation, a value for `add`/`replace`, a `from` for `move`/`copy`, a path. */
export function validateOperation(op: JsonPatchOperation): void {
  const invalid = (why: string): never => {
    throw new JsonPatchError(`invalid operation ${JSON.stringify(op)}: ${why}`);
  };
  if (op.op === 'add' || op.op === 'replace') {
    if (!Object.hasOwn(op, 'value')) invalid(`failed to decode 'value': operation, missing value field: ${MISSING}`);
  } else if (op.op === 'move' || op.op === 'copy') {
    if (typeof op.from !== 'string') invalid(`failed to decode 'from': operation, missing from field: ${MISSING}`);
  } else if (op.op !== 'remove' && op.op !== 'test') {
    invalid('unsupported operation');
  }
  if (typeof op.path !== 'string') invalid(`failed to decode 'path': operation missing path field: ${MISSING}`);
}

/** The whole document replaced (`add`/`replace` of ""): an object or an array. */
function wholeDocument(op: JsonPatchOperation, value: unknown): Container {
  if (isContainer(value)) return value;
  if (op.op === 'add') throw new JsonPatchError(`json: cannot unmarshal ${typeof value} into Go value of type map[string]*json.RawMessage`);
  throw new JsonPatchError('replace operation value must be object or array: <nil>');
}

function applyOperation(work: Work, op: JsonPatchOperation): void {
  const path = op.path as string;
  switch (op.op) {
    case 'add': {
      const value = op.value === undefined ? null : cloneJson(op.value);
      if (path === '') {
        work.root = wholeDocument(op, value);
        work.owned.add(work.root);
        return;
      }
      const found = findObject(work, path, true);
      if (!found) throw new JsonPatchError(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      try {
        add(found.con, found.key, value);
      } catch (err) {
        throw new JsonPatchError(`error in add for path: '${path}': ${(err as Error).message}`);
      }
      return;
    }
    case 'remove': {
      const found = findObject(work, path, true);
      if (!found) throw new JsonPatchError(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      try {
        remove(found.con, found.key);
      } catch (err) {
        throw new JsonPatchError(`error in remove for path: '${path}': ${(err as Error).message}`);
      }
      return;
    }
    case 'replace': {
      const value = op.value === undefined ? null : cloneJson(op.value);
      if (path === '') {
        work.root = wholeDocument(op, value);
        work.owned.add(work.root);
        return;
      }
      const found = findObject(work, path, true);
      if (!found) throw new JsonPatchError(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
      if ('error' in get(found.con, found.key)) throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
      set(found.con, found.key, value);
      return;
    }
    case 'move': {
      const from = op.from as string;
      if (from === '') throw new JsonPatchError('unable to move entire document to another path: invalid state detected');
      const source = findObject(work, from, true);
      if (!source) throw new JsonPatchError(`move operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
      const got = get(source.con, source.key);
      // evanphx names the last key here, not the path.
      if ('error' in got) throw new JsonPatchError(`error in move for path: '${source.key}': ${got.error}`);
      try {
        remove(source.con, source.key);
      } catch (err) {
        throw new JsonPatchError(`error in move for path: '${source.key}': ${(err as Error).message}`);
      }
      const target = findObject(work, path, true);
      if (!target) throw new JsonPatchError(`move operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
      try {
        add(target.con, target.key, got.value);
      } catch (err) {
        throw new JsonPatchError(`error in move for path: '${path}': ${(err as Error).message}`);
      }
      return;
    }
    case 'copy': {
      const from = op.from as string;
      const source = findObject(work, from, false);
      if (!source) throw new JsonPatchError(`copy operation does not apply: doc is missing from path: "${from}": ${MISSING}`);
      const got = get(source.con, source.key);
      if ('error' in got) throw new JsonPatchError(`error in copy for from: '${from}': ${got.error}`);
      const copy = cloneJson(got.value);
      const target = findObject(work, path, true);
      if (!target) throw new JsonPatchError(`copy operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
      try {
        add(target.con, target.key, copy);
      } catch (err) {
        throw new JsonPatchError(`error while adding value during copy: ${(err as Error).message}`);
      }
      return;
    }
    case 'test': {
      const expected = op.value === undefined ? null : op.value;
      if (path === '') {
        if (equal(work.root, expected)) return;
        throw new JsonPatchError(`testing value ${path} failed: ${TEST_FAILED}`);
      }
      const found = findObject(work, path, false);
      if (!found) throw new JsonPatchError(`test operation does not apply: is missing path: ${path}: ${MISSING}`);
      const got = get(found.con, found.key);
      if ('error' in got && !got.missing) throw new JsonPatchError(`error in test for path: '${path}': ${got.error}`);
      // A missing member, like a member holding null, is nil: it passes a test against null (or without a value).
      const actual = 'error' in got ? null : got.value;
      if (actual === null || expected === null) {
        if (actual === null && expected === null) return;
        throw new JsonPatchError(`testing value ${path} failed: ${TEST_FAILED}`);
      }
      if (equal(actual, expected)) return;
      throw new JsonPatchError(`testing value ${path} failed: ${TEST_FAILED}`);
    }
  }
}

/**
 * `DecodePatch` + `Patch.Apply`: every operation is validated first, then applied in order. Returns the document
 * after the operations (an object or, after a whole-document `add`/`replace`, possibly an array); `doc` is left as it
 * was unless `inPlace`, and the result shares the parts no operation changed with it. Throws JsonPatchError with evanphx's message.
 */
export function applyJsonPatch(doc: Container, operations: readonly JsonPatchOperation[], options: JsonPatchOptions = {}): Container {
  for (const op of operations) validateOperation(op);
  const inPlace = options.inPlace === true;
  const root: Container = inPlace ? doc : Array.isArray(doc) ? doc.slice() : { ...doc };
  const work: Work = { root, owned: new Set<Container>([root]), inPlace };
  for (const op of operations) {
    options.beforeOperation?.(op, work.root);
    applyOperation(work, op);
  }
  return work.root;
}

/** The value at a JSON pointer as `copy` reads it (undefined when it does not resolve), without changing anything. */
export function valueAtPointer(doc: Container, pointer: string): unknown {
  const work: Work = { root: doc, owned: new Set(), inPlace: false };
  const found = findObject(work, pointer, false);
  if (!found) return undefined;
  const got = get(found.con, found.key);
  return 'error' in got ? undefined : got.value;
}
