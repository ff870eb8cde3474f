/** capiform's library surface. Every export here is part of the documented interface (DESIGN.md). */
export * from './errors.js';
export { manifestLabel, providerTypeOrder, providerTypes, type ProviderType } from './resolve/provider-type.js';
export type { ProviderRepository, RepositoryKind } from './resolve/repository.js';
export { listVariables, substitute, type TemplateVariable, type Variables } from './render/envsubst/index.js';
export {
  renderProviderComponents,
  type ProviderComponents,
  type RenderProviderComponentsInput,
} from './render/provider-components.js';
export {
  renderClusterTemplate,
  templateOptionsToVariables,
  type RenderClusterTemplateInput,
  type RenderedClusterTemplate,
  type TemplateOptions,
} from './render/cluster-template.js';
