import { z } from 'zod';
import { configJsonSchemaId } from './json-schema-id.js';
import { configSchema } from './schema.js';

export { configJsonSchemaId, configJsonSchemaPath } from './json-schema-id.js';

type Node = Record<string, unknown>;

const provided = (key: string): Node => ({ required: [key] });
const sharedGenerator: Node = { required: ['generator'], properties: { generator: { const: 'clusters' } } };
const hasCore: Node = { required: ['providers'], properties: { providers: { required: ['core'] } } };

/**
 * The rules across fields that loading enforces after the zod parse (normalise.ts `checkForm`, `checkOne` and
 * `checkFleetGenerator`), so an editor or ajv refuses the same configs. What needs the resolved config (a fleet
 * entry's version taken from the shared entry of its name) stays the loader's.
 */
const crossFieldRules: Node[] = [
  // One management cluster: `providers` with its core provider. A fleet: the core provider shared or in every
  // management cluster.
  {
    if: provided('managementClusters'),
    then: { anyOf: [hasCore, { properties: { managementClusters: { additionalProperties: hasCore } } }] },
    else: hasCore,
  },
  // `clusters` belong to a management cluster in a fleet.
  { if: provided('managementClusters'), then: { not: provided('clusters'), properties: { managementClusters: { minProperties: 1 } } } },
  // generator "clusters" is the fleet's one ApplicationSet: only in a fleet, and while on, in applicationset mode
  // with no management cluster's own argocd; otherwise no management cluster may ask for it.
  { if: { required: ['argocd'], properties: { argocd: sharedGenerator } }, then: provided('managementClusters') },
  {
    if: { required: ['argocd'], properties: { argocd: { ...sharedGenerator, not: { required: ['enabled'], properties: { enabled: { const: false } } } } } },
    then: {
      properties: {
        argocd: { required: ['mode'], properties: { mode: { const: 'applicationset' } } },
        managementClusters: { additionalProperties: { not: provided('argocd') } },
      },
    },
    else: { properties: { managementClusters: { additionalProperties: { properties: { argocd: { properties: { generator: { not: { const: 'clusters' } } } } } } } } },
  },
];

/**
 * ajv's strict mode wants each `required` key among the same node's `properties` and a `type` beside object keywords;
 * the rules above are written without that noise and completed here.
 */
function strictObjects(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strictObjects);
  if (typeof v !== 'object' || v === null) return v;
  const out: Node = {};
  for (const [k, x] of Object.entries(v)) out[k] = k === 'const' ? x : strictObjects(x);
  const objectKeywords = ['required', 'properties', 'additionalProperties', 'minProperties'];
  if (objectKeywords.some((k) => k in out)) {
    out.type = 'object';
    const props = (out.properties ?? {}) as Node;
    for (const key of (out.required as string[] | undefined) ?? []) if (!(key in props)) props[key] = {};
    if (out.required !== undefined) out.properties = props;
  }
  return out;
}

/**
 * zod writes a union of primitive types as `type: [a, b]`, which ajv's strict mode refuses without `allowUnionTypes`:
 * the same as `anyOf` of one type each.
 */
function splitUnionTypes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(splitUnionTypes);
  if (typeof v !== 'object' || v === null) return v;
  const out: Node = {};
  for (const [k, x] of Object.entries(v)) out[k] = splitUnionTypes(x);
  if (Array.isArray(out.type)) {
    const anyOf = (out.type as unknown[]).map((type) => ({ type }));
    delete out.type;
    if (out.anyOf === undefined) out.anyOf = anyOf;
    else out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), { anyOf }];
  }
  return out;
}

/** The JSON Schema of `capi.config.*` as committed in `schema/capi.config.schema.json` (a test checks for drift). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = splitUnionTypes(z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', reused: 'ref' })) as Node;
  return { ...schema, $id: configJsonSchemaId(), title: 'capiform config', allOf: strictObjects(crossFieldRules) };
}

/** The committed file's exact text. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
