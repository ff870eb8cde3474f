/**
 * Vector handlers for `generate` (cluster templates, ClusterClass inclusion, components client, ProcessYAML,
 * `generate yaml`, InitImages). Repositories are in-memory `ProviderRepository`s built from the vectors' `files`;
 * a management cluster, where a Go test fixture has one, is a `ManagementClusterView` built from the fixture notes.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import { CapiformError } from '../../../src/errors.js';
import { getProvider, parseProviderName, type ProviderRepository } from '../../../src/resolve/index.js';
import { manifestLabel, type ProviderType } from '../../../src/capi/index.js';
import {
  clusterClassExists,
  newTemplate,
  templateOptionsToVariables,
  withOverrides,
  type ExistingObjects,
  type Template,
} from '../../../src/render/cluster-template.js';
import {
  generateYaml,
  getClusterClass,
  getClusterTemplate,
  getComponents,
  getTemplate,
  includeClusterClasses,
  initImages,
  processYaml,
  readTemplateSource,
  templateFromConfigMap,
  type ManagementClusterView,
  type RepoContext,
} from '../../../src/pipeline/generate/index.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir, testdir } from '../../helpers/testdir.js';
import { checkExpected, field, need } from '../fields.js';
import type { Vector, VectorFile, VectorHandler } from '../types.js';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const strs = (v: unknown): Record<string, string> => rec(v) as Record<string, string>;

function lookupOf(vars: unknown): (name: string) => string | undefined {
  const m = strs(vars);
  return (name) => (Object.hasOwn(m, name) ? m[name] : undefined);
}

/** A repository serving `files` keyed `<version>/<file>`. */
/**
 * A key of a vector's `files` as `<version>/<file>`: the key itself, or — for a local release laid out as clusterctl's
 * local repository reads it (`<tmp>/bootstrap-p1/v1.0/clusterclass-dev.yaml`, `p1/v1.0.0-dev/…`) — the path from its
 * version folder on. A version folder is `v` and a digit, or `latest`.
 */
function releaseKey(key: string): string {
  const parts = key.split('/');
  for (let i = parts.length - 2; i >= 0; i--) if (/^(v\d|latest$)/.test(parts[i] as string)) return parts.slice(i).join('/');
  return key;
}

function memRepo(given: Record<string, string>, componentsFile = 'components.yaml', defaultVersion = 'v1.0.0'): ProviderRepository {
  const files: Record<string, string> = {};
  for (const [k, content] of Object.entries(given)) files[releaseKey(k)] ??= content;
  return {
    kind: 'local',
    url: `/repo/provider/${defaultVersion}/${componentsFile}`,
    componentsFile,
    defaultVersion,
    rootPath: '.',
    listVersions: async () => [...new Set(Object.keys(files).map((k) => k.split('/')[0] ?? ''))],
    getFile: async (version, file) => {
      const content = files[`${version}/${file}`];
      return content === undefined ? null : new TextEncoder().encode(content);
    },
    fileLocation: (version, file) => `/repo/provider/${version}/${file}`,
    listFiles: async (version) =>
      Object.keys(files)
        .filter((k) => k.startsWith(`${version}/`))
        .map((k) => k.slice(version.length + 1)),
  };
}

function repoContext(repo: ProviderRepository, provider: unknown, fallbackType: ProviderType): RepoContext {
  const p = rec(provider);
  const name = typeof p.name === 'string' ? p.name : 'p1';
  const type = (typeof p.type === 'string' ? p.type : fallbackType) as ProviderType;
  return { repo, label: manifestLabel(name, type) };
}

/** Runs `fn`; when the vector expects an error, asserts it (and its text) and returns undefined. */
async function run<T>(v: Vector, fn: () => Promise<T> | T): Promise<T | undefined> {
  const exp = v.expected;
  if (exp.error === true) {
    let caught: unknown;
    try {
      await fn();
    } catch (err) {
      caught = err;
    }
    expect(caught, 'expected an error').toBeDefined();
    expect(caught instanceof CapiformError, `not a CapiformError: ${String(caught)}`).toBe(true);
    const message = (caught as Error).message;
    if (typeof exp.errorMessage === 'string') expect(message).toBe(exp.errorMessage);
    if (typeof exp.errorContains === 'string') expect(message).toContain(exp.errorContains);
    return undefined;
  }
  return fn();
}

