/**
 * clusterctl `repository.MergeTemplates` (spec §3.5), on plain data: objects concatenated in template order,
 * variables = sorted union, each default from the first template that has a non-null one, target namespace = the
 * first template's, or `""` when the templates disagree.
 */
import { compareGoStrings } from '../go/index.js';

export interface MergeableTemplate<T> {
  objects: readonly T[];
  variables: readonly string[];
  /** name → default string, or null when required. */
  variableMap: Readonly<Record<string, string | null>>;
  targetNamespace: string;
}

export interface MergedTemplate<T> {
  objects: T[];
  variables: string[];
  variableMap: Record<string, string | null>;
  targetNamespace: string;
}

/** Merges templates in order (clusterctl passes the ClusterClass templates first, then the cluster template). */
export function mergeTemplates<T>(templates: readonly MergeableTemplate<T>[]): MergedTemplate<T> {
  const objects: T[] = [];
  const names = new Set<string>();
  const variableMap: Record<string, string | null> = Object.create(null) as Record<string, string | null>;
  let targetNamespace = templates[0]?.targetNamespace ?? '';
  for (const t of templates) {
    objects.push(...t.objects);
    for (const v of t.variables) names.add(v);
    for (const [name, def] of Object.entries(t.variableMap)) {
      names.add(name);
      if (variableMap[name] === undefined || variableMap[name] === null) variableMap[name] = def;
    }
    if (t.targetNamespace !== targetNamespace) targetNamespace = '';
  }
  const variables = [...names].sort(compareGoStrings);
  const sortedMap: Record<string, string | null> = {};
  // defineProperty: `__proto__` is a valid variable name.
  for (const name of variables) {
    Object.defineProperty(sortedMap, name, { value: variableMap[name] ?? null, enumerable: true, writable: true, configurable: true });
  }
  return { objects, variables, variableMap: sortedMap, targetNamespace };
}
