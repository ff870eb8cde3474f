/**
 * RFC 6902 JSON Patch with `github.com/evanphx/json-patch/v5` v5.9.11's behaviour (what CAPI and kustomize run): the
 * one engine for ClusterClass inline patches and a config's `patches`.
 */
export { applyJsonPatch, JsonPatchError, validateOperation, valueAtPointer, type JsonPatchOperation, type JsonPatchOptions } from './patch.js';