function expectTemplate(v: Vector, t: Template | undefined): void {
  if (!t) return;
  const exp = v.expected;
  if (exp.variables !== undefined) expect(t.variables).toEqual(exp.variables);
  if (exp.targetNamespace !== undefined) expect(t.targetNamespace).toBe(exp.targetNamespace);
  if (typeof exp.yaml === 'string') expect(t.yaml()).toBe(exp.yaml);
  if (typeof exp.yamlContains === 'string') expect(t.yaml()).toContain(exp.yamlContains);
  if (typeof exp.everyObjectNamespace === 'string') {
    for (const o of t.objects) expect(rec(o.metadata).namespace).toBe(exp.everyObjectNamespace);
  }
  if (typeof exp.objects === 'number') expect(t.objects.length).toBe(exp.objects);
}

/** Go-test fixture of `Test_clusterctlClient_GetClusterTemplate*`: a cluster whose state the vector names. */
function fixtureCluster(state: unknown, raw: string): ManagementClusterView | undefined {
  const s = typeof state === 'string' ? state : 'initialized (infra v3.0.0)';
  if (s.startsWith('none')) return undefined;
  const installed = /^initialized/.test(s);
  const m = /\(([a-z0-9-]+) (v[^\s)]+)/.exec(s);
  const infra = installed ? { name: m?.[1] ?? 'infra', version: m?.[2] ?? 'v3.0.0' } : null;
  return {
    currentNamespace: () => 'default',
    defaultInfrastructureProvider: () => (infra ? infra.name : ''),
    providerVersion: () => (infra ? infra.version : ''),
    configMap: (ns, name) => (ns === 'ns1' && name === 'my-template' ? { prod: raw } : null),
    existing: installed ? { clusterClassExists: () => false, objectExists: () => false } : undefined,
  };
}

let tmp: string | undefined;
function tempFile(name: string, content: string): string {
  tmp ??= tempDir('capiform-vectors-');
  const p = join(tmp, name);
  writeFileSync(p, content);
  return p;
}

const getClusterTemplateHandler: VectorHandler = async (v) => {
  const i = v.input;
  const raw = String(i.rawTemplate ?? i.template ?? '');
  const source = i.source === undefined ? { providerRepository: { infrastructureProvider: 'infra:v3.0.0' } } : rec(i.source);
  const cluster = fixtureCluster(i.cluster, raw);
  const pr = source.providerRepository === undefined ? undefined : rec(source.providerRepository);
  const cm = source.configMap === undefined ? undefined : rec(source.configMap);
  const t = await run(v, () =>
    getClusterTemplate(
      {
        clusterName: String(i.clusterName ?? ''),
        targetNamespace: typeof i.targetNamespace === 'string' ? i.targetNamespace : '',
        kubernetesVersion: typeof i.kubernetesVersion === 'string' ? i.kubernetesVersion : undefined,
        controlPlaneMachineCount: i.controlPlaneMachineCount as number | undefined,
        workerMachineCount: i.workerMachineCount as number | undefined,
        listVariablesOnly: Boolean(i.listVariablesOnly),
        providerRepository: pr && {
          infrastructureProvider: String(pr.infrastructureProvider ?? ''),
          flavor: String(pr.flavor ?? ''),
        },
        url: typeof source.url === 'string' ? tempFile('cluster-template.yaml', raw) : undefined,
        configMap: cm && { namespace: String(cm.namespace ?? ''), name: String(cm.name ?? ''), dataKey: String(cm.dataKey ?? '') },
      },
      {
        variables: lookupOf(i.vars ?? i.envOrConfig),
        openInfrastructure: async (name) => ({
          repo: memRepo({ 'v3.0.0/cluster-template.yaml': raw }, 'components.yaml', 'v3.0.0'),
          label: manifestLabel(name, 'InfrastructureProvider'),
        }),
        readURL: (url) => readTemplateSource(url, { env: {}, cwd: tmpdir(), readStdin: async () => new Uint8Array() }),
        cluster,
      },
    ),
  );
  expectTemplate(v, t);
};

const templateClientGet: VectorHandler = async (v) => {
  const i = v.input;
  const ctx = repoContext(memRepo(strs(i.files)), i.provider, 'InfrastructureProvider');
  const t = await run(v, () =>
    getTemplate(ctx, {
      version: String(i.version ?? ''),
      flavor: typeof i.flavor === 'string' ? i.flavor : undefined,
      targetNamespace: String(i.targetNamespace ?? ''),
      variables: lookupOf(i.vars),
      listVariablesOnly: Boolean(i.listVariablesOnly),
    }),
  );
  expectTemplate(v, t);
};

