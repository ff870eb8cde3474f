/**
 * Vector handlers for provider repositories and clusterctl's configuration: providers.json, metadata.json,
 * overrides.json, cert-manager.json and the local/latest ops of version-resolution.json.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { expect } from 'vitest';
import {
  certManagerWaitTimeout,
  ClusterctlConfig,
  parseClusterctlConfig,
  parseGoDuration,
} from '../../../src/config/clusterctl/index.js';
import { fromPlain, isConfigMap } from '../../../src/config/clusterctl/values.js';
import { builtinProviders, certManagerShouldUpgrade, createRepository, getProvider, latestContractRelease, latestPatchRelease, latestRelease, listProviders, type LocalRepository, overridePath, type ProviderRepository, readOverride, repositoryKindFor, type UserProvider } from '../../../src/resolve/index.js';
import {
  metadataProblem,
  readMetadata,
  releaseSeriesForContract,
  releaseSeriesForVersion,
  type Metadata,
  type ReleaseSeries,
} from '../../../src/resolve/metadata.js';
import { parseProviderName, providerProblem } from '../../../src/resolve/provider-name.js';
import { manifestLabel, providerTypeOrder } from '../../../src/capi/index.js';
import { formatSemantic, parseTolerant, tryParseSemantic } from '../../../src/go/index.js';
import { runCli } from '../../helpers/cli.js';
import { testdir } from '../../helpers/testdir.js';
import { checkExpected, field, need, outcome, rec, stringMap } from '../fields.js';
import type { Vector, VectorFile, VectorHandler } from '../types.js';

type Rec = Record<string, unknown>;

/** Asserts an expected error (`error`, `errorMessage`, `errorContains`) or runs `ok` on the result. */
async function expectOutcome<T>(expected: Rec, run: () => T | Promise<T>, ok: (value: T) => void): Promise<void> {
  if (expected.error === true || typeof expected.errorMessage === 'string' || typeof expected.errorContains === 'string') {
    let thrown: unknown;
    try {
      await run();
    } catch (err) {
      thrown = err;
    }
    expect(thrown, 'expected an error').toBeInstanceOf(Error);
    const message = (thrown as Error).message;
    if (typeof expected.errorMessage === 'string') expect(message).toBe(expected.errorMessage);
    if (typeof expected.errorContains === 'string') expect(message).toContain(expected.errorContains);
    return;
  }
  ok(await run());
}

/**
 * User providers as clusterctl.yaml gives them: `userProviders` (a list) or `providersYaml` (the YAML of the
 * `providers:` value), decoded through the clusterctl config reader so URLs are expanded with `input.env`.
 */
function userProvidersFrom(input: Rec): UserProvider[] {
  const env = (input.env ?? {}) as Record<string, string>;
  if (typeof input.providersYaml === 'string') {
    const indented = input.providersYaml
      .split('\n')
      .map((l) => (l === '' ? l : `  ${l}`))
      .join('\n');
    return parseClusterctlConfig(`providers:\n${indented}\n`, { env }).providers;
  }
  return configWith('providers', input.userProviders ?? [], env).providers;
}

const defaultMetadata =
  'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nreleaseSeries:\n  - major: 0\n    minor: 4\n    contract: v1alpha4\n  - major: 0\n    minor: 5\n    contract: v1alpha4\n  - major: 0\n    minor: 3\n    contract: v1alpha3\n';

/** An in-memory repository: `files` keyed `<version>/<file>`. */
function memoryRepository(opts: {
  kind?: ProviderRepository['kind'];
  url?: string;
  versions: string[];
  files: Record<string, string>;
  defaultVersion?: string;
}): ProviderRepository {
  return {
    kind: opts.kind ?? 'github',
    url: opts.url ?? 'memory://repository',
    componentsFile: 'components.yaml',
    defaultVersion: opts.defaultVersion ?? '',
    rootPath: '.',
    listVersions: () => Promise.resolve([...opts.versions]),
    getFile: (version, file) => {
      const key = `${version}/${file}`;
      return Promise.resolve(Object.hasOwn(opts.files, key) ? new TextEncoder().encode(opts.files[key]) : null);
    },
    fileLocation: (version, file) => `${opts.url ?? 'memory://repository'}/${version}/${file}`,
  };
}

