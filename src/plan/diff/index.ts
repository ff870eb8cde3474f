/** capiform diff: semantic comparison of two rendered trees with CAPI rollout impact. */
export type { DiffReport, DiffSide, DiffStale, FieldChange, ObjectChange, Owner, PathSegment, ValueDiff } from './types.js';
export { valueDiff } from './value-diff.js';
export { diffTrees, diffIndexes, targetGroups, type DiffOptions } from './diff-trees.js';
export { checkCapiformTree, isTreeFile, sortedFiles, type RenderedTree } from './tree.js';
export { indexTree, type TreeIndex, type TreeObject } from './objects.js';
export { deepEqual, diffFields, formatPath } from './field-diff.js';
export { formatMarkdown, defaultMaxSize, type MarkdownOptions } from './format-markdown.js';
export { formatText, type TextOptions } from './format-text.js';
export { saltedHash } from './secrets.js';
export { commentTemplate, objectTemplate } from './templates.js';
export { topologyScope, type TopologyScope } from './topology-scope.js';
