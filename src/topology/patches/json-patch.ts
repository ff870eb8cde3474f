/**
 * A ClusterClass inline patch's JSON patch as CAPI applies it (`core/reconcilers/topology/cluster/patches/engine.go`
 * through evanphx/json-patch v5, src/go's engine): only the operations an inline patch may use run (`add`, `replace`,
 * `remove`; CAPI's ClusterClass webhook refuses the others), the patched template must stay an object, and what a
 * patch puts in is bounded.
 */
import { BoundExceededError } from '../../errors.js';
import {
  applyJsonPatch as applyGoJsonPatch,
  goQuote,
  JsonPatchError,
  validateJsonPatchOperation,
  workBoundEnv,
  workBounds,
  type JsonPatchOperation as GoJsonPatchOperation,
} from '../../go/index.js';
import { isObject, type JsonObject } from './json.js';

export { JsonPatchError };

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

/** `DecodePatch`'s validation, with `move`, `copy` and `test` refused as CAPI's webhook does. */
function validate(op: JsonPatchOperation): void {
  if (op.op === 'move' || op.op === 'copy' || op.op === 'test') {
    // Valid RFC 6902, but an inline patch can only add, replace or remove (CAPI's ClusterClass webhook).
    throw new JsonPatchError(`unsupported operation ${goQuote(op.op)}: inline patches may only use "add", "replace" and "remove"`);
  }
  validateJsonPatchOperation(op);
}

/**
 * `Patch.Apply` on a template: the document after the operations, in order (`doc` is left as it was; the result
 * shares the parts no operation changed with it). Throws JsonPatchError with evanphx's message.
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
  const root = applyGoJsonPatch(doc, operations as readonly GoJsonPatchOperation[]);
  if (!isObject(root)) throw new JsonPatchError('failed to unmarshal object from json: the patched template is not an object');
  return root;
}