const clusterClassClientGet: VectorHandler = async (v) => {
  const i = v.input;
  const ctx = repoContext(memRepo(strs(i.files)), i.provider, 'InfrastructureProvider');
  // The class's name (`clusterclass-<name>.yaml`), also given as the flavor the Go test calls it.
  const name = field(i, ['name', 'clusterClassName', 'className', 'class', 'flavor']);
  const t = await run(v, () =>
    getClusterClass(ctx, {
      version: String(field(i, ['version', 'providerVersion']) ?? ''),
      name: String(name ?? ''),
      targetNamespace: String(i.targetNamespace ?? ''),
      variables: lookupOf(i.vars),
      listVariablesOnly: Boolean(field(i, ['listVariablesOnly', 'skipTemplateProcess'])),
    }),
  );
  expectTemplate(v, t);
};

function existingFrom(list: unknown): ExistingObjects {
  const objs = (Array.isArray(list) ? list : []).map(rec);
  const key = (o: Obj): { kind: string; name: string; namespace: string } => {
    const m = rec(o.metadata);
    return {
      kind: String(o.kind ?? ''),
      name: String(m.name ?? o.name ?? ''),
      namespace: String(m.namespace ?? o.namespace ?? ''),
    };
  };
  const keys = objs.map(key);
  return {
    clusterClassExists: (name, namespace) =>
      clusterClassExists(
        keys.filter((k) => k.kind === 'ClusterClass' || k.kind === ''),
        name,
        namespace,
      ),
    objectExists: (obj) => {
      const k = key(obj);
      return keys.some((e) => e.kind === k.kind && e.name === k.name && e.namespace === k.namespace);
    },
  };
}

function hasClass(t: Template, want: unknown): boolean {
  const w = rec(want);
  return t.objects.some(
    (o) => o.kind === 'ClusterClass' && rec(o.metadata).name === w.name && rec(o.metadata).namespace === w.namespace,
  );
}

const addClusterClassIfMissingHandler: VectorHandler = async (v) => {
  const i = v.input;
  const ns = String(i.targetNamespace ?? '');
  const classRef: Obj = { name: 'dev' };
  if (typeof i.classRefNamespace === 'string' && i.classRefNamespace !== '') classRef.namespace = i.classRefNamespace;
  const cluster = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'cluster-dev', namespace: ns },
    spec: { topology: { classRef } },
  };
  const files = strs(i.repoFiles);
  const version = Object.keys(files)[0]?.split('/')[0] ?? 'v1.0.0';
  const ctx = repoContext(memRepo(files), { name: 'infra', type: 'InfrastructureProvider' }, 'InfrastructureProvider');
  const vars = lookupOf(i.vars);
  const t = await run(v, async () => {
    const base = newTemplate({ raw: JSON.stringify(cluster), targetNamespace: ns, variables: vars });
    return includeClusterClasses(ctx, version, base, vars, i.clusterInitialized ? existingFrom(i.existingObjects) : undefined);
  });
  if (!t) return;
  if (v.expected.containsClusterClass !== undefined) expect(hasClass(t, v.expected.containsClusterClass)).toBe(true);
  if (v.expected.notContainsClusterClass !== undefined) {
    expect(hasClass(t, v.expected.notContainsClusterClass)).toBe(false);
  }
  if (typeof v.expected.objects === 'number') expect(t.objects.length).toBe(v.expected.objects);
};

const clusterClassExistsHandler: VectorHandler = (v) => {
  const i = v.input;
  const existing = (Array.isArray(i.existing) ? i.existing : []).map((e) => ({
    name: String(rec(e).name ?? ''),
    namespace: String(rec(e).namespace ?? ''),
  }));
  expect(clusterClassExists(existing, String(i.name ?? ''), String(i.namespace ?? ''))).toBe(v.expected.exists);
};

