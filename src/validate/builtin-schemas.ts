/**
 * Built-in kinds' schemas from the `kubernetes-models` package (Kubernetes' own OpenAPI definitions, one module per
 * definition), turned back into the OpenAPI v3 form `kubectl get --raw /openapi/v3/...` serves, so that a built-in
 * kind is checked by the same engine and with the same messages as one passed with `--schemas`.
 *
 * The package keeps each definition as a JSON literal (`const schema = {…}`) registered under its OpenAPI name and
 * links definitions with `require`s; only that text is read, the package's own validator is never loaded. What its
 * generator added to Kubernetes' definitions is taken out again: `nullable` on optional fields, `oneOf [X, null]`,
 * `apiVersion`/`kind` made required with a one-value enum, and the int-or-string and quantity types spelled as
 * `oneOf`. What it dropped is put back from the package's type declarations: fields named `description` or
 * `x-kubernetes-…` (a CRD's schema, a printer column, a PriorityClass) lose their schema there and accept any value.
 * Pure: the caller reads the files.
 */
import { posix } from 'node:path';
import { isRecord } from './findings.js';

/** Reads a file of the package by its path under node_modules (`kubernetes-models/v1/ConfigMap.js`), if it exists. */
export type PackageFileReader = (file: string) => string | undefined;

/** Schemas of built-in kinds that a catalog consults when no CRD or `--schemas` document declares a kind. */
export interface BuiltInSchemas {
  /** Where the schemas come from, as findings and the README name it: `kubernetes-models@4.3.1`. */
  readonly origin: string;
  /** An OpenAPI v3 document declaring `apiVersion` + `kind` (`x-kubernetes-group-version-kind`), if the source has it. */
  documentFor(apiVersion: string, kind: string): Record<string, unknown> | undefined;
}

const modelsPackage = 'kubernetes-models';
const apimachineryPackage = '@kubernetes-models/apimachinery';
const refPrefix = '#/components/schemas/';
/** Most definitions one kind pulls in (a Deployment reaches about 110); more means the package is not what we read. */
const maxDefinitions = 2000;

/** Kubernetes' definitions whose Go types unmarshal themselves: written here as Kubernetes' OpenAPI v3 writes them. */
const customTypes: Record<string, Record<string, unknown>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { oneOf: [{ type: 'string' }, { type: 'number' }] },
  // Any JSON value (a CRD's `default`, `example`, `enum`), or a schema or a boolean: nothing below them is pruned.
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': { 'x-kubernetes-preserve-unknown-fields': true },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': { 'x-kubernetes-preserve-unknown-fields': true },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': { 'x-kubernetes-preserve-unknown-fields': true },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': { 'x-kubernetes-preserve-unknown-fields': true },
};

interface Definition {
  name: string;
  schema: Record<string, unknown>;
  /** The files this definition's `$ref`s are declared in. */
  requires: string[];
}

/** A kind's apiVersion as the package lays its folders out (`v1`, `apps/v1`); anything else names no file. */
const apiVersionShape = /^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;
const kindShape = /^[A-Z][A-Za-z0-9]*$/;

/** The built-in kinds of an installed `kubernetes-models` (files read through `read`); `version` names it. */
export function kubernetesModelsSchemas(read: PackageFileReader, version: string): BuiltInSchemas {
  const definitions = new Map<string, Definition | undefined>();
  const documents = new Map<string, Record<string, unknown> | undefined>();

  const definitionIn = (file: string): Definition | undefined => {
    if (definitions.has(file)) return definitions.get(file);
    const text = read(file);
    const def = text === undefined ? undefined : parseDefinition(text, file);
    definitions.set(file, def);
    return def;
  };

  const build = (apiVersion: string, kind: string): Record<string, unknown> | undefined => {
    if (!apiVersionShape.test(apiVersion) || !kindShape.test(kind)) return undefined;
    const kindModule = read(`${modelsPackage}/${apiVersion}/${kind}.js`);
    if (kindModule === undefined) return undefined;
    const rootFile = requiresOf(kindModule, `${modelsPackage}/${apiVersion}/${kind}.js`).find((f) => f.includes('/_schemas/'));
    const root = rootFile ? definitionIn(rootFile) : undefined;
    if (!root) return undefined;
    const schemas: Record<string, unknown> = {};
    const queue = [root];
    const seen = new Set<string>([root.name]);
    while (queue.length > 0) {
      const def = queue.shift() as Definition;
      schemas[def.name] = customTypes[def.name] ?? withDeclaredFields(toOpenApi(def.schema) as Record<string, unknown>, declaredFields(read, def.name));
      for (const file of def.requires) {
        const dep = definitionIn(file);
        if (!dep || seen.has(dep.name)) continue;
        if (seen.size >= maxDefinitions) return undefined;
        seen.add(dep.name);
        queue.push(dep);
      }
    }
    const slash = apiVersion.lastIndexOf('/');
    const gvk = { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
    schemas[root.name] = { ...withoutGeneratedTypeMeta(schemas[root.name] as Record<string, unknown>), 'x-kubernetes-group-version-kind': [gvk] };
    return { openapi: '3.0.0', info: { title: `Kubernetes (${version})`, version: '' }, components: { schemas } };
  };

  return {
    origin: version,
    documentFor(apiVersion, kind) {
      const key = `${apiVersion}|${kind}`;
      if (!documents.has(key)) documents.set(key, build(apiVersion, kind));
      return documents.get(key);
    },
  };
}

/** One definition module: its OpenAPI name, its schema literal and the modules it requires. */
function parseDefinition(text: string, file: string): Definition | undefined {
  const name = /\bregister\)\("([^"]+)", schema\)/.exec(text)?.[1];
  const start = text.indexOf('const schema = ');
  const end = text.indexOf('\nfunction addSchema');
  if (!name || start < 0 || end < start) return undefined;
  const literal = text.slice(start + 'const schema = '.length, end).trim().replace(/;$/, '');
  let schema: unknown;
  try {
    schema = JSON.parse(literal);
  } catch {
    return undefined;
  }
  return isRecord(schema) ? { name, schema, requires: requiresOf(text, file) } : undefined;
}

