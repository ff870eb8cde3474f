/**
 * Provider repositories: the local layout, metadata.yaml, version choice (`latest`), the built-in catalog and
 * provider names, the repository factory, the overrides layer and the cert-manager upgrade decision.
 */
import { builtinProviders, certManagerShouldUpgrade, checkProviderContract, createRepository, getProvider, HttpClient, latestContractRelease, latestPatchRelease, latestRelease, listProviders, LocalRepository, overridePath, parseMetadata, parseProviderName, type ProviderRepository, readMetadata, releaseSeriesForContract, releaseSeriesForVersion, repositoryKindFor, resolveProviderRelease, validateProvider, withOverrides } from '../src/resolve/index.js';
import { chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ExitCode, InputError, ResolutionError, UsageError } from '../src/errors.js';
import { parseClusterctlConfig } from '../src/config/clusterctl/index.js';
import { manifestLabel } from '../src/capi/index.js';
import { compareWithBuildTags, parseSemantic } from '../src/go/index.js';
import { runCli } from './helpers/cli.js';
import { sharedDir } from './helpers/shared.js';
import { testdir } from './helpers/testdir.js';

function metadata(...series: [number, number, string][]): string {
  return `apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n${series
    .map(([major, minor, contract]) => `- major: ${major}\n  minor: ${minor}\n  contract: ${contract}\n`)
    .join('')}`;
}

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<Error & { exitCode?: number; hint?: string; where?: string }> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

/** A repository with `infrastructure-acme` releases v1.4.2 (v1beta1), v1.5.0 (v1beta2) and v2.0.0 (v1beta3). */
function acmeRepository(): string {
  const meta = metadata([1, 4, 'v1beta1'], [1, 5, 'v1beta2'], [2, 0, 'v1beta3']);
  return testdir({
    'infrastructure-acme/v1.4.2/metadata.yaml': meta,
    'infrastructure-acme/v1.4.2/infrastructure-components.yaml': 'kind: A\n',
    'infrastructure-acme/v1.5.0/metadata.yaml': meta,
    'infrastructure-acme/v1.5.0/infrastructure-components.yaml': 'kind: B\n',
    'infrastructure-acme/v1.5.0/cluster-template.yaml': 'kind: Cluster\n',
    'infrastructure-acme/v2.0.0/metadata.yaml': meta,
    'infrastructure-acme/v2.0.0/infrastructure-components.yaml': 'kind: C\n',
    'infrastructure-acme/not-a-version/x.yaml': 'ignored',
    'infrastructure-acme/notes.txt': 'ignored',
  });
}

const acme = (url: string) => ({ name: 'acme', type: 'InfrastructureProvider', url });

