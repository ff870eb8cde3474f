/**
 * Go behaviour capiform reproduces byte for byte (DESIGN.md "Layout": the layer just above errors). A leaf.
 * text/template (./template) and sprig (./sprig) are doors of their own, imported by what renders templates: every
 * command imports this door, and those two are ~30 modules and a regexp engine.
 */
export { goQuote } from './quote.js';
export { compareGoStrings } from './order.js';
export { escapedPath, GoUrlError, parseGoUrl, type GoUrl } from './url.js';
export {
  blangParseTolerantError,
  compareSemantic,
  compareWithBuildTags,
  formatSemantic,
  parseSemantic,
  parseTolerant,
  parseUint64,
  tryParseSemantic,
  VersionParseError,
  type SemanticVersion,
} from './semver.js';
export { clusterctlTable, tabwrite, tabwriteRows, type TabwriterOptions } from './tabwriter.js';
export {
  asObject,
  checkGoJson,
  cloneAsJsonText,
  cloneJson,
  decodeGoJson,
  GoJsonError,
  GoJsonSyntaxError,
  goDeepEqual,
  isObject,
  objectOrEmpty,
  readerDeepEqual,
  sameValueDeepEqual,
  setOwn,
  type JsonObject,
  deletePath,
  getPath,
  NestedFieldError,
  nestedField,
  nestedString,
  removeNestedField,
  setNestedField,
  setNestedFieldNoCopy,
  setPath,
} from './json/index.js';
export { goAtoi } from './strconv.js';
export {
  applyJsonPatch,
  JsonPatchError,
  validateOperation as validateJsonPatchOperation,
  valueAtPointer,
  type JsonPatchOperation,
  type JsonPatchOptions,
} from './json-patch/index.js';
export { defaultWorkBounds, parseByteSize, setWorkBounds, workBoundEnv, workBounds, workBoundsFromEnv, type WorkBounds } from './bounds.js';
export { decodeStdBase64, isSshPublicKey, parsesAsAuthorizedKey } from './ssh.js';