/** The package files a module requires, as paths under node_modules. */
function requiresOf(text: string, file: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\brequire\("([^"]+)"\)/g)) {
    const spec = m[1] as string;
    if (spec.startsWith('.')) out.push(posix.join(posix.dirname(file), spec));
    else if (spec.startsWith(`${apimachineryPackage}/_schemas/`)) out.push(spec.endsWith('.js') ? spec : `${spec}.js`);
  }
  return out;
}

/** The generator's JSON Schema back in Kubernetes' OpenAPI v3 form. */
function toOpenApi(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApi);
  if (!isRecord(node)) return node;
  if (typeof node.$ref === 'string') return { $ref: refPrefix + node.$ref.replace(/#$/, '') };
  const oneOf = node.oneOf;
  if (Array.isArray(oneOf) && oneOf.length === 2) {
    const nonNull = oneOf.filter((s) => !(isRecord(s) && s.type === 'null'));
    if (nonNull.length === 1) return toOpenApi(nonNull[0]);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable') continue;
    if (k === 'properties' && isRecord(v)) out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, toOpenApi(s)]));
    else if (k === 'items' || k === 'additionalProperties' || k === 'not' || k === 'allOf' || k === 'anyOf' || k === 'oneOf') out[k] = toOpenApi(v);
    else out[k] = v;
  }
  return out;
}

/** Where the package declares a definition's TypeScript interface, by the definition's OpenAPI name. */
function declarationFiles(name: string): string[] {
  const parts = name.split('.');
  const type = parts.at(-1) as string;
  const version = parts.at(-2) as string;
  const group = parts.at(-3) as string;
  if (name.startsWith('io.k8s.api.')) {
    const folders = group === 'core' ? [version] : [group, `${group}.k8s.io`, `${group}.authorization.k8s.io`, `${group}.apiserver.k8s.io`].map((g) => `${g}/${version}`);
    return folders.map((f) => `${modelsPackage}/${f}/${type}.d.ts`);
  }
  if (name.startsWith('io.k8s.apiextensions-apiserver.') || name.startsWith('io.k8s.kube-aggregator.')) return [`${modelsPackage}/${group}.k8s.io/${version}/${type}.d.ts`];
  return [];
}

/** The field names of a definition's interface (`"description"?: string;`), if the package declares it. */
function declaredFields(read: PackageFileReader, name: string): string[] {
  const type = name.split('.').at(-1) as string;
  for (const file of declarationFiles(name)) {
    const text = read(file);
    if (text === undefined) continue;
    const start = new RegExp(`^export interface I${type}\\b[^{\\n]*\\{$`, 'm').exec(text)?.index ?? -1;
    const end = start < 0 ? -1 : text.indexOf('\n}', start);
    if (end < 0) return [];
    return [...text.slice(start, end).matchAll(/^ {4}"([^"]+)"\??:/gm)].map((m) => m[1] as string);
  }
  return [];
}

/** A definition with the declared fields its schema lost accepting any value. */
function withDeclaredFields(schema: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  if (!isRecord(schema.properties)) return schema;
  const missing = fields.filter((f) => !Object.hasOwn(schema.properties as Record<string, unknown>, f));
  if (missing.length === 0) return schema;
  const properties = { ...schema.properties };
  for (const f of missing) properties[f] = { 'x-kubernetes-preserve-unknown-fields': true };
  return { ...schema, properties };
}

/** A kind's `apiVersion` and `kind` as Kubernetes declares them: optional strings (the request's type meta). */
function withoutGeneratedTypeMeta(schema: Record<string, unknown>): Record<string, unknown> {
  const out = { ...schema };
  if (isRecord(out.properties)) {
    const props = { ...out.properties };
    for (const p of ['apiVersion', 'kind']) if (isRecord(props[p])) props[p] = { type: 'string' };
    out.properties = props;
  }
  if (Array.isArray(out.required)) {
    const required = out.required.filter((r) => r !== 'apiVersion' && r !== 'kind');
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
}
