/**
 * The JSON value helpers CAPI's patch engine moves fields around with (apimachinery's `unstructured.NestedFieldNoCopy`
 * / `SetNestedField`), from the one toolkit in src/go/json.
 */
import {
  cloneJson,
  isObject,
  NestedFieldError,
  nestedField,
  nestedString,
  removeNestedField,
  setNestedField,
  setNestedFieldNoCopy,
  setOwn,
  type JsonObject,
} from '../../go/index.js';

export { cloneJson, isObject, NestedFieldError, nestedField, nestedString, removeNestedField, setNestedField, setNestedFieldNoCopy, setOwn, type JsonObject };
