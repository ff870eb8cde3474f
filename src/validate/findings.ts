/**
 * What `capiform validate` reports: one finding per problem, located at the object's file and line and named by its
 * kind and namespace/name, with the field path and the message as kube-apiserver prints it.
 */
import { isObject as isRecord } from '../go/index.js';

export type Severity = 'error' | 'warning' | 'note';

/** An object read from a manifest, with where it came from. */
export interface SourceObject {
  readonly object: Record<string, unknown>;
  /** The file (or `<cluster>/topology` for expanded objects) the object was read from. */
  readonly file: string;
  /** 1-based line of the object's document in the file. */
  readonly line: number;
}

export interface Finding {
  readonly severity: Severity;
  /** Where the object was read: `clusters/dev/cluster.yaml`. */
  readonly file: string;
  readonly line: number;
  /** `Cluster`, `apps/v1 Deployment`… as `apiVersion` and `kind` of the object. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  /** The field path, `spec.topology.variables[0].value`; empty for the whole object. */
  readonly field: string;
  /** The message as the API server (or the lint rule) prints it. */
  readonly message: string;
  /** The offending value, when there is one. */
  readonly value?: unknown;
  /** The lint rule's id (`PC-001`, `capi/autoscaler-replicas`…); absent for schema and CEL findings. */
  readonly rule?: string;
  /** How to fix it, when the finding has a known fix. */
  readonly hint?: string;
}

/** The identity fields of a finding for `object`. */
export function findingAt(
  src: SourceObject,
  fields: Pick<Finding, 'severity' | 'field' | 'message'> & Partial<Pick<Finding, 'value' | 'rule' | 'hint'>>,
): Finding {
  const o = src.object;
  const meta = isRecord(o.metadata) ? o.metadata : {};
  return {
    severity: fields.severity,
    file: src.file,
    line: src.line,
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '',
    kind: typeof o.kind === 'string' ? o.kind : '',
    namespace: typeof meta.namespace === 'string' ? meta.namespace : '',
    name: typeof meta.name === 'string' ? meta.name : '',
    field: fields.field,
    message: fields.message,
    ...(fields.value !== undefined ? { value: fields.value } : {}),
    ...(fields.rule !== undefined ? { rule: fields.rule } : {}),
    ...(fields.hint !== undefined ? { hint: fields.hint } : {}),
  };
}

/** Findings in a stable order: by file, line, then as reported. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (a.f.file < b.f.file ? -1 : a.f.file > b.f.file ? 1 : a.f.line - b.f.line || a.i - b.i))
    .map((x) => x.f);
}

/** `Kind ns/name` or `Kind name`, as findings print the object. */
export function objectLabel(f: Pick<Finding, 'kind' | 'namespace' | 'name'>): string {
  const name = f.namespace ? `${f.namespace}/${f.name}` : f.name || '<unnamed>';
  return `${f.kind || '<no kind>'} ${name}`;
}

/** One line per finding: `file:line: error: Kind ns/name: message`. */
export function formatFinding(f: Finding): string {
  const rule = f.rule ? ` [${f.rule}]` : '';
  const hint = f.hint ? `\n    hint: ${f.hint}` : '';
  const object = f.kind || f.name ? `${objectLabel(f)}: ` : '';
  return `${f.file}:${f.line}: ${f.severity}${rule}: ${object}${f.message}${hint}`;
}

export { isRecord };