const templateOptionsToVariablesHandler: VectorHandler = async (v) => {
  const o = rec(v.input.options);
  const vars = await run(v, () =>
    templateOptionsToVariables(
      {
        clusterName: String(o.clusterName ?? ''),
        targetNamespace: String(o.targetNamespace ?? ''),
        kubernetesVersion: typeof o.kubernetesVersion === 'string' ? o.kubernetesVersion : undefined,
        controlPlaneMachineCount: o.controlPlaneMachineCount as number | string | undefined,
        workerMachineCount: o.workerMachineCount as number | string | undefined,
      },
      lookupOf(v.input.envOrConfig),
    ),
  );
  if (vars === undefined) return;
  // clusterctl's test reads each wanted variable back through the variables client: the values set here (overrides)
  // beat env/config, and a variable not set here (an empty kubernetesVersion) keeps its env/config value.
  const effective = withOverrides(vars, lookupOf(v.input.envOrConfig));
  checkExpected(v, 'templateOptionsToVariables', {
    vars: (want) => {
      const got: Record<string, string | undefined> = {};
      for (const name of Object.keys(rec(want))) got[name] = effective(name);
      expect(got).toEqual(want);
      // Nothing beyond the wanted variables is set by the call.
      for (const name of Object.keys(vars)) expect(Object.keys(rec(want))).toContain(name);
    },
    ok: (want) => expect(vars !== undefined).toBe(want),
  });
};

function expectComponents(v: Vector, c: Awaited<ReturnType<typeof getComponents>> | undefined): void {
  if (!c) return;
  const exp = v.expected;
  if (exp.name !== undefined) expect(c.name).toBe(exp.name);
  if (exp.type !== undefined) expect(c.type).toBe(exp.type);
  if (exp.version !== undefined) expect(c.version).toBe(exp.version);
  if (exp.targetNamespace !== undefined) expect(c.targetNamespace).toBe(exp.targetNamespace);
  if (exp.variables !== undefined) expect(c.variables).toEqual(exp.variables);
  if (exp.images !== undefined) expect(c.images).toEqual(exp.images);
  if (typeof exp.yamlContains === 'string') expect(c.yaml()).toContain(exp.yamlContains);
  if (Array.isArray(exp.everyObjectHasLabelKeys)) {
    for (const o of c.objects) {
      const labels = rec(rec(o.metadata).labels);
      for (const k of exp.everyObjectHasLabelKeys) expect(Object.hasOwn(labels, String(k))).toBe(true);
    }
  }
}

/**
 * `NewComponents(ComponentsInput)`: the components YAML (`rawYaml`, `components`, `raw`) of a provider
 * (`provider {name, type}`), `version`, `targetNamespace`, variables (`vars`) and `skipTemplateProcess`, through
 * the whole pipeline (spec §2.1). Checks the same fields as the components client vectors, plus `objects`.
 */
const newComponentsHandler: VectorHandler = async (v) => {
  const raw = field(v.input, ['rawYaml', 'components', 'raw', 'yaml']);
  if (typeof raw !== 'string') expect.fail('NewComponents: input.rawYaml (or components, raw, yaml) is missing');
  const p = rec(v.input.provider);
  const type = String(p.type ?? 'InfrastructureProvider') as ProviderType;
  const o = { ...v.input, ...rec(v.input.options) };
  const version = String(o.version ?? 'v1.0.0') || 'v1.0.0';
  const repo = memRepo({ [`${version}/components.yaml`]: raw }, 'components.yaml', version);
  const c = await run(v, () =>
    getComponents(repoContext(repo, p, type), {
      name: String(p.name ?? 'p1'),
      type,
      version,
      targetNamespace: String(o.targetNamespace ?? ''),
      skipTemplateProcess: Boolean(o.skipTemplateProcess),
      variables: lookupOf(field(v.input, ['vars', 'variables'])),
    }),
  );
  if (c === undefined) return;
  const known = ['name', 'type', 'version', 'targetNamespace', 'variables', 'images', 'yamlContains', 'everyObjectHasLabelKeys', 'objects', 'yaml'];
  if (!known.some((k) => v.expected[k] !== undefined)) expect.fail(`NewComponents: expected has none of ${known.join(', ')}`);
  expectComponents(v, c);
  if (Array.isArray(v.expected.objects)) expect(c.objects).toEqual(v.expected.objects);
  // clusterctl's Yaml() has no final newline; the printed form adds one.
  if (typeof v.expected.yaml === 'string') expect(c.yaml('clusterctl').replace(/\n$/, '')).toBe(v.expected.yaml.replace(/\n$/, ''));
};