describe('local repositories ({basepath}/{provider-label}/{version}/{file})', () => {
  it('lists the semver folders as versions and reads files', async () => {
    const base = acmeRepository();
    const repo = await createRepository(acme(`${base}/infrastructure-acme/v1.4.2/infrastructure-components.yaml`));
    expect(repo.kind).toBe('local');
    expect(repo.defaultVersion).toBe('v1.4.2');
    expect(repo.componentsFile).toBe('infrastructure-components.yaml');
    expect(await repo.listVersions()).toEqual(['v1.4.2', 'v1.5.0', 'v2.0.0']);
    expect(new TextDecoder().decode((await repo.getFile('v1.5.0', 'infrastructure-components.yaml'))!)).toBe('kind: B\n');
    expect(await repo.getFile('v1.5.0', 'cluster-template-missing.yaml')).toBeNull();
    expect(repo.fileLocation('', 'metadata.yaml')).toBe(join(base, 'infrastructure-acme/v1.4.2/metadata.yaml'));
    expect(await repo.listFiles?.('v1.5.0')).toEqual(['cluster-template.yaml', 'infrastructure-components.yaml', 'metadata.yaml']);
  });

  it('accepts file:// URLs', async () => {
    const base = acmeRepository();
    const repo = await createRepository(acme(`file://${base}/infrastructure-acme/v1.5.0/infrastructure-components.yaml`));
    expect(repo.defaultVersion).toBe('v1.5.0');
  });

  it('resolves latest to the newest release of the v1beta2 contract series', async () => {
    const base = acmeRepository();
    const repo = await createRepository(acme(`${base}/infrastructure-acme/latest/infrastructure-components.yaml`));
    // v2.0.0 is newest, but its metadata maps v1beta2 to the 1.5 series.
    expect(repo.defaultVersion).toBe('v1.5.0');
    // GetFile("latest") is not contract-aware.
    expect(new TextDecoder().decode((await repo.getFile('latest', 'infrastructure-components.yaml'))!)).toBe('kind: C\n');
  });

  it('counts pre-releases and build metadata as versions, and prefers releases for latest', async () => {
    const meta = metadata([2, 0, 'v1beta1']);
    const base = testdir({
      'bootstrap-bar/v2.0.2+exp.sha.5114f85/metadata.yaml': meta,
      'bootstrap-bar/v2.0.3-alpha/metadata.yaml': meta,
      'bootstrap-bar/v2.0.1/metadata.yaml': meta,
    });
    const repo = await createRepository({ name: 'bar', type: 'BootstrapProvider', url: `${base}/bootstrap-bar/latest/b.yaml` });
    expect((await repo.listVersions()).sort()).toEqual(['v2.0.1', 'v2.0.2+exp.sha.5114f85', 'v2.0.3-alpha']);
    expect(repo.defaultVersion).toBe('v2.0.2+exp.sha.5114f85');
  });

  it('keeps the basepath when it is /', () => {
    const repo = new LocalRepository({ name: 'cluster-api', type: 'CoreProvider', url: '/cluster-api/v1.0.0/core-components.yaml' });
    expect(repo.basepath).toBe('/');
  });

  it('rejects a relative path (exit 2)', async () => {
    const err = await rejection(createRepository(acme('repo/infrastructure-acme/v1.0.0/c.yaml')));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(
      'error creating the local filesystem repository client: invalid path: path "repo/infrastructure-acme/v1.0.0/c.yaml" must be an absolute path',
    );
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('requires the provider label folder', async () => {
    const err = await rejection(createRepository(acme('/repo/infrastructure-other/v1.0.0/c.yaml')));
    expect(err.message).toBe(
      'error creating the local filesystem repository client: invalid path: path "/repo/infrastructure-other/v1.0.0/c.yaml" must contain provider "infrastructure-acme" in the format {basepath}/{provider-label}/{version}/{components.yaml}',
    );
    expect(err.hint).toContain('infrastructure-acme');
  });

  it('requires a semver or latest version folder', async () => {
    const err = await rejection(createRepository(acme('/repo/infrastructure-acme/1.0/c.yaml')));
    expect(err.message).toBe(
      'error creating the local filesystem repository client: invalid version: "1.0". Version must obey the syntax and semantics of the "Semantic Versioning" specification (http://semver.org/) and path format {basepath}/{provider-name}/{version}/{components.yaml}',
    );
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('needs at least {label}/{version}/{file}', () => {
    expect(() => new LocalRepository(acme('/c.yaml'))).toThrow(
      'invalid path: path "/c.yaml" must be in the format {basepath}/{provider-name}/{version}/{components.yaml}',
    );
  });

  it('reports a missing repository path with the path and a hint (exit 3)', async () => {
    const base = testdir();
    const err = await rejection(createRepository(acme(`${base}/infrastructure-acme/latest/c.yaml`)));
    expect(err).toBeInstanceOf(ResolutionError);
    expect(err.message).toBe(
      `error creating the local filesystem repository client: failed to get latest version: failed to get repository versions: failed to list release directories: open ${base}/infrastructure-acme: no such file or directory`,
    );
    expect(err.hint).toContain(`${base}/infrastructure-acme exists`);
    expect(err.exitCode).toBe(ExitCode.resolution);
  });

  it('reports an unreadable repository path (exit 3)', async () => {
    const base = acmeRepository();
    const releases = join(base, 'infrastructure-acme');
    chmodSync(releases, 0o000);
    try {
      const repo = new LocalRepository(acme(`${releases}/v1.5.0/c.yaml`));
      const readable = (() => {
        try {
          readdirSync(releases);
          return true;
        } catch {
          return false;
        }
      })();
      if (readable) {
        console.warn('resolve.test: running as root, permission errors cannot be provoked; checked listing only');
        expect(await repo.listVersions()).toContain('v1.5.0');
        return;
      }
      const err = await rejection(repo.listVersions());
      expect(err.message).toBe(`failed to list release directories: open ${releases}: permission denied`);
      expect(err.exitCode).toBe(ExitCode.resolution);
    } finally {
      chmodSync(releases, 0o755);
    }
  });

  it('refuses a directory where a file is expected', async () => {
    const base = acmeRepository();
    const repo = new LocalRepository(acme(`${base}/infrastructure-acme/v1.5.0/c.yaml`));
    const err = await rejection(repo.getFile('v1.5.0', '.'));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`invalid path: file "." is actually a directory "${base}/infrastructure-acme/v1.5.0"`);
  });

  it('fails latest when the newest release lacks metadata.yaml (local quirk: no skipping)', async () => {
    const base = testdir({
      'infrastructure-acme/v1.0.0/metadata.yaml': metadata([1, 0, 'v1beta2']),
      'infrastructure-acme/v2.0.0/infrastructure-components.yaml': 'kind: X\n',
    });
    const err = await rejection(createRepository(acme(`${base}/infrastructure-acme/latest/infrastructure-components.yaml`)));
    expect(err.message).toBe(
      `error creating the local filesystem repository client: failed to get latest version: failed to read file "${base}/infrastructure-acme/v2.0.0/metadata.yaml" from local release v2.0.0`,
    );
    expect(err.exitCode).toBe(ExitCode.resolution);
  });
});

describe('metadata.yaml', () => {
  const repoFor = (text: string | null): ProviderRepository => ({
    kind: 'local',
    url: '/r/cluster-api/v1.0.0/core-components.yaml',
    componentsFile: 'core-components.yaml',
    defaultVersion: 'v1.0.0',
    rootPath: '.',
    listVersions: () => Promise.resolve(['v1.0.0']),
    getFile: () => Promise.resolve(text === null ? null : new TextEncoder().encode(text)),
    fileLocation: (v, f) => `/r/cluster-api/${v}/${f}`,
  });
  const core = { name: 'cluster-api', type: 'CoreProvider' };

  it('decodes release series and defaults apiVersion/kind', async () => {
    const m = await readMetadata(repoFor('releaseSeries:\n- major: 1\n  minor: 2\n  contract: v1beta2\n'), 'v1.0.0', core);
    expect(m).toEqual({
      apiVersion: 'clusterctl.cluster.x-k8s.io/v1alpha3',
      kind: 'Metadata',
      releaseSeries: [{ major: 1, minor: 2, contract: 'v1beta2' }],
    });
  });

  it('reports a missing metadata.yaml (exit 3)', async () => {
    const err = await rejection(readMetadata(repoFor(null), 'v1.0.0', core));
    expect(err.message).toBe(
      'failed to read "metadata.yaml" from the repository for provider "cluster-api": failed to read file "/r/cluster-api/v1.0.0/metadata.yaml" from local release v1.0.0',
    );
    expect(err.exitCode).toBe(ExitCode.resolution);
  });

  it.each([
    [
      'apiVersion: wrong.group/v1\nreleaseSeries: [{major: 1, minor: 0, contract: v1beta1}]\n',
      'invalid provider metadata: unexpected apiVersion "wrong.group/v1" for provider cluster-api (expected "clusterctl.cluster.x-k8s.io/v1alpha3")',
    ],
    [
      'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: WrongKind\nreleaseSeries: [{major: 1, minor: 0, contract: v1beta1}]\n',
      'invalid provider metadata: unexpected kind "WrongKind" for provider cluster-api (expected "Metadata")',
    ],
    [
      'apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries: []\n',
      'invalid provider metadata: releaseSeries is empty in metadata.yaml for provider cluster-api',
    ],
  ])('rejects invalid metadata (exit 2): %s', async (text, message) => {
    const err = await rejection(readMetadata(repoFor(text), 'v1.0.0', core));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(ExitCode.input);
    expect(err.where).toBe('/r/cluster-api/v1.0.0/metadata.yaml');
  });

  it('reports undecodable metadata (exit 2)', async () => {
    for (const text of ['not a valid metadata file!', 'releaseSeries:\n- major: one\n', 'releaseSeries: [unclosed\n']) {
      const err = await rejection(readMetadata(repoFor(text), 'v1.0.0', core));
      expect(err.message).toMatch(/^error decoding "metadata.yaml" for provider "cluster-api": /);
      expect(err.exitCode).toBe(ExitCode.input);
    }
  });

  it('finds release series by version and by contract', () => {
    const m = parseMetadata(metadata([1, 4, 'v1beta1'], [1, 6, 'v1beta2'], [1, 5, 'v1beta2']), 'cluster-api');
    expect(releaseSeriesForVersion(m, 'v1.6.3')).toEqual({ major: 1, minor: 6, contract: 'v1beta2' });
    expect(releaseSeriesForVersion(m, 'v1.7.0')).toBeNull();
    expect(releaseSeriesForContract(m, 'v1beta2')).toEqual({ major: 1, minor: 6, contract: 'v1beta2' });
    expect(releaseSeriesForContract(m, 'v1alpha4')).toBeNull();
  });

  it('checks the version against the release series and the contract (generate provider)', () => {
    const m = parseMetadata(metadata([1, 4, 'v1beta1'], [1, 6, 'v1beta2'], [0, 3, 'v1alpha3']), 'infrastructure-acme');
    expect(checkProviderContract(m, 'v1.4.2', 'acme').contract).toBe('v1beta1');
    expect(() => checkProviderContract(m, 'v1.5.0', 'acme')).toThrow(
      'invalid provider metadata: version v1.5.0 for the provider acme does not match any release series',
    );
    expect(() => checkProviderContract(m, 'v0.3.1', 'acme')).toThrow(
      'current version of clusterctl is only compatible with provider implementing v1beta2, v1beta1 contract versions, detected v1alpha3 for provider acme',
    );
    expect(() => checkProviderContract(m, 'latest', 'acme')).toThrow('failed to parse current version: could not parse "latest" as version');
  });
});

describe('version resolution', () => {
  /** An in-memory GitHub-like repository: `tags`, and the ones that have a release with metadata.yaml. */
  function remote(tags: string[], withMetadata: string[], failOn: string[] = []): ProviderRepository & { probes: string[] } {
    const probes: string[] = [];
    return {
      probes,
      kind: 'github',
      url: 'https://github.com/o/r/releases/latest/c.yaml',
      componentsFile: 'c.yaml',
      defaultVersion: 'latest',
      rootPath: '.',
      listVersions: () => Promise.resolve(tags),
      getFile: (v) => {
        probes.push(v);
        if (failOn.includes(v)) return Promise.reject(new ResolutionError(`boom ${v}`));
        return Promise.resolve(withMetadata.includes(v) ? new TextEncoder().encode(metadata([1, 0, 'v1beta2'])) : null);
      },
      fileLocation: (v, f) => `https://github.com/o/r/releases/download/${v}/${f}`,
    };
  }

  it('prefers releases over pre-releases and skips tags without a release', async () => {
    const repo = remote(['v0.7.0-alpha', 'v0.6.0-alpha', 'v0.5.0-alpha', 'v0.4.2', 'v0.4.3', 'foo'], ['v0.4.2', 'v0.6.0-alpha']);
    expect(await latestRelease(repo)).toBe('v0.4.2');
    expect(repo.probes).toEqual(['v0.4.3', 'v0.4.2']);
  });

  it('probes at most 5 candidates', async () => {
    const repo = remote(['v1.0.0', 'v1.0.1', 'v1.0.2', 'v1.0.3', 'v1.0.4', 'v1.0.5'], ['v1.0.0']);
    const err = await rejection(latestRelease(repo));
    expect(err.message).toBe('failed to find releases tagged with a valid semantic version number');
    expect(err.exitCode).toBe(ExitCode.resolution);
    expect(repo.probes).toHaveLength(5);
  });

  it('aborts on an error other than not-found', async () => {
    const repo = remote(['v1.0.0', 'v1.0.1'], ['v1.0.0'], ['v1.0.1']);
    expect((await rejection(latestRelease(repo))).message).toBe('boom v1.0.1');
  });

  it('filters by major and minor, and normalises to v-prefixed versions', async () => {
    const repo = remote(['1.2.3', 'v1.3.0', 'v2.0.0'], ['v1.2.3', 'v1.3.0', 'v2.0.0']);
    expect(await latestPatchRelease(repo, 1, 2)).toBe('v1.2.3');
    expect((await rejection(latestPatchRelease(repo, 3, 0))).message).toBe(
      'failed to find releases tagged with a valid semantic version number',
    );
  });

  it('goes back to the newest series of the requested contract', async () => {
    const meta = metadata([1, 4, 'v1beta1'], [1, 5, 'v1beta2'], [2, 0, 'v1beta3']);
    const repo: ProviderRepository = {
      ...remote(['v1.4.9', 'v1.5.1', 'v1.5.2', 'v2.0.0'], []),
      getFile: () => Promise.resolve(new TextEncoder().encode(meta)),
    };
    expect(await latestContractRelease(repo, 'v1beta2')).toBe('v1.5.2');
    expect(await latestContractRelease(repo, 'v1beta1')).toBe('v1.4.9');
    expect(await latestContractRelease(repo, 'v1alpha1')).toBe('v2.0.0');
  });
});

describe('semantic versions (k8s ParseSemantic)', () => {
  it('parses strictly with an optional v', () => {
    expect(parseSemantic('v1.2.3-rc.1+build.5')).toMatchObject({ major: 1n, minor: 2n, patch: 3n, preRelease: 'rc.1', buildMetadata: 'build.5' });
    for (const bad of ['1.2', 'v01.2.3', '1.2.3-01', 'latest', 'Foo.Bar', '1.2.3.4']) expect(() => parseSemantic(bad)).toThrow();
  });

  it('compares build metadata like util/version WithBuildTags', () => {
    const c = (a: string, b: string) => compareWithBuildTags(parseSemantic(a), parseSemantic(b));
    expect(c('v1.5.3+build.2', 'v1.5.3+build.3')).toBe(-1);
    expect(c('v1.5.3+h4fd5', 'v1.5.3+h4fd4')).toBe(2);
    expect(c('v1.5.3+1', 'v1.5.3+a')).toBe(-1);
    expect(c('v1.5.3+a', 'v1.5.3+a.1')).toBe(-1);
    expect(c('v1.5.3', 'v1.5.3')).toBe(0);
  });
});

describe('provider catalog and names', () => {
  it('has the 66 built-in providers of this clusterctl commit', () => {
    expect(builtinProviders).toHaveLength(66);
    expect(getProvider('docker', 'InfrastructureProvider').url).toBe(
      'https://github.com/kubernetes-sigs/cluster-api/releases/latest/infrastructure-components-development.yaml',
    );
    expect(builtinProviders.some((p) => p.name === 'hivelocity-hivelocity')).toBe(false);
  });

  it('explains an unknown provider with the closest known names (exit 3)', async () => {
    const err = await rejection(() => getProvider('awz', 'InfrastructureProvider'));
    expect(err.message).toBe(
      'failed to get configuration for the InfrastructureProvider with name awz. Please check the provider name and/or add configuration for new providers using the .clusterctl config file',
    );
    expect(err.hint).toContain('closest known InfrastructureProvider names: aws');
    expect(err.exitCode).toBe(ExitCode.resolution);
  });

  it('says which type a known name has when the type is wrong', async () => {
    const err = await rejection(() => getProvider('cluster-api', 'InfrastructureProvider'));
    expect(err.hint).toContain('"cluster-api" is a CoreProvider (--core, or providers.core in capi.config)');
  });

  it('merges clusterctl.yaml providers: same name+type replaces, others are added, all sorted', () => {
    const list = listProviders([
      { name: 'aws', type: 'InfrastructureProvider', url: '/repo/infrastructure-aws/v2.11.1/infrastructure-components.yaml' },
      { name: 'zzz', type: 'BootstrapProvider', url: 'https://x/y.yaml' },
    ]);
    expect(list).toHaveLength(67);
    expect(list.find((p) => p.name === 'aws')?.url).toBe('/repo/infrastructure-aws/v2.11.1/infrastructure-components.yaml');
    expect(list[0]?.name).toBe('cluster-api');
    expect(list.filter((p) => p.type === 'BootstrapProvider').at(-1)?.name).toBe('zzz');
  });

  it.each([
    [{ name: '', url: 'u', type: 'CoreProvider' }, 'name value cannot be empty'],
    [{ name: 'FOo', url: 'u', type: '' }, 'provider name FOo must be in lower case'],
    [{ name: 'sss', url: 'u', type: 'CoreProvider' }, 'name cluster-api must be used with the CoreProvider type (name: sss, type: CoreProvider)'],
    [{ name: 'a_b', url: 'u', type: 'AddonProvider' }, 'invalid provider name: a lowercase RFC 1123 subdomain must consist of'],
    [{ name: 'foo', url: '', type: 'AddonProvider' }, 'provider URL value cannot be empty'],
    [{ name: 'foo', url: '%gh&%ij', type: 'bar' }, 'error parsing provider URL'],
    [{ name: 'foo', url: 'u', type: 'bar' }, 'invalid provider type. Allowed values are [CoreProvider, BootstrapProvider, InfrastructureProvider, ControlPlaneProvider, IPAMProvider, RuntimeExtensionProvider, AddonProvider]'],
  ])('validates user providers in clusterctl order: %o', (p, message) => {
    expect(() => validateProvider(p)).toThrow(message);
    expect(() => listProviders([p])).toThrow(
      `error validating configuration for the ${p.type} with name ${p.name}. Please fix the providers value in clusterctl configuration file: ${message}`,
    );
  });

  it('parses name[:version], lower-casing the name only', () => {
    expect(parseProviderName('AWS:v2.10.3-RC')).toEqual({ name: 'aws', version: 'v2.10.3-RC' });
    expect(parseProviderName('docker')).toEqual({ name: 'docker', version: '' });
  });

  it.each([
    ['a:b:c', 'invalid provider name "a:b:c". Provider name should be in the form name[:version]'],
    [':v1.0.0', 'invalid provider name ":v1.0.0". Provider name should be in the form name[:version] and name cannot be empty'],
    ['aws:', 'invalid provider name "aws:". Provider name should be in the form name[:version] and version cannot be empty'],
    [
      'my_provider',
      `invalid provider name "my_provider". Provider name should be in the form name[:version] and the name should be valid: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ],
    ['a.b', 'invalid provider name "a.b". Provider name should be in the form name[:version] and the name should be valid: must not contain dots'],
  ])('rejects the provider name %s (exit 2)', (input, message) => {
    let err: unknown;
    try {
      parseProviderName(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(message);
    expect((err as UsageError).exitCode).toBe(ExitCode.input);
  });
});

describe('repository factory', () => {
  it('dispatches on scheme and host', () => {
    expect(repositoryKindFor('https://github.com/o/r/releases/latest/c.yaml').kind).toBe('github');
    expect(repositoryKindFor('https://gitlab.example.org/api/v4/projects/g%2Fp/packages/generic/p/v1/c.yaml').kind).toBe('gitlab');
    expect(repositoryKindFor('/abs/x/v1.0.0/c.yaml').kind).toBe('local');
    expect(repositoryKindFor('file:///abs/x/v1.0.0/c.yaml').kind).toBe('local');
  });

  it.each([
    ['https://example.com/c.yaml', 'invalid provider url. Only GitHub and GitLab are supported for "https" schema'],
    ['http://github.com/o/r/releases/latest/c.yaml', 'invalid provider url. there are no provider implementation for "http" schema'],
    ['%gh&%ij', 'failed to parse repository url "%gh&%ij"'],
  ])('rejects %s (exit 2)', async (url, message) => {
    const err = await rejection(createRepository({ name: 'x', type: 'InfrastructureProvider', url }));
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('builds GitHub repositories (helper D); offline with a cold cache it names what is missing', async () => {
    const http = new HttpClient({ offline: true });
    const err = await rejection(createRepository(getProvider('aws', 'InfrastructureProvider'), { http, env: {} }));
    expect(err.message).toMatch(/^error creating the GitHub repository client: failed to get latest release: .*offline: release list of kubernetes-sigs\/cluster-api-provider-aws is not in the cache/);
    expect(err.hint).toContain('capiform lock');
    expect(err.exitCode).toBe(ExitCode.resolution);
    expect(http.requestCount()).toBe(0);
  });
});

describe('resolving a provider release (generate provider steps 1-6)', () => {
  it('finds the provider through clusterctl.yaml, resolves latest and checks the contract', async () => {
    const base = acmeRepository();
    const cfg = parseClusterctlConfig(
      `providers:\n- name: acme\n  type: InfrastructureProvider\n  url: \${REPO}/infrastructure-acme/latest/infrastructure-components.yaml\n`,
      { env: { REPO: base, HOME: base } },
    );
    const r = await resolveProviderRelease('ACME', 'InfrastructureProvider', cfg);
    expect(r.version).toBe('v1.5.0');
    expect(r.label).toBe('infrastructure-acme');
    expect(r.releaseSeries.contract).toBe('v1beta2');
    const pinned = await resolveProviderRelease('acme:v1.4.2', 'InfrastructureProvider', cfg);
    expect(pinned.releaseSeries.contract).toBe('v1beta1');
    const err = await rejection(resolveProviderRelease('acme:v2.0.0', 'InfrastructureProvider', cfg));
    expect(err.message).toBe(
      'current version of clusterctl is only compatible with provider implementing v1beta2, v1beta1 contract versions, detected v1beta3 for provider acme',
    );
    expect(err.exitCode).toBe(ExitCode.resolution);
  });
});

describe('overrides layer', () => {
  it('computes <base>/<label>/<version>/<file> with XDG, legacy HOME fallback and overridesFolder', () => {
    const home = testdir({ '.cluster-api/overrides/': null });
    const p = { name: 'myinfra', type: 'InfrastructureProvider' };
    expect(overridePath(p, 'v1.0.1', 'c.yaml', { env: { HOME: home } })).toBe(join(home, '.cluster-api/overrides/infrastructure-myinfra/v1.0.1/c.yaml'));
    const xdgHome = testdir();
    expect(overridePath(p, 'v1.0.1', 'c.yaml', { env: { HOME: xdgHome, XDG_CONFIG_HOME: '/x' } })).toBe('/x/cluster-api/overrides/infrastructure-myinfra/v1.0.1/c.yaml');
    expect(overridePath(p, 'v1', 'c.yaml', { overridesFolder: '${R}/o', env: { R: '/r' } })).toBe('/r/o/infrastructure-myinfra/v1/c.yaml');
  });

  it('reads an override before the repository, but keeps the repository versions', async () => {
    const base = acmeRepository();
    const overrides = testdir({ 'infrastructure-acme/v1.5.0/infrastructure-components.yaml': 'kind: Override\n' });
    const inner = await createRepository(acme(`${base}/infrastructure-acme/v1.5.0/infrastructure-components.yaml`));
    const repo = withOverrides(inner, acme(''), { overridesFolder: overrides, env: {} });
    expect(new TextDecoder().decode((await repo.getFile('', 'infrastructure-components.yaml'))!)).toBe('kind: Override\n');
    expect(new TextDecoder().decode((await repo.getFile('v1.4.2', 'infrastructure-components.yaml'))!)).toBe('kind: A\n');
    expect(repo.fileLocation('v1.5.0', 'infrastructure-components.yaml')).toBe(join(overrides, 'infrastructure-acme/v1.5.0/infrastructure-components.yaml'));
    expect(await repo.listVersions()).toEqual(['v1.4.2', 'v1.5.0', 'v2.0.0']);
  });
});

describe('cert-manager upgrade decision', () => {
  const at = (version?: string, extra: Record<string, unknown> = {}) => ({
    kind: 'Deployment',
    metadata: { name: 'cert-manager', ...(version ? { annotations: { 'cert-manager.clusterctl.cluster.x-k8s.io/version': version } } : {}) },
    spec: { template: { spec: { containers: [{ image: 'quay.io/jetstack/cert-manager-controller:v1.21.1' }] } } },
    ...extra,
  });

  it('upgrades unannotated (v0.11.0) and older installs, not newer ones', () => {
    expect(certManagerShouldUpgrade('v1.21.1', [at()], [at('v1.21.1')])).toEqual({ shouldUpgrade: true, fromVersion: 'v0.11.0' });
    expect(certManagerShouldUpgrade('v1.21.1', [at('v1.19.4')], [at('v1.21.1')])).toEqual({ shouldUpgrade: true, fromVersion: 'v1.19.4' });
    expect(certManagerShouldUpgrade('v1.21.1', [at('v1.22.0')], [at('v1.21.1')])).toEqual({ shouldUpgrade: false, fromVersion: 'v1.22.0' });
  });

  it('at the same version, upgrades only when objects or images differ', () => {
    expect(certManagerShouldUpgrade('v1.21.1', [at('v1.21.1')], [at('v1.21.1')]).shouldUpgrade).toBe(false);
    expect(certManagerShouldUpgrade('v1.21.1', [at('v1.21.1')], [at('v1.21.1'), at('v1.21.1')]).shouldUpgrade).toBe(true);
    const mirrored = at('v1.21.1', { spec: { template: { spec: { containers: [{ image: 'mirror.io/cert-manager-controller:v1.21.1' }] } } } });
    expect(certManagerShouldUpgrade('v1.21.1', [at('v1.21.1')], [mirrored]).shouldUpgrade).toBe(true);
  });

  it('ignores Endpoints and EndpointSlices', () => {
    expect(certManagerShouldUpgrade('v1.21.1', [{ kind: 'EndpointSlice' }], [])).toEqual({ shouldUpgrade: false, fromVersion: '' });
  });
});

describe('capiform config repositories', () => {
  it('prints the provider list like clusterctl, with clusterctl.yaml overrides', async () => {
    const dir = testdir({ 'c.yaml': 'providers:\n- name: aws\n  url: /r/infrastructure-aws/v2.11.1/infrastructure-components.yaml\n  type: InfrastructureProvider\n' });
    const r = await runCli(['config', 'repositories', '--config', 'c.yaml'], { cwd: dir, env: { HOME: dir } });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('NAME                       TYPE                       URL                                                                                               FILE');
    expect(lines.find((l) => l.startsWith('aws '))).toMatch(/^aws {24}InfrastructureProvider {5}\/r\/infrastructure-aws\/v2\.11\.1\/ +infrastructure-components\.yaml$/);
    expect(lines).toHaveLength(68);
  });

  it('prints YAML with -o yaml', async () => {
    const dir = testdir();
    const r = await runCli(['config', 'repositories', '-o', 'yaml'], { cwd: dir, env: { HOME: dir } });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(
      '- File: core-components.yaml\n  Name: cluster-api\n  ProviderType: CoreProvider\n  URL: https://github.com/kubernetes-sigs/cluster-api/releases/latest/\n- File: bootstrap-components.yaml\n',
    )).toBe(true);
  });

  it('rejects an unknown output format (exit 2)', async () => {
    const r = await runCli(['config', 'repositories', '-o', 'json'], { env: { HOME: testdir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: invalid output format "json", valid values: [text yaml]');
  });

  it('rejects an invalid providers entry with clusterctl\'s message (exit 2)', async () => {
    const dir = testdir({ 'c.yaml': 'providers:\n- name: Bad\n  url: /x\n  type: CoreProvider\n' });
    const r = await runCli(['config', 'repositories', '--config', 'c.yaml'], { cwd: dir, env: { HOME: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Error: error validating configuration for the CoreProvider with name Bad. Please fix the providers value in clusterctl configuration file: provider name Bad must be in lower case',
    );
  });
});

const shared = sharedDir('corpus');
describe.skipIf(!shared.present)(`integration: every provider and version of the shared corpus resolves${shared.skipped}`, () => {
  const corpus = join(shared.path, 'repository');
  it('resolves latest per label and the contract of every version', async () => {
    const types: Record<string, [string, string]> = {
      'cluster-api': ['cluster-api', 'CoreProvider'],
      'bootstrap-': ['', 'BootstrapProvider'],
      'control-plane-': ['', 'ControlPlaneProvider'],
      'infrastructure-': ['', 'InfrastructureProvider'],
      'ipam-': ['', 'IPAMProvider'],
    };
    let checked = 0;
    for (const label of readdirSync(corpus).sort()) {
      const entry = Object.entries(types).find(([prefix]) => label.startsWith(prefix));
      if (!entry) continue; // cert-manager is not a clusterctl provider (no metadata.yaml)
      const [prefix, [fixedName, type]] = entry;
      const name = fixedName || label.slice(prefix.length);
      expect(manifestLabel(name, type)).toBe(label);
      const versions = readdirSync(join(corpus, label)).sort();
      const files = readdirSync(join(corpus, label, versions[0]!));
      const components = files.find((f) => /-components(-development)?\.yaml$/.test(f))!;
      const repo = await createRepository({ name, type, url: join(corpus, label, 'latest', components) });
      expect((await repo.listVersions()).sort()).toEqual(versions);
      expect(versions).toContain(repo.defaultVersion);
      for (const version of versions) {
        const m = await readMetadata(repo, version, { name, type });
        const series = checkProviderContract(m, version, name);
        expect(['v1beta1', 'v1beta2']).toContain(series.contract);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