/**
 * The fake GitHub world of version-resolution.json: versions from the goproxy lists of the URL's module (all major
 * suffixes; ParseTolerant, sorted, `v`-prefixed), else the GitHub releases (semver tags); metadata.yaml exists for
 * `releasesWithMetadata`.
 */
function fakeGithubRepository(input: Rec, notes: string): ProviderRepository {
  const url = String(input.url ?? '');
  const m = /^https:\/\/github\.com\/([^/]+)\/([^/]+)\//.exec(url);
  const slug = m ? `${m[1]}/${m[2]}` : '';
  const lists = (input.goproxyLists ?? {}) as Record<string, string>;
  let versions: string[] = [];
  for (const [key, text] of Object.entries(lists)) {
    if (!key.startsWith(`github.com/${slug}/`)) continue;
    for (const line of text.split('\n')) {
      const sv = parseTolerant(line);
      if (sv) versions.push(`v${formatSemantic(sv)}`);
    }
  }
  const goproxy = typeof input.GOPROXY === 'string' ? input.GOPROXY : undefined;
  if (goproxy === 'off' || goproxy === 'direct') versions = [];
  if (versions.length === 0 && Array.isArray(input.githubReleases)) {
    versions = (input.githubReleases as string[]).filter((t) => tryParseSemantic(t) !== null);
  }
  const withMeta = ((input.releasesWithMetadata ?? {}) as Record<string, string[]>)[slug] ?? [];
  const content = typeof input.metadataContents === 'string' ? input.metadataContents : notes;
  const files: Record<string, string> = {};
  for (const v of withMeta) files[`${v}/metadata.yaml`] = content;
  return memoryRepository({ kind: 'github', url, versions, files });
}

