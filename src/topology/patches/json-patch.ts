/**
 * RFC 6902 JSON Patch as CAPI applies it: `github.com/evanphx/json-patch/v5` v5.9.11 with its default options
 * (negative array indices allowed, a missing parent or key is an error, no paths created on `add`). The
 * `fast-json-patch` package differs on exactly the cases a review must get right (`add` below a missing parent,
 * `replace` of a missing key, negative indices), so the semantics and the error texts are reproduced here.
 * Only the operations inline patches may use (`add`, `replace`, `remove`; CAPI's webhook refuses the others) run.
 */
import { BoundExceededError } from '../../errors.js';
import { goQuote, workBoundEnv, workBounds } from '../../go/index.js';
import { cloneJson, isObject, setOwn, type JsonObject } from './json.js';
import { goAtoi } from './variable-value.js';

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

export class JsonPatchError extends Error {}

type Container = JsonObject | unknown[];

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

/** RFC 6901 unescaping, in evanphx's order (`~1` then `~0`, in one left-to-right pass). */
function decodeKey(k: string): string {
  return k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** `partialDoc.get` / `partialArray.get`: undefined for a missing member; an empty key is the container itself. */
function get(con: Container, key: string): { value: unknown } | { error: string } {
  if (key === '') return { value: con };
  if (!Array.isArray(con)) {
    return Object.hasOwn(con, key) ? { value: con[key] } : { error: `unable to get nonexistent key: ${key}: ${MISSING}` };
  }
  let idx: number;
  try {
    idx = goAtoi(key);
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (idx < 0) {
    if (idx < -con.length) return { error: `Unable to access invalid index: ${idx}: ${INVALID_INDEX}` };
    idx += con.length;
  }
  if (idx >= con.length) return { error: `Unable to access invalid index: ${idx}: ${INVALID_INDEX}` };
  return { value: con[idx] };
}

/**
 * The patched document is a copy on write: it shares with the original every container no operation reaches, and a
 * container on an operation's way is copied (once, then `owned`) before anything below it changes. Patches write a
 * few fields of large templates; a deep copy per patch was most of the cost of applying them.
 */
function ownChild(parent: Container, key: string, child: Container, owned: Set<Container>): Container {
  if (owned.has(child)) return child;
  const copy: Container = Array.isArray(child) ? child.slice() : { ...child };
  if (Array.isArray(parent)) {
    // `get` found the element, so the index is valid (a negative one counts from the end).
    const idx = goAtoi(key);
    parent[idx < 0 ? idx + parent.length : idx] = copy;
  } else setOwn(parent, key, copy);
  owned.add(copy);
  return copy;
}

/**
 * `findObject`: the container holding the path's last key, or null when a step is missing or not a container. The
 * containers on the way are made `owned` copies, so the caller may change the one returned.
 */
function findObject(doc: Container, path: string, owned: Set<Container>): { con: Container; key: string } | null {
  const split = path.split('/');
  if (split.length < 2) return path === '' ? { con: doc, key: '' } : null;
  let con = doc;
  for (const part of split.slice(1, -1)) {
    const key = decodeKey(part);
    const next = get(con, key);
    if ('error' in next) return null;
    const value = next.value;
    // An empty key is the container itself (evanphx), already owned.
    if (Array.isArray(value) || isObject(value)) con = value === con ? con : ownChild(con, key, value, owned);
    else return null;
  }
  return { con, key: decodeKey(split[split.length - 1] as string) };
}

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

function set(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setOwn(con, key, value);
    return;
  }
  let idx = goAtoi(key);
  if (idx < 0) idx += con.length;
  con[idx] = value;
}

/** `DecodePatch`'s validation: known operations, a path, and a value for `add`/`replace`. */
function validate(op: JsonPatchOperation): void {
  const invalid = (why: string): never => {
    throw new JsonPatchError(`invalid operation ${JSON.stringify(op)}: ${why}`);
  };
  if (op.op === 'add' || op.op === 'replace') {
    if (!Object.hasOwn(op, 'value')) invalid(`failed to decode 'value': operation, missing value field: ${MISSING}`);
  } else if (op.op === 'move' || op.op === 'copy' || op.op === 'test') {
    // Valid RFC 6902, but an inline patch can only add, replace or remove (CAPI's ClusterClass webhook).
    throw new JsonPatchError(`unsupported operation ${goQuote(op.op)}: inline patches may only use "add", "replace" and "remove"`);
  } else if (op.op !== 'remove') {
    invalid('unsupported operation');
  }
  if (typeof op.path !== 'string') invalid(`failed to decode 'path': operation missing path field: ${MISSING}`);
}

/**
 * `Patch.Apply`: the document after the operations, in order (`doc` is left as it was; the result shares the parts
 * no operation changed with it). Throws JsonPatchError with evanphx's message.
 */
export function applyJsonPatch(doc: JsonObject, operations: readonly JsonPatchOperation[]): JsonObject {
  const bounds = workBounds();
  if (operations.length > bounds.patchOperations) {
    throw new BoundExceededError(
      `its JSON patch has ${operations.length} operations, more than ${bounds.patchOperations} (the bound of ${workBoundEnv.patchOperations})`,
      workBoundEnv.patchOperations,
    );
  }
  for (const op of operations) validate(op);
  // Without copy or move, a patch grows the template by at most the values it puts in.
  let added = 0;
  for (const op of operations) {
    added += op.value === undefined ? 0 : (JSON.stringify(op.value)?.length ?? 0);
    if (added > bounds.patchResultBytes) {
      throw new BoundExceededError(
        `its JSON patch puts more than ${bounds.patchResultBytes} bytes into the template (the bound of ${workBoundEnv.patchResultBytes})`,
        workBoundEnv.patchResultBytes,
      );
    }
  }
  let root: Container = { ...doc };
  const owned = new Set<Container>([root]);
  for (const op of operations) {
    const path = op.path;
    const value = op.value === undefined ? null : cloneJson(op.value);
    if (op.op === 'add') {
      if (path === '') {
        if (!Array.isArray(value) && !isObject(value)) throw new JsonPatchError(`json: cannot unmarshal ${typeof value} into Go value of type map[string]*json.RawMessage`);
        root = value;
        owned.add(root);
        continue;
      }
      const found = findObject(root, path, owned);
      if (!found) throw new JsonPatchError(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      try {
        add(found.con, found.key, value);
      } catch (err) {
        throw new JsonPatchError(`error in add for path: '${path}': ${(err as Error).message}`);
      }
    } else if (op.op === 'remove') {
      const found = findObject(root, path, owned);
      if (!found) throw new JsonPatchError(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      try {
        remove(found.con, found.key);
      } catch (err) {
        throw new JsonPatchError(`error in remove for path: '${path}': ${(err as Error).message}`);
      }
    } else {
      if (path === '') {
        if (!Array.isArray(value) && !isObject(value)) throw new JsonPatchError('replace operation value must be object or array: <nil>');
        root = value;
        owned.add(root);
        continue;
      }
      const found = findObject(root, path, owned);
      if (!found) throw new JsonPatchError(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
      if ('error' in get(found.con, found.key)) throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
      set(found.con, found.key, value);
    }
  }
  if (!isObject(root)) throw new JsonPatchError('failed to unmarshal object from json: the patched template is not an object');
  return root;
}
