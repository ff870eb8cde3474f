/**
 * Vector handlers for `generate` (cluster templates, ClusterClass inclusion, components client, ProcessYAML,
 * `generate yaml`, InitImages). Repositories are in-memory `ProviderRepository`s built from the vectors' `files`;
 * a management cluster, where a Go test fixture has one, is a `ManagementClusterView` built from the fixture notes.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CapiformError } from '../../../src/errors.js';
import type { ProviderRepository } from '../../../src/resolve/repository.js';
import { manifestLabel, type ProviderType } from '../../../src/resolve/provider-type.js';
import {
  clusterClassExists,
  newTemplate,
  templateOptionsToVariables,
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
  readTemplateSource,
  type ManagementClusterView,
  type RepoContext,
} from '../../../src/render/generate.js';
import { parseProviderName } from '../../../src/resolve/provider-name.js';
import { getProvider } from '../../../src/resolve/providers.js';
import { runCli } from '../../helpers/cli.js';
import type { Vector, VectorHandler } from '../types.js';
import { tempDir } from '../../helpers/testdir.js';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const strs = (v: unknown): Record<string, string> => rec(v) as Record<string, string>;

function lookupOf(vars: unknown): (name: string) => string | undefined {
  const m = strs(vars);
  return (name) => (Object.hasOwn(m, name) ? m[name] : undefined);
}

/** A repository serving `files` keyed `<version>/<file>`. */
function memRepo(files: Record<string, string>, componentsFile = 'components.yaml', defaultVersion = 'v1.0.0'): ProviderRepository {
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
  const t = await run(v, () =>
    getClusterClass(ctx, {
      version: String(i.version ?? ''),
      name: String(i.name ?? ''),
      targetNamespace: String(i.targetNamespace ?? ''),
      variables: lookupOf(i.vars),
      listVariablesOnly: Boolean(i.listVariablesOnly),
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
  if (v.expected.vars !== undefined) expect(vars).toEqual(v.expected.vars);
  if (v.expected.ok === true) expect(vars).toBeDefined();
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

const processYAML: VectorHandler = async (v) => {
  const src = v.input.source;
  let from: string;
  let stdin: () => Promise<Uint8Array> = async () => new Uint8Array();
  if (src === null || src === undefined || src === '') from = '';
  else if (typeof src === 'string' && src.startsWith('reader(')) {
    from = '-';
    const fails = /fails/.test(src);
    const content = /^reader\((.*)\)$/s.exec(src)?.[1] ?? '';
    stdin = async () => {
      if (fails) throw new CapiformError('E_READ', /'([^']*)'/.exec(src)?.[1] ?? 'read error', 2);
      return new TextEncoder().encode(content);
    };
  } else {
    const s = rec(src);
    if (typeof s.reader === 'string' || typeof s.stdin === 'string') {
      from = '-';
      const content = String(s.reader ?? s.stdin);
      stdin = async () => new TextEncoder().encode(content);
    } else from = tempFile('process.yaml', String(s.url ?? s.file ?? s.content ?? ''));
  }
  const out = await run(v, () =>
    generateYaml(
      { env: strs(v.input.vars), cwd: tmpdir(), readStdin: stdin },
      { from, listVariables: Boolean(v.input.listVariables) },
    ),
  );
  if (out === undefined) return;
  if (typeof v.expected.yaml === 'string') expect(out).toBe(`${v.expected.yaml}\n`);
  if (typeof v.expected.stdout === 'string') expect(out).toBe(v.expected.stdout);
};

const cliGenerate =
  (sub: string): VectorHandler =>
  async (v) => {
    const i = v.input;
    const file = typeof i.fileContents === 'string' ? tempFile(`${sub}-input.yaml`, i.fileContents) : undefined;
    const args = (Array.isArray(i.args) ? i.args : []).map((a) => (a === '<file>' && file ? file : String(a)));
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
  'clusterctl:cli:generate yaml': cliGenerate('yaml'),
  'clusterctl:cli:generate cluster': cliGenerate('cluster'),
  'clusterctl:cli:generate provider': cliGenerate('provider'),
  'clusterctl:InitImages': initImagesHandler,
};