/**
 * `TemplateClient.GetFromConfigMap`: the vector gives the ConfigMap that exists (`configMap {namespace, name, data}`)
 * and the one asked for (`namespace`, `name`, `dataKey`). capiform never reads a cluster; this runs the same
 * template reading over the ConfigMap as data (spec §3.2).
 */
const getFromConfigMap: VectorHandler = async (v) => {
  const cm = rec(need(v, ['configMap', 'configMaps'], 'GetFromConfigMap'));
  const existing = Array.isArray(v.input.configMaps) ? (v.input.configMaps as unknown[]).map(rec) : [cm];
  const cluster = {
    currentNamespace: () => String(v.input.currentNamespace ?? 'default'),
    configMap: (ns: string, name: string) => {
      const found = existing.find((c) => String(c.namespace ?? 'default') === ns && c.name === name);
      return found ? strs(found.data) : null;
    },
  };
  const t = await run(v, () =>
    templateFromConfigMap(
      cluster,
      {
        namespace: String(field(v.input, ['namespace', 'configMapNamespace']) ?? ''),
        name: String(need(v, ['name', 'configMapName'], 'GetFromConfigMap')),
        dataKey: String(field(v.input, ['dataKey', 'configMapDataKey']) ?? ''),
      },
      {
        targetNamespace: String(v.input.targetNamespace ?? ''),
        variables: lookupOf(field(v.input, ['vars', 'variables'])),
        listVariablesOnly: Boolean(field(v.input, ['skipTemplateProcess', 'listVariablesOnly'])),
      },
    ),
  );
  if (t === undefined) return;
  checkExpected(v, 'GetFromConfigMap', {
    rawTemplate: (want) => expect(t.yaml()).toBe(want),
    yaml: (want) => expect(t.yaml()).toBe(want),
    variables: (want) => expect(t.variables).toEqual(want),
    targetNamespace: (want) => expect(t.targetNamespace).toBe(want),
  });
};

const componentsClientGet: VectorHandler = async (v) => {
  const i = v.input;
  const r = rec(i.repository);
  const p = rec(i.provider);
  const o = rec(i.options);
  const type = String(p.type ?? 'InfrastructureProvider') as ProviderType;
  const repo = memRepo(strs(r.files), String(r.componentsPath ?? 'components.yaml'), String(r.defaultVersion ?? 'v1.0.0'));
  const ctx = repoContext(repo, p, type);
  const c = await run(v, () =>
    getComponents(ctx, {
      name: String(p.name ?? ''),
      type,
      version: String(o.version ?? ''),
      targetNamespace: String(o.targetNamespace ?? ''),
      skipTemplateProcess: Boolean(o.skipTemplateProcess),
      variables: lookupOf(i.vars),
    }),
  );
  expectComponents(v, c);
};

const getProviderComponents: VectorHandler = async (v) => {
  const i = v.input;
  const r = rec(i.repository);
  const files = strs(r.files);
  const type = String(i.type ?? 'InfrastructureProvider') as ProviderType;
  const componentsFile = Object.keys(files)[0]?.split('/').slice(1).join('/') ?? 'components.yaml';
  const c = await run(v, async () => {
    const { name, version } = parseProviderName(String(i.provider ?? ''));
    // The Go fixture configures exactly the provider under test.
    getProvider(name, type, [{ name, type, url: `/repo/${manifestLabel(name, type)}/v1.0.0/${componentsFile}` }]);
    const ctx = repoContext(memRepo(files, componentsFile, String(r.defaultVersion ?? 'v1.0.0')), { name, type }, type);
    return getComponents(ctx, {
      name,
      type,
      version,
      targetNamespace: String(i.targetNamespace ?? ''),
      skipTemplateProcess: Boolean(i.skipTemplateProcess),
      variables: lookupOf(i.vars),
    });
  });
  expectComponents(v, c);
};

/**
 * The template text a ProcessYAML / NewTemplate vector works on: `template`, `rawTemplate`, `rawYaml`, `raw`,
 * `fileContents` or `content` in the input, else a file-wide note `Fixture template…: "<json string>"`.
 */
function templateText(v: Vector, file: VectorFile | undefined): string | undefined {
  const direct = field(v.input, ['template', 'rawTemplate', 'rawYaml', 'raw', 'fileContents', 'content', 'yaml']);
  if (typeof direct === 'string') return direct;
  for (const n of (file?.doc.notes as unknown[] | undefined) ?? []) {
    const m = typeof n === 'string' ? /^(?:Fixture )?template[^:]*: (".*")$/i.exec(n) : null;
    if (m) return JSON.parse(m[1] as string) as string;
  }
  return undefined;
}

