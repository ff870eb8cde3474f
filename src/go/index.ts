/** The door to Go behaviour we match byte for byte. A leaf: it imports nothing of ours. */
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
