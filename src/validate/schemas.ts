/**
 * The schemas objects are checked against, by apiVersion and kind: every version of every CustomResourceDefinition
 * found in the inputs, and Kubernetes' own OpenAPI v3 documents (`kubectl get --raw /openapi/v3/apis/apps/v1`, or
 * `api/openapi-spec/v3/*.json` of kubernetes/kubernetes) for built-in kinds.
 */
import { InputError } from '../errors.js';
import type { JSONSchemaProps } from '../apiextensions/index.js';
import type { BuiltInSchemas } from './builtin-schemas.js';
import { isRecord, type SourceObject } from './findings.js';

export interface KindSchema {
  readonly schema: JSONSchemaProps;
  /** `clusters.cluster.x-k8s.io` for a CRD, `openapi` for a built-in kind (or the built-in schemas' package). */
  readonly origin: string;
  /** Where the schema was read. */
  readonly file: string;
  /** A CRD's schema: unknown fields are pruned; a built-in kind's decodes into Go structs. */
  readonly custom: boolean;
  /** Whether the version is served (`spec.versions[].served`). */
  readonly served: boolean;
  /** The CRD version enables the status subresource: `status` is dropped on create and never checked from a manifest. */
  readonly statusSubresource?: boolean;
  /**
   * Read from the built-in schemas' package rather than the inputs: its Kubernetes release can be older than the
   * cluster's, so a field it does not know may be a newer field, not a mistake.
   */
  readonly bundled?: boolean;
}

export class SchemaCatalog {
  private readonly kinds = new Map<string, KindSchema>();
  private readonly builtInMisses = new Set<string>();
  /** The CRDs seen, by name: `clusters.cluster.x-k8s.io`. */
  readonly crds = new Map<string, SourceObject>();

  /** `builtIn`: consulted for a built-in API group's kind that no CRD or OpenAPI document of the input declares. */
  constructor(private readonly builtIn?: BuiltInSchemas) {}

  /** The schema for `apiVersion` + `kind`, if any source declared it. */
  lookup(apiVersion: string, kind: string): KindSchema | undefined {
    const k = key(apiVersion, kind);
    const found = this.kinds.get(k);
    if (found || !this.builtIn || this.builtInMisses.has(k) || !builtInGroups.has(groupOf(apiVersion))) return found;
    const doc = this.builtIn.documentFor(apiVersion, kind);
    if (doc) this.addOpenApiDocument(doc, this.builtIn.origin, this.builtIn.origin, true);
    const added = this.kinds.get(k);
    if (!added) this.builtInMisses.add(k);
    return added;
  }

  /** Every apiVersion a kind is declared in: `cluster.x-k8s.io/v1beta2`… */
  versionsOf(group: string, kind: string): string[] {
    const out: string[] = [];
    for (const k of this.kinds.keys()) {
      const [apiVersion, kk] = k.split('|') as [string, string];
      if (kk === kind && groupOf(apiVersion) === group) out.push(apiVersion);
    }
    return out.sort();
  }

  get size(): number {
    return this.kinds.size;
  }