/**
 * `ProcessYAML(options)`: the source is none (`null`, `""`), a reader (`"reader(<text>)"`, `{reader|stdin}`), or a
 * URL (`"url(<u>)"`, a plain string, `{url|URL|file|path}`). A URL naming the template file by a placeholder
 * (`<templateFile>`, `<tmp>/template.yaml`, `<local path of …>`) is a real temporary file holding the template; a
 * `file://` prefix is kept, so both `--from ./file.yaml` and `file://` forms run through the local-file reader.
 */
const processYAML: VectorHandler = async (v, file) => {
  const src = field(v.input, ['source', 'options', 'urlSource', 'URLSource', 'readerSource', 'ReaderSource', 'url', 'from']);
  const template = templateText(v, file);
  let from: string;
  let stdin: () => Promise<Uint8Array> = async () => new Uint8Array();
  const reader = (content: string, fails = false, message = 'read error'): void => {
    from = '-';
    stdin = async () => {
      if (fails) throw new CapiformError('E_READ', message, 2);
      return new TextEncoder().encode(content);
    };
  };
  const url = (u: string): string => {
    const m = /^(file:\/\/)?(.*)$/s.exec(u) as RegExpExecArray;
    const prefix = m[1] ?? '';
    if (!/^<[^>]*>/.test(m[2] as string) && !(m[2] as string).includes('<tmp>')) {
      // A local path of the machine that recorded the vector (the Go test's t.TempDir()): the file the vector's
      // template text was written to, made here under the same name.
      const local = m[2] as string;
      if (template === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(local) || local === '' || existsSync(local)) return u;
      const dir = testdir({ [basename(local) || 'template.yaml']: template });
      return `${prefix}${join(dir, basename(local) || 'template.yaml')}`;
    }
    if (template === undefined) expect.fail('ProcessYAML: the source names a template file but the vector gives no template text');
    const dir = testdir({ 'template.yaml': template });
    const rest = (m[2] as string).replace(/^<[^>]*>/, '').replace('<tmp>', dir);
    const path = rest === '' || rest.startsWith('/template') ? join(dir, 'template.yaml') : rest;
    return `${prefix}${path}`;
  };
  from = '';
  if (src === null || src === undefined || src === '') from = '';
  else if (typeof src === 'string' && /^(reader|readersource|stdin|-)$/i.test(src)) {
    if (template === undefined) expect.fail('ProcessYAML: a reader source but the vector gives no template text');
    reader(template);
  } else if (typeof src === 'string') {
    const r = /^reader\((.*)\)$/s.exec(src);
    const u = /^(?:url|file)\((.*)\)$/s.exec(src);
    if (r) {
      const fails = /fails/.test(src);
      reader(fails ? '' : (r[1] ?? ''), fails, /'([^']*)'/.exec(src)?.[1] ?? 'read error');
      if (!fails && template !== undefined && /^<.*>$/.test(r[1] ?? '')) reader(template);
    } else from = url(u ? (u[1] as string) : src);
  } else {
    const s = rec(src);
    const inner = rec(field(s, ['URLSource', 'urlSource', 'ReaderSource', 'readerSource'])) ;
    const o = Object.keys(inner).length > 0 ? inner : s;
    const kind = String(field(o, ['type', 'kind', 'source']) ?? '');
    const isReader = /^(reader|readersource|stdin)$/i.test(kind) || 'ReaderSource' in s || 'readerSource' in s;
    let readerText = field(o, ['reader', 'Reader', 'stdin', ...(isReader ? ['content', 'text', 'data', 'value'] : [])]);
    // `{reader: true}`, `{type: "reader"}`, `{ReaderSource: {}}`: the vector's template text is what the reader gives.
    if ((readerText === undefined && isReader) || (readerText !== undefined && typeof readerText !== 'string')) readerText = template ?? '';
    const urlText = field(o, ['url', 'URL', 'file', 'path', 'Path', 'filePath', 'filename']);
    if (readerText !== undefined) {
      const t = String(readerText);
      const fails = /fails|error/.test(t) && t.startsWith('errReader');
      reader(/^<.*>$/.test(t) && template !== undefined ? template : t, fails);
    } else if (urlText !== undefined) from = url(String(urlText));
    else if (template !== undefined && Object.keys(o).length === 0) expect.fail('ProcessYAML: empty source object');
  }
  const listOnly = Boolean(field(v.input, ['skipTemplateProcess', 'SkipTemplateProcess', 'listVariables']) ?? rec(src).SkipTemplateProcess ?? rec(src).skipTemplateProcess);
  const io = { env: strs(field(v.input, ['vars', 'variables', 'env'])), cwd: tmpdir(), readStdin: stdin };
  const got = await run(v, () => processYaml(io, { from, listVariables: listOnly }));
  if (got === undefined) return;
  const printed = typeof v.expected.stdout === 'string' ? await generateYaml(io, { from, listVariables: listOnly }) : '';
  checkExpected(v, 'ProcessYAML', {
    yaml: (want) => expect(got.yaml()).toBe(String(want).replace(/\n$/, '')),
    expectedYaml: (want) => expect(got.yaml()).toBe(want),
    stdout: (want) => expect(printed).toBe(want),
    variables: (want) => expect([...got.variables].sort()).toEqual([...(want as string[])].sort()),
    expectedVars: (want) => expect([...got.variables].sort()).toEqual([...(want as string[])].sort()),
  });
};

