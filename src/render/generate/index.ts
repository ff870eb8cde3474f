/**
 * The door to the pure transformations `capiform generate yaml|provider|cluster` composes (the composition, which
 * reads clusterctl.yaml and the provider's files, is the pipeline's: src/pipeline/generate): clusterctl's Template
 * and its pieces, and the provider components render with the memo it may be handed. A door of its own so that
 * `generate` loads these modules alone, not the whole tree render behind src/render/index.ts.
 */
export {
  addClusterClassIfMissing,
  clusterClassReferences,
  clusterClassTemplateName,
  clusterTemplateName,
  formatClusterVariables,
  formatYamlVariables,
  newTemplate,
  templateOptionsToVariables,
  withOverrides,
  type ExistingObjects,
  type Template,
  type VariableLookup,
} from '../cluster-template.js';
export { describeComponents, renderProviderComponents, type ImageOverrides, type ProviderComponents } from '../provider-components.js';
export type { ComponentsMemo, ComponentsRecord, MemoizedComponents, MemoizedComponentsHit, OutputStyle } from '../components/index.js';
