/** capiform's library surface. Every export here is part of the documented interface (DESIGN.md). */
export * from './errors.js';
export { manifestLabel, providerTypeOrder, providerTypes, type ProviderType } from './resolve/provider-type.js';
export type { ProviderRepository, RepositoryKind } from './resolve/repository.js';
export {
  diffTrees,
  formatMarkdown,
  formatText,
  readTreeFromDir,
  readTreeFromGit,
  type DiffOptions,
  type DiffReport,
  type ObjectChange,
  type RenderedTree,
} from './plan/diff/index.js';
export { hashTemplateNames } from './render/template-hash.js';