/**
 * `repository.NewTemplate(TemplateInput)`: `rawYaml` (or `template`…), the variables client (`vars`; absent or null
 * = no variables set), `targetNamespace`, `skipTemplateProcess`. Checks `variables`, `targetNamespace`, `yaml`,
 * `yamlContains` (or `variableReplacedWith`), `objects` (a count or the objects), `variableMap`.
 */
const newTemplateHandler: VectorHandler = async (v, file) => {
  const raw = templateText(v, file);
  if (raw === undefined) expect.fail('NewTemplate: the vector gives no template text (input.rawYaml, input.template, …)');
  const vars = strs(field(v.input, ['vars', 'variables', 'configVariables', 'envOrConfig']));
  const t = await run(v, () =>
    newTemplate({
      raw,
      targetNamespace: String(field(v.input, ['targetNamespace', 'namespace']) ?? ''),
      variables: lookupOf(vars),
      skipTemplateProcess: Boolean(field(v.input, ['skipTemplateProcess', 'SkipTemplateProcess', 'listVariables'])),
    }),
  );
  if (t === undefined) return;
  checkExpected(v, 'NewTemplate', {
    variables: (want) => expect(t.variables).toEqual(want),
    targetNamespace: (want) => expect(t.targetNamespace).toBe(want),
    yaml: (want) => expect(t.yaml()).toBe(want),
    yamlContains: (want) => expect(t.yaml()).toContain(want),
    variableMap: (want) => expect(t.variableMap).toEqual(want),
    objects: (want) => (typeof want === 'number' ? expect(t.objects).toHaveLength(want) : expect(t.objects).toEqual(want)),
    objectCount: (want) => expect(t.objects).toHaveLength(want as number),
  });
};