  /** Adds a CRD's versions; an apiVersion/kind already declared keeps its first schema. */
  addCrd(src: SourceObject): void {
    const crd = src.object;
    const spec = isRecord(crd.spec) ? crd.spec : {};
    const names = isRecord(spec.names) ? spec.names : {};
    const group = typeof spec.group === 'string' ? spec.group : '';
    const kind = typeof names.kind === 'string' ? names.kind : '';
    if (!group || !kind) return;
    const meta = isRecord(crd.metadata) ? crd.metadata : {};
    const name = typeof meta.name === 'string' ? meta.name : `${String(names.plural)}.${group}`;
    if (!this.crds.has(name)) this.crds.set(name, src);
    const versions = Array.isArray(spec.versions) ? spec.versions : [];
    for (const v of versions) {
      if (!isRecord(v) || typeof v.name !== 'string') continue;
      const schema = isRecord(v.schema) && isRecord(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined;
      const k = key(`${group}/${v.name}`, kind);
      if (!schema || this.kinds.has(k)) continue;
      const statusSubresource = isRecord(v.subresources) && v.subresources.status !== undefined && v.subresources.status !== null;
      this.kinds.set(k, { schema: schema as JSONSchemaProps, origin: name, file: src.file, custom: true, served: v.served !== false, statusSubresource });
    }
  }

  /** Adds every kind a Kubernetes OpenAPI v3 document declares (`x-kubernetes-group-version-kind`). */
  addOpenApiDocument(doc: Record<string, unknown>, file: string, origin = 'openapi', bundled = false): number {
    const components = isRecord(doc.components) && isRecord(doc.components.schemas) ? doc.components.schemas : {};
    const resolver = new RefResolver(components, file);
    let added = 0;
    for (const [name, raw] of Object.entries(components)) {
      if (!isRecord(raw)) continue;
      const gvks = raw['x-kubernetes-group-version-kind'];
      if (!Array.isArray(gvks)) continue;
      for (const gvk of gvks) {
        if (!isRecord(gvk) || typeof gvk.kind !== 'string' || typeof gvk.version !== 'string') continue;
        const group = typeof gvk.group === 'string' ? gvk.group : '';
        const apiVersion = group ? `${group}/${gvk.version}` : gvk.version;
        // Lists, options and status are declared too; only the kinds manifests hold matter, and the first wins.
        const k = key(apiVersion, gvk.kind);
        if (this.kinds.has(k)) continue;
        this.kinds.set(k, { schema: resolver.resolve(name), origin, file, custom: false, served: true, bundled });
        added++;
      }
    }
    return added;
  }
}

/** API groups whose kinds are built into the API server (no CRD declares them). */
export const builtInGroups: ReadonlySet<string> = new Set([
  '',
  'apps',
  'batch',
  'autoscaling',
  'policy',
  'rbac.authorization.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'networking.k8s.io',
  'storage.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'node.k8s.io',
  'certificates.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'resource.k8s.io',
]);

/** Whether a manifest is a Kubernetes OpenAPI v3 document rather than an object. */
export function isOpenApiDocument(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && typeof value.openapi === 'string' && isRecord(value.components);
}

export function isCrd(o: Record<string, unknown>): boolean {
  return o.kind === 'CustomResourceDefinition' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('apiextensions.k8s.io/');
}

export function groupOf(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

function key(apiVersion: string, kind: string): string {
  return `${apiVersion}|${kind}`;
}

const refPrefix = '#/components/schemas/';
/** Deepest chain of `$ref`s inlined; recursive types (JSONSchemaProps) stop there and accept any value below. */
const maxRefDepth = 24;

/**
 * Inlines `$ref`s of an OpenAPI v3 document into the structural form the validator reads: `allOf: [{$ref}]` becomes
 * the referenced schema, `int-or-string` becomes `x-kubernetes-int-or-string`, and objects without declared fields
 * (RawExtension) keep whatever they hold. A schema that refers back to itself below a field (JSONSchemaProps) is a
 * recursive type; one that is nothing but a `$ref` chain back to itself declares nothing, and accepting any value there
 * would make every object of its kind valid, so it is an error naming the chain.
 */
class RefResolver {
  private readonly done = new Map<string, JSONSchemaProps>();
  constructor(
    private readonly components: Record<string, unknown>,
    private readonly file: string,
  ) {}

  /** `aliases`: the names of the current chain of schemas that are only a `$ref` to the next one. */
  resolve(name: string, depth = 0, stack: string[] = [], aliases: string[] = []): JSONSchemaProps {
    if (aliases.includes(name)) {
      const cycle = [...aliases.slice(aliases.indexOf(name)), name].join(' → ');
      throw new InputError(`${this.file}: the $ref chain ${cycle} is a cycle: these schemas only refer to each other and declare nothing`, {
        where: this.file,
        hint: 'make one schema of the chain declare its type and fields instead of a $ref',
      }, 'E_SCHEMA_REF_CYCLE');
    }
    const cached = this.done.get(name);
    if (cached) return cached;
    if (stack.includes(name) || depth > maxRefDepth) return { 'x-kubernetes-preserve-unknown-fields': true };
    const raw = this.components[name];
    const out = isRecord(raw) ? this.convert(raw, depth, [...stack, name], [...aliases, name]) : { 'x-kubernetes-preserve-unknown-fields': true };
    if (stack.length === 0 || !stack.includes(name)) this.done.set(name, out);
    return out;
  }

  /** `aliases`: as in `resolve` when `raw` is a whole component schema; empty below a field. */
  private convert(raw: Record<string, unknown>, depth: number, stack: string[], aliases: string[] = []): JSONSchemaProps {
    if (typeof raw.$ref === 'string') return this.ref(raw.$ref, depth, stack, aliases);
    const allOf = Array.isArray(raw.allOf) ? raw.allOf : undefined;
    if (allOf && allOf.length === 1 && isRecord(allOf[0]) && typeof allOf[0].$ref === 'string') {
      return this.ref(allOf[0].$ref, depth, stack, aliases);
    }
    const out: JSONSchemaProps = {};
    for (const [k, v] of Object.entries(raw)) {
      if (k === 'description' || k === 'default' || k.startsWith('x-kubernetes-group-version-kind')) continue;
      if (k === 'properties' && isRecord(v)) {
        out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, isRecord(s) ? this.convert(s, depth, stack) : {}]));
      } else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && isRecord(v)) {
        out[k] = this.convert(v, depth, stack);
      } else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) {
        out[k] = v.map((s) => (isRecord(s) ? this.convert(s, depth, stack) : {}));
      } else {
        out[k] = v;
      }
    }
    if (out.format === 'int-or-string') {
      delete out.type;
      delete out.format;
      delete out.oneOf;
      out['x-kubernetes-int-or-string'] = true;
    }
    if (out.type === 'object' && !out.properties && out.additionalProperties === undefined) out['x-kubernetes-preserve-unknown-fields'] = true;
    return out;
  }

  private ref(ref: string, depth: number, stack: string[], aliases: string[]): JSONSchemaProps {
    if (!ref.startsWith(refPrefix)) return { 'x-kubernetes-preserve-unknown-fields': true };
    return this.resolve(ref.slice(refPrefix.length), depth + 1, stack, aliases);
  }
}