function fileNotes(file: VectorFile): string {
  const notes = (file.doc.notes ?? []) as string[];
  for (const n of notes) {
    const m = /Default metadata\.yaml content[^"]*(".*")\s*$/.exec(n);
    if (m?.[1]) {
      try {
        return JSON.parse(m[1]) as string;
      } catch {
        // fall through
      }
    }
  }
  return defaultMetadata;
}

function metadataYaml(m: Rec): string {
  const lines = [`apiVersion: ${String(m.apiVersion ?? 'clusterctl.cluster.x-k8s.io/v1alpha3')}`, `kind: ${String(m.kind ?? 'Metadata')}`];
  const rs = (m.releaseSeries ?? []) as Rec[];
  if (rs.length === 0) lines.push('releaseSeries: []');
  else {
    lines.push('releaseSeries:');
    for (const s of rs) lines.push(`- major: ${String(s.major)}`, `  minor: ${String(s.minor)}`, `  contract: ${JSON.stringify(s.contract ?? '')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A local repository from `{provider, url ('<tmp>/…'), files}`; remembers the temp dir in `input.__dir`. */
async function localFromInput(input: Rec): Promise<ProviderRepository> {
  const dir = testdir((input.files ?? {}) as Record<string, string>);
  input.__dir = dir;
  const provider = (input.provider ?? {}) as { name: string; type: string };
  const url = String(input.url ?? '').replace('<tmp>', dir);
  return createRepository({ name: String(provider.name ?? ''), type: String(provider.type ?? ''), url });
}

function configWith(key: string, value: unknown, env: Record<string, string> = {}): ClusterctlConfig {
  const map = fromPlain(value === undefined ? {} : { [key]: value });
  return new ClusterctlConfig(isConfigMap(map) ? map : new Map(), env);
}

const handlers: Record<string, VectorHandler> = {
  'clusterctl:GetProvidersConfig': async (v) => {
    await expectOutcome(v.expected, () => listProviders(userProvidersFrom(v.input)), (list) => {
      if (v.expected.names) expect(list.map((p) => p.name)).toEqual(v.expected.names);
      if (v.expected.typesInOrder) expect(list.map((p) => p.type)).toEqual(v.expected.typesInOrder);
    });
  },

  'clusterctl:providers.List': async (v) => {
    await expectOutcome(v.expected, () => listProviders(userProvidersFrom(v.input)), (list) => {
      if (typeof v.expected.count === 'number') expect(list).toHaveLength(v.expected.count);
      if (v.expected.contains) expect(list).toContainEqual(v.expected.contains);
      if (v.expected.names) expect(list.map((p) => p.name)).toEqual(v.expected.names);
    });
  },

  'clusterctl:validateProvider': async (v) => {
    const p = { name: String(v.input.name ?? ''), url: String(v.input.url ?? ''), type: String(v.input.type ?? '') };
    await expectOutcome(
      v.expected,
      () => {
        const problem = providerProblem(p);
        if (problem !== null) throw new Error(problem);
        return true;
      },
      (valid) => expect(valid).toBe(v.expected.valid ?? true),
    );
  },

  'clusterctl:providers.Get': async (v) => {
    await expectOutcome(
      v.expected,
      () => getProvider(String(v.input.name), String(v.input.type), userProvidersFrom(v.input)),
      (p) => {
        if (v.expected.url !== undefined) expect(p.url).toBe(v.expected.url);
        if (v.expected.name !== undefined) expect(p.name).toBe(v.expected.name);
        if (v.expected.type !== undefined) expect(p.type).toBe(v.expected.type);
      },
    );
  },

  'clusterctl:parseProviderName': async (v) => {
    await expectOutcome(v.expected, () => parseProviderName(String(v.input.provider)), (r) => {
      expect(r).toEqual({ name: v.expected.name, version: v.expected.version });
    });
  },

  'clusterctl:cli:config repositories': async (v) => {
    const dir = testdir();
    const args = ['config', 'repositories', ...((v.input.args ?? []) as string[])];
    if (typeof v.input.clusterctlYaml === 'string') {
      const path = join(dir, 'clusterctl.yaml');
      writeFileSync(path, v.input.clusterctlYaml);
      args.push('--config', path);
    }
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), ...((v.input.env ?? {}) as Record<string, string>) };
    const r = await runCli(args, { env, cwd: dir });
    if (v.expected.error || v.expected.errorContains || v.expected.errorMessage) {
      expect(r.code).not.toBe(0);
      if (typeof v.expected.errorContains === 'string') expect(r.stderr).toContain(v.expected.errorContains);
      if (typeof v.expected.errorMessage === 'string') expect(r.stderr).toContain(v.expected.errorMessage);
      return;
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(v.expected.stdout);
  },

  'clusterctl:metadataClient.Get': async (v) => {
    const provider = v.input.provider as { name: string; type: string };
    const files: Record<string, string> = {};
    for (const [ver, m] of Object.entries((v.input.repositoryMetadata ?? {}) as Record<string, Rec>)) {
      files[`${ver}/metadata.yaml`] = metadataYaml(m);
    }
    Object.assign(files, (v.input.repositoryFiles ?? {}) as Record<string, string>);
    const versions = [...new Set(Object.keys(files).map((k) => k.split('/')[0] ?? ''))];
    const repo = memoryRepository({ versions, files });
    await expectOutcome(v.expected, () => readMetadata(repo, String(v.input.version), provider), (m: Metadata) => {
      expect(m).toEqual(v.expected.metadata);
    });
  },

  'clusterctl:validateMetadata': async (v) => {
    const m = v.input.metadata as Rec;
    await expectOutcome(
      v.expected,
      () => {
        const problem = metadataProblem(
          {
            apiVersion: String(m.apiVersion ?? ''),
            kind: String(m.kind ?? ''),
            releaseSeries: (m.releaseSeries ?? []) as Metadata['releaseSeries'],
          },
          String(v.input.providerLabel),
        );
        if (problem !== null) throw new Error(problem);
        return true;
      },
      (ok) => expect(ok).toBe(true),
    );
  },

  'clusterctl:overrides.Path': (v) => {
    const dir = testdir();
    const xdg = join(dir, 'xdg');
    const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: xdg, ...((v.input.env ?? {}) as Record<string, string>) };
    const vars = (v.input.vars ?? {}) as Record<string, string>;
    const cfg = new ClusterctlConfig(new Map(), env);
    for (const [k, val] of Object.entries(vars)) cfg.set(k, val);
    const provider = v.input.provider as { name: string; type: string };
    const path = overridePath(provider, String(v.input.version), String(v.input.file), {
      overridesFolder: cfg.get('overridesFolder'),
      env,
    });
    const expected = String(v.expected.path).replace('<xdgConfig>', join(xdg, 'cluster-api'));
    expect(path).toBe(expected);
  },

  'clusterctl:CertManager.Get': async (v) => {
    const env = (v.input.env ?? {}) as Record<string, string>;
    await expectOutcome(v.expected, () => configWith('cert-manager', v.input.certManagerConfig ?? undefined, env).certManager, (cm) => {
      const want = { ...v.expected };
      expect(cm).toEqual(want);
    });
  },

  'clusterctl:certManager.getWaitTimeout': (v) => {
    const cfg = configWith('cert-manager', v.input.certManagerConfig ?? undefined);
    expect(certManagerWaitTimeout(cfg.certManager)).toBe(parseGoDuration(String(v.expected.timeout)));
  },

  'clusterctl:certManager.shouldUpgrade': async (v) => {
    const installed = (v.input.installedObjects ?? []) as Rec[];
    const toInstall = Array.isArray(v.input.toInstallObjects) ? (v.input.toInstallObjects as Rec[]) : installed;
    await expectOutcome(
      v.expected,
      () => certManagerShouldUpgrade(String(v.input.configVersion), installed, toInstall),
      (r) => {
        expect(r.shouldUpgrade).toBe(v.expected.shouldUpgrade);
        if (v.expected.fromVersion !== undefined) expect(r.fromVersion).toBe(v.expected.fromVersion);
      },
    );
  },

  'clusterctl:latestPatchRelease': async (v, file) => {
    const repo = fakeGithubRepository(v.input, fileNotes(file));
    const major = v.input.major as number | null | undefined;
    const minor = v.input.minor as number | null | undefined;
    await expectOutcome(v.expected, () => latestPatchRelease(repo, major, minor), (r) => expect(r).toBe(v.expected.version));
  },

  'clusterctl:latestRelease': async (v, file) => {
    const repo = fakeGithubRepository(v.input, fileNotes(file));
    await expectOutcome(v.expected, () => latestRelease(repo), (r) => expect(r).toBe(v.expected.version));
  },

  'clusterctl:latestContractRelease': async (v, file) => {
    const repo = v.input.files ? await localFromInput(v.input) : fakeGithubRepository(v.input, fileNotes(file));
    await expectOutcome(
      v.expected,
      () => latestContractRelease(repo, String(v.input.contract ?? 'v1beta2')),
      (r) => expect(r).toBe(v.expected.version),
    );
  },

  'clusterctl:newLocalRepository': async (v) => {
    await expectOutcome(v.expected, () => localFromInput(v.input), (repo) => {
      const r = repo as LocalRepository;
      const dir = String((v.input as Rec).__dir ?? '');
      const fields: Record<string, unknown> = {
        defaultVersion: r.defaultVersion,
        componentsPath: r.componentsFile,
        providerLabel: r.providerLabel,
        basepath: r.basepath,
      };
      let checked = 0;
      for (const [k, want] of Object.entries(v.expected)) {
        if (!(k in fields)) continue;
        checked++;
        expect(fields[k]).toBe(typeof want === 'string' ? want.replace('<tmp>', dir) : want);
      }
      if (checked === 0) expect.fail(`newLocalRepository: expected has none of ${Object.keys(fields).join(', ')}`);
    });
  },

  'clusterctl:local.GetFile': async (v) => {
    await expectOutcome(
      v.expected,
      async () => {
        const repo = await localFromInput(v.input);
        const bytes = await repo.getFile(String(v.input.version ?? ''), String(v.input.file ?? repo.componentsFile));
        if (bytes === null) throw new Error(`file not found`);
        return new TextDecoder().decode(bytes);
      },
      (content) => expect(content).toBe(v.expected.content ?? v.expected.contents),
    );
  },

  'clusterctl:local.GetVersions': async (v) => {
    const dir = testdir((v.input.files ?? {}) as Record<string, string>);
    const provider = v.input.provider as { name: string; type: string };
    const url = String(v.input.url ?? `<tmp>/${manifestLabel(provider.name, provider.type)}/latest/components.yaml`).replace('<tmp>', dir);
    await expectOutcome(
      v.expected,
      async () => (await createRepository({ ...provider, url })).listVersions(),
      (versions) => {
        if (v.expected.versionsAnyOrder) expect([...versions].sort()).toEqual([...(v.expected.versionsAnyOrder as string[])].sort());
        if (v.expected.versions) expect(versions).toEqual(v.expected.versions);
      },
    );
  },
};

/** A vector's release series: `releaseSeries`, or `metadata.releaseSeries`. */
function releaseSeriesOf(v: Vector): ReleaseSeries[] {
  const direct = field(v.input, ['releaseSeries', 'series']);
  const list = direct ?? rec(need(v, ['releaseSeries', 'metadata'], 'release series')).releaseSeries;
  if (!Array.isArray(list)) expect.fail('release series: input.releaseSeries (or input.metadata.releaseSeries) is not a list');
  return list as ReleaseSeries[];
}

function metadataOf(v: Vector): Metadata {
  return { apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3', kind: 'Metadata', releaseSeries: releaseSeriesOf(v) } as Metadata;
}

/** `expected.releaseSeries` (null = none), or the series itself as `expected` when it has major/minor. */
function expectSeries(v: Vector, got: ReleaseSeries | null): void {
  if ('releaseSeries' in v.expected || 'expectedReleaseSeries' in v.expected || 'series' in v.expected) {
    const want = field(v.expected, ['releaseSeries', 'expectedReleaseSeries', 'series']) ?? null;
    expect(got).toEqual(want);
    return;
  }
  if (typeof v.expected.major === 'number') {
    expect(got).toEqual({ major: v.expected.major, minor: v.expected.minor, contract: v.expected.contract });
    return;
  }
  if (v.expected.found === false || v.expected.nil === true) {
    expect(got).toBeNull();
    return;
  }
  expect.fail('release series: expected has none of expected.releaseSeries, expected.major, expected.found');
}

/** `getLocalOverride`: the override read through the layer (overridesFolder = the vector's `<tmp>` with `files`). */
async function localOverride(v: Vector): Promise<void> {
  const dir = testdir();
  const xdg = join(dir, 'xdg');
  const vars = stringMap(field(v.input, ['vars', 'variables']));
  const givenFolder = vars.overridesFolder ?? (field(v.input, ['overridesFolder']) as string | undefined);
  // A folder of the machine that recorded the vector (the Go test's t.TempDir()) is this test's temporary folder.
  const recorded = givenFolder !== undefined && isAbsolute(givenFolder) && !givenFolder.includes('<') && !existsSync(givenFolder) ? givenFolder : undefined;
  const folder = recorded !== undefined ? dir : givenFolder === undefined || givenFolder === '' ? givenFolder : givenFolder.replace('<tmp>', dir);
  // Files are relative to the overrides folder, or name it (`<tmp>/…`, the recorded folder, `<xdgConfig>/overrides/…`
  // for the default folder, `<home>/.cluster-api/overrides/…` for the legacy one).
  const place = (name: string): string => {
    let p = name.replace('<tmp>', dir).replace('<xdgConfig>', join(xdg, 'cluster-api')).replace('<home>', join(dir, 'home'));
    if (recorded !== undefined && p.startsWith(recorded)) p = dir + p.slice(recorded.length);
    if (isAbsolute(p)) return p;
    if (folder === undefined || folder === '') return join(xdg, 'cluster-api', 'overrides', p);
    return join(isAbsolute(folder) ? folder : dir, p);
  };
  const listed = field(v.input, ['files', 'overrideFiles', 'overrides']);
  const entries: Array<[string, string]> = Array.isArray(listed)
    ? listed.map((f) => rec(f)).map((f) => [String(field(f, ['path', 'name', 'file']) ?? ''), String(field(f, ['content', 'contents', 'data']) ?? '')])
    : Object.entries(stringMap(listed));
  const single = field(v.input, ['fileContents', 'content', 'overrideContent']);
  if (typeof single === 'string') entries.push([String(field(v.input, ['file', 'filePath', 'path']) ?? ''), single]);
  for (const [name, content] of entries) {
    const path = place(name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: xdg, ...stringMap(v.input.env) };
  const given = need(v, ['provider'], 'getLocalOverride');
  // `{name, type}`, or the provider's manifest label (`infrastructure-myinfra`).
  const provider = typeof given === 'string' ? given : { name: String(rec(given).name), type: String(rec(given).type) };
  const version = String(need(v, ['version'], 'getLocalOverride'));
  const file = String(need(v, ['file', 'filePath', 'path'], 'getLocalOverride'));
  const got = await outcome(v, () => readOverride(provider, version, file, folder === undefined ? { env } : { overridesFolder: folder, env }));
  if (got === undefined) return;
  const text = got === null ? null : new TextDecoder().decode(got);
  checkExpected(v, 'getLocalOverride', {
    content: (want) => expect(text).toBe(want),
    found: (want) => expect(text !== null).toBe(want),
    ok: () => undefined,
  });
}

const specHandlers: Record<string, VectorHandler> = {
  'clusterctl:GetReleaseSeriesForContract': (v) => {
    expectSeries(v, releaseSeriesForContract(metadataOf(v), String(need(v, ['contract'], 'GetReleaseSeriesForContract'))));
  },
  'clusterctl:GetReleaseSeriesForVersion': (v) => {
    expectSeries(v, releaseSeriesForVersion(metadataOf(v), String(need(v, ['version'], 'GetReleaseSeriesForVersion'))));
  },
  'clusterctl:getLocalOverride': localOverride,
  // repositoryFactory: which implementation a provider URL selects (github, gitlab, local), or clusterctl's error.
  'clusterctl:repositoryFactory': async (v) => {
    const url = String(need(v, ['url', 'providerURL'], 'repositoryFactory'));
    const got = await outcome(v, () => repositoryKindFor(url).kind);
    if (got === undefined) return;
    checkExpected(v, 'repositoryFactory', {
      kind: (want) => expect(got).toBe(String(want).toLowerCase().replace(/repository$/, '')),
      type: (want) => expect(got).toBe(String(want).toLowerCase().replace(/repository$/, '')),
    });
  },
  // ProviderType.Order: Core 0 … Addon 6, anything else 99.
  'clusterctl:ProviderType.Order': (v) => {
    const type = String(need(v, ['type', 'providerType'], 'ProviderType.Order'));
    checkExpected(v, 'ProviderType.Order', { order: (want) => expect(providerTypeOrder(type)).toBe(want) });
  },
  // Test_providers_Defaults: every built-in provider passes validateProvider; the list is the spec §4.9 table.
  'clusterctl:providers.Defaults': (v) => {
    const problems = builtinProviders.map((p) => providerProblem(p)).filter((p) => p !== null);
    checkExpected(v, 'providers.Defaults', {
      allValid: (want) => expect(problems.length === 0).toBe(want),
      ok: (want) => expect(problems.length === 0).toBe(want),
      problems: (want) => expect(problems).toEqual(want),
      valid: (want) => expect(problems.length === 0).toBe(want),
      count: (want) => expect(builtinProviders).toHaveLength(want as number),
      providers: (want) =>
        expect(builtinProviders.map((p) => ({ name: p.name, type: p.type, url: p.url }))).toEqual(want),
      contains: (want) => expect(builtinProviders.map((p) => ({ name: p.name, type: p.type, url: p.url }))).toContainEqual(want),
      names: (want) => expect(builtinProviders.map((p) => p.name)).toEqual(want),
    });
  },
};
Object.assign(handlers, specHandlers);

export { handlers };
export type { Vector };