const cliGenerate =
  (sub: string): VectorHandler =>
  async (v) => {
    const i = v.input;
    // `files`: a folder (e.g. a local provider repository) whose path replaces `<tmp>` in fileContents and args.
    const dir = i.files !== undefined ? testdir(strs(i.files)) : undefined;
    const withDir = (s: string): string => (dir ? s.replaceAll('<tmp>', dir) : s);
    const file = typeof i.fileContents === 'string' ? tempFile(`${sub}-input.yaml`, withDir(i.fileContents)) : undefined;
    const args = (Array.isArray(i.args) ? i.args : []).map((a) => (a === '<file>' && file ? file : withDir(String(a))));
    const env: NodeJS.ProcessEnv = { ...strs(i.vars ?? i.env) };
    const r = await runCli(['generate', sub, ...args], {
      stdin: typeof i.stdin === 'string' ? i.stdin : undefined,
      env,
      cwd: tmpdir(),
    });
    const exp = v.expected;
    if (exp.error === true) {
      expect(r.code).not.toBe(0);
      if (typeof exp.errorContains === 'string') expect(r.stderr).toContain(exp.errorContains);
      if (typeof exp.errorMessage === 'string') expect(r.stderr).toContain(exp.errorMessage);
      return;
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(typeof exp.exitCode === 'number' ? exp.exitCode : 0);
    if (typeof exp.stdout === 'string') expect(r.stdout).toBe(exp.stdout);
    if (typeof exp.stdoutContains === 'string') expect(r.stdout).toContain(withDir(exp.stdoutContains));
    if (typeof exp.stdout !== 'string' && typeof exp.stdoutContains !== 'string' && typeof exp.exitCode !== 'number') {
      expect.fail(`cli:generate ${sub}: expected has none of expected.stdout, stdoutContains, exitCode, error`);
    }
  };

const initImagesHandler: VectorHandler = async (v) => {
  const i = v.input;
  const images = await run(v, async () => {
    // Fixture (init_test.go): the kubeconfig has one context, "mgmt-context".
    if (typeof i.kubeconfigContext === 'string' && i.kubeconfigContext !== 'mgmt-context') {
      throw new CapiformError('E_FIXTURE', `context "${i.kubeconfigContext}" does not exist`, 2);
    }
    const fixtureRepos: Record<string, string> = {
      'cluster-api': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns1\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod',
      'bootstrap-kubeadm': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns2\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod',
      'control-plane-kubeadm':
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns3\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: pod',
      'infrastructure-infra':
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns4\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: infra\nspec:\n  template:\n    spec:\n      containers:\n      - name: manager\n        image: registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v0.5.3\n        env:\n        - name: X\n          value: ${SOME_VARIABLE}',
    };
    const fixtureProviders = [
      { name: 'infra', type: 'InfrastructureProvider', url: '/repo/infrastructure-infra/v1.0.0/infrastructure-components.yaml' },
    ];
    const additional = (Array.isArray(i.additionalProviders) ? i.additionalProviders : []).map((p) => {
      const r = rec(p);
      return { name: String(r.name ?? ''), type: String(r.type ?? ''), url: String(r.url ?? '') };
    });
    const list = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : []);
    return initImages(
      {
        coreProvider: typeof i.coreProvider === 'string' ? i.coreProvider : '',
        bootstrapProviders: list(i.bootstrapProviders),
        controlPlaneProviders: list(i.controlPlaneProviders),
        infrastructureProviders: list(i.infrastructureProviders),
        ipamProviders: list(i.ipamProviders),
        runtimeExtensionProviders: list(i.runtimeExtensionProviders),
        addonProviders: list(i.addonProviders),
        targetNamespace: typeof i.targetNamespace === 'string' ? i.targetNamespace : '',
      },
      {
        userProviders: [...fixtureProviders, ...additional],
        images: {},
        openProvider: async (provider, type) => {
          const label = manifestLabel(provider.name, type);
          const raw = fixtureRepos[label] ?? '';
          return {
            repo: memRepo({ [`v1.0.0/${label}.yaml`]: raw }, `${label}.yaml`, 'v1.0.0'),
            label,
          };
        },
        certManagerImages: async () => {
          if (typeof i.fakeCertManagerImagesErr === 'string') {
            throw new CapiformError('E_FIXTURE', i.fakeCertManagerImagesErr, 3);
          }
          return list(i.fakeCertManagerImages);
        },
      },
    );
  });
  if (images === undefined) return;
  if (Array.isArray(v.expected.images)) expect(images).toEqual([...(v.expected.images as string[])].sort());
};

export const handlers: Record<string, VectorHandler> = {
  'clusterctl:templateOptionsToVariables': templateOptionsToVariablesHandler,
  'clusterctl:GetClusterTemplate': getClusterTemplateHandler,
  'clusterctl:TemplateClient.Get': templateClientGet,
  'clusterctl:ClusterClassClient.Get': clusterClassClientGet,
  'clusterctl:addClusterClassIfMissing': addClusterClassIfMissingHandler,
  'clusterctl:clusterClassExists': clusterClassExistsHandler,
  'clusterctl:ComponentsClient.Get': componentsClientGet,
  'clusterctl:GetProviderComponents': getProviderComponents,
  'clusterctl:ProcessYAML': processYAML,
  'clusterctl:NewTemplate': newTemplateHandler,
  'clusterctl:NewComponents': newComponentsHandler,
  'clusterctl:GetFromConfigMap': getFromConfigMap,
  'clusterctl:cli:generate yaml': cliGenerate('yaml'),
  'clusterctl:cli:generate cluster': cliGenerate('cluster'),
  'clusterctl:cli:generate provider': cliGenerate('provider'),
  'clusterctl:InitImages': initImagesHandler,
};
