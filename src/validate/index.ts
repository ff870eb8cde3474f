/**
 * The validate layer's door: rendered and expanded objects checked against the CRDs they are applied with and the
 * built-in kinds' OpenAPI schemas (structural schema, unknown fields and CEL rules, with the API server's messages),
 * between render and plan. Pure: objects and schemas in, findings out.
 */
import { sortFindings as sortFindingsStable, type Finding, type SourceObject } from './findings.js';
import { validateObjects } from './objects.js';
import { lintCapiObjects } from './capi-lints.js';
import { referenceFindings } from './admission/references.js';
import { isCrd, SchemaCatalog } from './schemas.js';
import type { BuiltInSchemas } from './builtin-schemas.js';
import { webhookCreateFindings } from './admission/webhooks.js';
import { kubernetesVersionFindings } from './admission/kubernetes-versions.js';

export { findingAt, formatFinding, isRecord, objectLabel, sortFindings, type Finding, type Severity, type SourceObject } from './findings.js';
export { readManifest, type ManifestFile } from './manifests.js';
export { SchemaCatalog, isCrd, type KindSchema } from './schemas.js';
export { kubernetesModelsSchemas, type BuiltInSchemas, type PackageFileReader } from './builtin-schemas.js';
export { validateObjects, type ObjectsResult } from './objects.js';
export { lintCapiObjects } from './capi-lints.js';
export { referenceFindings, type ReferenceOptions } from './admission/references.js';
export { topologyExpandedObjects, type ExpandedObjects } from './topology.js';
export { featureGateFindings, featureGateFindingsByTree, gateRequirements, gateRules, managerGatesOf, type GateRule, type ManagerGates, type ProviderConfigPaths, type ProviderVariables } from './admission/feature-gates.js';
export { webhookUpdateRules, clusterVersionCeilingRule } from './admission/webhook-update-rules.js';
export { admit, webhookCreateFindings, webhooks, type Webhook } from './admission/webhooks.js';
export { kubernetesSupportMatrix, kubernetesVersionFindings, type KubernetesSupport } from './admission/kubernetes-versions.js';
export { contractRules, lintProviderRelease, pluralize, type ContractRule, type ProviderRelease } from './contract.js';
export { checkUpdates, updateRules, type UpdatePair, type UpdateRule } from './admission/index.js';

export interface ValidateInput {
  /** The objects to check; the CRDs among them declare schemas too (they are applied together). */
  objects: readonly SourceObject[];
  /** Objects that only contribute CRDs (`--schemas`, provider components), in order of precedence. */
  schemaObjects?: readonly SourceObject[];
  /** Kubernetes OpenAPI v3 documents for built-in kinds. */
  openApiDocuments?: ReadonlyArray<{ doc: Record<string, unknown>; file: string }>;
  /** Schemas of built-in kinds that neither the CRDs nor the OpenAPI documents declare. */
  builtIn?: BuiltInSchemas;
  /** Objects the tree applies besides `objects` (unchanged files): references may resolve to them; they are not checked. */
  referenceTargets?: readonly SourceObject[];
}

export interface ValidationReport {
  findings: Finding[];
  /** Objects looked at. */
  objects: number;
  /** Objects checked against a schema. */
  checked: number;
  /** Built-in kinds without a schema, left unchecked. */
  unchecked: string[];
  errors: number;
  warnings: number;
}

/** The catalog of every CRD and OpenAPI document of the input. */
export function schemaCatalogOf(input: ValidateInput): SchemaCatalog {
  const catalog = new SchemaCatalog(input.builtIn);
  for (const src of [...input.objects, ...(input.schemaObjects ?? [])]) if (isCrd(src.object)) catalog.addCrd(src);
  for (const { doc, file } of input.openApiDocuments ?? []) catalog.addOpenApiDocument(doc, file);
  return catalog;
}

export interface ValidateOptions {
  /** The lint rules to run (`capi.autoscaler-replicas`, `ref/dangling`, …); default: all. */
  lints?: readonly string[];
}

/** Checks every object of `input`; findings come in file and line order. */
export function validateManifests(input: ValidateInput, catalog: SchemaCatalog = schemaCatalogOf(input), options: ValidateOptions = {}): ValidationReport {
  const res = validateObjects(input.objects, catalog);
  const refs = referenceFindings(input.objects, [...input.objects, ...(input.referenceTargets ?? [])]);
  const lints = [...lintCapiObjects(input.objects, catalog), ...refs].filter((f) => !options.lints || options.lints.includes(f.rule ?? ''));
  // Admission: what CAPI's validating webhooks and the locked release's Kubernetes support would refuse.
  const admission = [...webhookCreateFindings(input.objects), ...kubernetesVersionFindings(input.objects, [...input.objects, ...(input.schemaObjects ?? [])])];
  return reportOf([...res.findings, ...lints, ...admission], input.objects.length, res.checked, res.unchecked);
}

export function reportOf(findings: Finding[], objects: number, checked: number, unchecked: string[]): ValidationReport {
  const sorted = sortFindingsStable(findings);
  return {
    findings: sorted,
    objects,
    checked,
    unchecked,
    errors: sorted.filter((f) => f.severity === 'error').length,
    warnings: sorted.filter((f) => f.severity === 'warning').length,
  };
}
