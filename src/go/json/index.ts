/**
 * Go's encoding/json, the one owner of JSON in src/go: Unmarshal into `interface {}` with the decoder's exact error
 * texts (CAPI prints them inside variable errors; sprig's fromJson), and Marshal for sprig's toJson family.
 */
export { GoJsonError, GoJsonSyntaxError } from './errors.js';
export { checkGoJson, maxNestingDepth } from './scanner.js';
export { decodeGoJson, unmarshal, unmarshalLenient } from './decode.js';
export { marshal, marshalIndent, marshalRaw, type JsonMarshaler } from './encode.js';
export { goDeepEqual, readerDeepEqual, sameValueDeepEqual } from './equal.js';
export { asObject, cloneAsJsonText, cloneJson, isObject, objectOrEmpty, setOwn, type JsonObject } from './value.js';
export {
  deletePath,
  getPath,
  NestedFieldError,
  nestedField,
  nestedString,
  removeNestedField,
  setNestedField,
  setNestedFieldNoCopy,
  setPath,
} from './path.js';
