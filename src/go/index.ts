/** Go behaviour capiform reproduces byte for byte (DESIGN.md "Layout": the layer just above errors). A leaf. */
export { goQuote } from './quote.js';
export { escapedPath, GoUrlError, parseGoUrl, type GoUrl } from './url.js';
export {
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
export { checkGoJson, decodeGoJson, GoJsonSyntaxError } from './json.js';
export * from './template/index.js';
export { hermeticTxtFuncMap, nondeterministicSprigFunctions } from './sprig/index.js';
