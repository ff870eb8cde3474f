/**
 * ClusterClass variable definitions and Cluster variable values in the shapes of CAPI's API (v1beta2, with the
 * v1beta1 `metadata` field name accepted), plus the raw-JSON handling CAPI's error messages depend on.
 */
import { decodeGoJson } from '../../go/index.js';
import { goJsonMarshal, type JSONSchemaProps } from '../../apiextensions/index.js';

export interface VariableSchema {
  openAPIV3Schema: JSONSchemaProps;
}

export interface VariableMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** `spec.variables[]` of a ClusterClass (v1beta2 `deprecatedV1Beta1Metadata`, v1beta1 `metadata`). */
export interface ClusterClassVariable {
  name: string;
  required?: boolean;
  schema: VariableSchema;
  deprecatedV1Beta1Metadata?: VariableMetadata;
  metadata?: VariableMetadata;
}

export interface ClusterClassStatusVariableDefinition {
  /** `inline` for `spec.variables`, else the name of the external patch that declared it. */
  from: string;
  required?: boolean;
  schema: VariableSchema;
  deprecatedV1Beta1Metadata?: VariableMetadata;
  metadata?: VariableMetadata;
}

/** `status.variables[]` of a ClusterClass: every definition of one variable name. */
export interface ClusterClassStatusVariable {
  name: string;
  definitionsConflict?: boolean;
  definitions: ClusterClassStatusVariableDefinition[];
}

/**
 * A variable value on a Cluster (`spec.topology.variables[]`, or MachineDeployment/MachinePool overrides). `value` is
 * the decoded JSON; `raw` the exact JSON text when known (messages quote it). A missing or null value is Go's nil.
 */
export interface ClusterVariable {
  name: string;
  value?: unknown;
  raw?: string;
}

/** The JSON text CAPI prints for a value: the raw text, else the API server's re-encoding of the decoded value. */
export function rawText(v: ClusterVariable): string {
  if (v.raw !== undefined) return v.raw;
  if (v.value === undefined || v.value === null) return '';
  return goJsonMarshal(v.value);
}

/** Whether the value is Go's nil `Raw` (absent, or `null` in YAML). */
export function isNilValue(v: ClusterVariable): boolean {
  return v.raw === undefined ? v.value === undefined || v.value === null : v.raw.length === 0;
}

/** The decoded value (`json.Unmarshal(Raw)`), throwing Go's JSON error for an invalid raw text. */
export function decodedValue(v: ClusterVariable): unknown {
  if (v.raw !== undefined) return v.raw.length === 0 ? null : decodeGoJson(v.raw);
  return v.value ?? null;
}

/** A variable value built from a decoded value, with the raw text Go's `json.Marshal` would produce. */
export function variableOf(name: string, value: unknown): ClusterVariable {
  return { name, value, raw: goJsonMarshal(value) };
}
