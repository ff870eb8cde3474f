/**
 * The API server compiles every `x-kubernetes-validations` rule of a CustomResourceDefinition when the CRD is created
 * and refuses a CRD whose rule does not compile or whose estimated cost exceeds the budgets. A CRD among the
 * validated objects gets those errors, with the API server's paths and messages (`spec.versions[1].schema.
 * openAPIV3Schema.properties[spec]….x-kubernetes-validations[0].rule: Invalid value: …`): objects of that kind would
 * otherwise only show `rule compile error` on each of them.
 */
import { checkCelSchema, hasCelRules, type JSONSchemaProps } from '../apiextensions/index.js';
import { findingAt, isRecord, type Finding, type SourceObject } from './findings.js';

/** The CEL errors of every version's schema of a CRD. */
export function crdRuleFindings(src: SourceObject): Finding[] {
  const spec = isRecord(src.object.spec) ? src.object.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const out: Finding[] = [];
  versions.forEach((v, i) => {
    const schema = isRecord(v) && isRecord(v.schema) && isRecord(v.schema.openAPIV3Schema) ? (v.schema.openAPIV3Schema as JSONSchemaProps) : undefined;
    if (!schema || !hasCelRules(schema)) return;
    for (const e of checkCelSchema(schema, `spec.versions[${i}].schema.openAPIV3Schema`, { resourceRoot: true })) {
      out.push(findingAt(src, { severity: 'error', field: e.field, message: e.message }));
    }
  });
  return out;
}
