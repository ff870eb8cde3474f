/**
 * Every option capiform gives the `yaml` package, grouped in named profiles with the reason for each. A caller names
 * the profile of the file it reads or writes; no module outside src/yaml imports the package or passes its options.
 *
 * Reading happens in two steps: the package parses the syntax with a profile's options, then src/yaml (or the caller,
 * for clusterctl.yaml) turns the document into values with the limits of docs/commands.md "Input limits": document
 * size and UTF-8 (input.ts), nesting depth, alias expansion, duplicate keys.
 *
 * Four files are read in four ways today, because the programs capiform matches read them in four ways; merging two
 * profiles would change which scalars are strings, numbers or booleans, or the wording of an error message.
 */
import type { DocumentOptions, ParseOptions, SchemaOptions, ToJSOptions, ToStringOptions, CreateNodeOptions } from 'yaml';

/** How many times the aliases of one document may be expanded (the `yaml` package's default, stated). */
export const MAX_ALIAS_COUNT = 100;

export interface ReadProfile {
  /** Options of `parseDocument` / `parseAllDocuments`. */
  readonly parse: Readonly<ParseOptions & DocumentOptions & SchemaOptions>;
  /** Options of `Document.toJS`, for the profiles whose values the package builds. */
  readonly toJS?: Readonly<ToJSOptions>;
}

export const readProfiles = {
  /**
   * Kubernetes manifests (provider components, cluster templates, the rendered tree) when the fast parser gives up
   * (slow-parse.ts). kubectl, the controllers and clusterctl read them with go-yaml v2 (YAML 1.1), whose scalar
   * rules the package does not have (`0o755`, `1_000`, `y`), so the package only checks the syntax: the failsafe
   * schema keeps every scalar a string and resolve.ts types it as go-yaml v2 does. Duplicate keys are go-yaml's
   * (the last one wins; parse.ts warns or refuses), and so are merge keys and the alias budget (slow-parse.ts).
   * Not strict: go-yaml accepts what YAML 1.2 calls an error only for style (an implicit key over 1024 characters,
   * a comment not separated by a space).
   */
  manifest: {
    parse: {
      version: '1.1',
      schema: 'failsafe',
      uniqueKeys: false,
      strict: false,
      prettyErrors: false,
      keepSourceTokens: false,
    },
  },
  /**
   * Files whose format capiform owns: capi.config.yaml and capi.lock.yaml (JSON goes through value.ts's own reader).
   * YAML 1.2 with the package's core schema, the YAML most editors and linters assume; a repeated key is an error
   * (nobody can tell which value was meant), and aliases expand at most MAX_ALIAS_COUNT times.
   */
  config: {
    parse: { prettyErrors: false, uniqueKeys: true },
    toJS: { maxAliasCount: MAX_ALIAS_COUNT },
  },
  /**
   * clusterctl.yaml as clusterctl's viper reads it: go.yaml.in/yaml/v3, so YAML 1.2, with yaml.v3's own scalar rules
   * (src/config/clusterctl/values.ts; the failsafe schema leaves every scalar to them). yaml.v3 refuses a repeated
   * key, and so do we. Aliases are bounded by the caller's node budget, as yaml.v3 bounds them.
   */
  clusterctl: {
    parse: { version: '1.2', schema: 'failsafe', uniqueKeys: true },
  },
  /**
   * A provider release's metadata.yaml (src/resolve/metadata.ts): the scheme's decoder reads YAML 1.1 and keeps the
   * last of repeated keys. Unlike manifests, its values come from the package's own YAML 1.1 schema and its errors
   * quote the package's message with its position; both are what users see today, so this profile keeps them.
   */
  providerMetadata: {
    parse: { version: '1.1', uniqueKeys: false },
    toJS: { maxAliasCount: MAX_ALIAS_COUNT },
  },
} as const satisfies Record<string, ReadProfile>;

export type ReadProfileName = keyof typeof readProfiles;

export type WriteProfile = Readonly<DocumentOptions & SchemaOptions & CreateNodeOptions & ToStringOptions>;

/**
 * Writing with the package. Manifests capiform edits are spliced into their source text or written by emit.ts, and
 * `--output-style clusterctl` by go-yaml.ts; these profiles cover what the package writes whole.
 */
export const writeProfiles = {
  /**
   * Kubernetes objects capiform builds whole (the Argo CD Applications): YAML 1.1, so a string go-yaml v2 would read
   * as another type (`yes`, `on`, `0644`) is quoted; no line folding; `- item` not indented under its key; no
   * anchors or aliases, which some Kubernetes tooling refuses (DESIGN.md "YAML").
   */
  manifest: { version: '1.1', lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false },
  /**
   * capi.lock.yaml: YAML 1.2 core, the schema the `config` read profile reads it back with, so every value comes
   * back as written; no line folding (long URLs stay on one line); plain strings where 1.2 allows them.
   */
  config: { lineWidth: 0, indentSeq: false, defaultStringType: 'PLAIN' },
} as const satisfies Record<string, WriteProfile>;

export type WriteProfileName = keyof typeof writeProfiles;
