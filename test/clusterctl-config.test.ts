/**
 * clusterctl's configuration: where the file is found, how variables are looked up (viper semantics), and the
 * structured keys (providers, images, cert-manager, overridesFolder).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  certManagerWaitTimeout,
  formatGoDuration,
  imageMetaFor,
  loadClusterctlConfig,
  parseClusterctlConfig,
  parseGoDuration,
} from '../src/config/clusterctl/index.js';
import { ConfigError, ExitCode } from '../src/errors.js';
import { testdir } from './helpers/testdir.js';

function config(yaml: string, env: Record<string, string> = {}) {
  return parseClusterctlConfig(yaml, { env });
}

function thrown(fn: () => unknown): Error & { exitCode?: number; where?: string; hint?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('variable lookup (viper semantics)', () => {
  it('prefers values clusterctl sets, then the environment, then the file', () => {
    const cfg = config('CLUSTER_NAME: from-file\nAWS_REGION: file-region\nONLY_FILE: x\n', {
      CLUSTER_NAME: 'from-env',
      AWS_REGION: 'env-region',
    });
    cfg.set('CLUSTER_NAME', 'from-flag');
    expect(cfg.get('CLUSTER_NAME')).toBe('from-flag');
    expect(cfg.get('AWS_REGION')).toBe('env-region');
    expect(cfg.get('ONLY_FILE')).toBe('x');
    expect(cfg.get('NOT_SET')).toBeUndefined();
  });

  it('reads the environment under the upper-cased name with - replaced by _', () => {
    const cfg = config('', { AWS_REGION: 'eu-west-1', MY_VAR: 'v', aws_lower: 'never read' });
    expect(cfg.get('aws_region')).toBe('eu-west-1');
    expect(cfg.get('my-var')).toBe('v');
    expect(cfg.get('aws_lower')).toBeUndefined();
  });

  it('counts an empty environment variable as set', () => {
    const cfg = config('EMPTY: from-file\n', { EMPTY: '' });
    expect(cfg.get('EMPTY')).toBe('');
  });

  it('matches file keys case-insensitively and follows dotted paths', () => {
    const cfg = config('Aws_Region: x\nnested:\n  Key: deep\n  list: [a, b]\ndotted.key: literal\n');
    expect(cfg.get('AWS_REGION')).toBe('x');
    expect(cfg.get('nested.key')).toBe('deep');
    expect(cfg.get('NESTED.LIST.1')).toBe('b');
    expect(cfg.get('dotted.key')).toBe('literal');
  });

  it('turns numbers and booleans into text, maps and lists into "", and null into unset', () => {
    const cfg = config(
      'COUNT: 3\nHEX: 0x1F\nFLOAT: 1.50\nEXP: 1e3\nBOOL: true\nYES: yes\nMAP: {a: 1}\nLIST: [1]\nNULL_VALUE: null\nTILDE: ~\nQUOTED: "007"\nOCTAL: 0o17\n',
    );
    expect(cfg.get('COUNT')).toBe('3');
    expect(cfg.get('HEX')).toBe('31');
    expect(cfg.get('FLOAT')).toBe('1.5');
    expect(cfg.get('EXP')).toBe('1000');
    expect(cfg.get('BOOL')).toBe('true');
    expect(cfg.get('YES')).toBe('yes'); // YAML 1.2: not a boolean
    expect(cfg.get('MAP')).toBe('');
    expect(cfg.get('LIST')).toBe('');
    expect(cfg.get('NULL_VALUE')).toBeUndefined();
    expect(cfg.get('TILDE')).toBeUndefined();
    expect(cfg.get('QUOTED')).toBe('007');
    expect(cfg.get('OCTAL')).toBe('15');
  });

  it('makes reserved keys visible as variables too', () => {
    const cfg = config('providers:\n- name: x\n  url: /a/b/c\n  type: CoreProvider\n');
    expect(cfg.get('providers')).toBe('');
  });
});

describe('config file location', () => {
  it('reads $XDG_CONFIG_HOME/cluster-api/clusterctl.yaml before $HOME/.cluster-api/', () => {
    const home = testdir({
      'xdg/cluster-api/clusterctl.yaml': 'WHERE: xdg\n',
      '.cluster-api/clusterctl.yaml': 'WHERE: home\n',
    });
    const cfg = loadClusterctlConfig({ env: { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') }, cwd: home });
    expect(cfg.get('WHERE')).toBe('xdg');
    expect(cfg.path).toBe(join(home, 'xdg/cluster-api/clusterctl.yaml'));
  });

  it('falls back to $HOME/.cluster-api/ and prefers .json over .yaml there (viper order)', () => {
    const home = testdir({
      '.cluster-api/clusterctl.yaml': 'WHERE: yaml\n',
      '.cluster-api/clusterctl.json': '{"WHERE": "json"}',
    });
    const cfg = loadClusterctlConfig({ env: { HOME: home }, cwd: home });
    expect(cfg.get('WHERE')).toBe('json');
  });

  it('is fine without any file', () => {
    const home = testdir();
    const cfg = loadClusterctlConfig({ env: { HOME: home, X: 'y' }, cwd: home });
    expect(cfg.path).toBeNull();
    expect(cfg.get('X')).toBe('y');
  });

  it('resolves --config relative to the working directory', () => {
    const dir = testdir({ 'conf/my.yaml': 'A: b\n' });
    expect(loadClusterctlConfig({ path: 'conf/my.yaml', env: {}, cwd: dir }).get('A')).toBe('b');
  });

  it('rejects a missing --config file (exit 2)', () => {
    const dir = testdir();
    const err = thrown(() => loadClusterctlConfig({ path: 'nope.yaml', env: {}, cwd: dir }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe('failed to initialize the configuration reader: stat nope.yaml: no such file or directory');
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('rejects a --config URL while offline, with a hint', () => {
    const err = thrown(() => loadClusterctlConfig({ path: 'https://example.com/c.yaml', env: {}, cwd: '/' }));
    expect(err.message).toBe(
      'failed to initialize the configuration reader: reading the clusterctl configuration from a URL is not supported: https://example.com/c.yaml',
    );
    expect(err.hint).toContain('download the file');
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('rejects a file without a known extension like viper', () => {
    const dir = testdir({ clusterctl: 'A: b\n' });
    const err = thrown(() => loadClusterctlConfig({ path: 'clusterctl', env: {}, cwd: dir }));
    expect(err.message).toBe('failed to initialize the configuration reader: Unsupported Config Type ""');
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('reports malformed YAML with the file and line (exit 2)', () => {
    const dir = testdir({ 'bad.yaml': 'A: b\nC: [unclosed\n' });
    const err = thrown(() => loadClusterctlConfig({ path: 'bad.yaml', env: {}, cwd: dir }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/^failed to initialize the configuration reader: While parsing config: yaml: line 3: /);
    expect(err.where).toMatch(/bad\.yaml:\d+$/);
  });

  it('rejects a config whose top level is not a mapping', () => {
    const err = thrown(() => config('- a\n- b\n'));
    expect(err.message).toContain('cannot unmarshal !!seq into map[string]interface {}');
  });
});

describe('providers:', () => {
  it('evaluates ${VAR} in URLs with the OS environment only', () => {
    const cfg = config('REPO: from-file\nproviders:\n- name: my-infra\n  url: ${REPO}/infrastructure-my-infra/v1.0.0/c.yaml\n  type: InfrastructureProvider\n', {
      REPO: '/srv/repo',
    });
    expect(cfg.providers).toEqual([
      expect.objectContaining({ name: 'my-infra', url: '/srv/repo/infrastructure-my-infra/v1.0.0/c.yaml', type: 'InfrastructureProvider' }),
    ]);
  });

  it('rejects a providers value that is not a list', () => {
    const err = thrown(() => config('providers: oops\n').providers);
    expect(err.message).toMatch(/^failed to unmarshal providers from the clusterctl configuration file/);
    expect(err.exitCode).toBe(ExitCode.input);
  });
});

describe('images:', () => {
  it('keeps all | <label> | <label>/<image> keys (lower-cased) with repository, name and tag', () => {
    const cfg = config(
      'images:\n  all: {repository: myorg.io/local-repo}\n  cert-manager: {tag: v1.5.3}\n  cluster-api/Cluster-API-Controller: {name: mirrored}\n',
    );
    expect(cfg.images).toEqual({
      all: { repository: 'myorg.io/local-repo' },
      'cert-manager': { tag: 'v1.5.3' },
      'cluster-api/cluster-api-controller': { name: 'mirrored' },
    });
    expect(imageMetaFor(cfg.images, 'cluster-api', 'cluster-api-controller')).toEqual({
      repository: 'myorg.io/local-repo',
      name: 'mirrored',
    });
    expect(imageMetaFor(cfg.images, 'cert-manager', 'cert-manager-controller')).toEqual({
      repository: 'myorg.io/local-repo',
      tag: 'v1.5.3',
    });
    expect(imageMetaFor({}, 'cluster-api', 'x')).toBeNull();
  });

  it('rejects an image override that is not a mapping', () => {
    const err = thrown(() => config('images:\n  all: myorg.io\n').images);
    expect(err.message).toMatch(/^failed to unmarshal image override configurations/);
  });
});

describe('cert-manager:', () => {
  it('defaults to v1.21.1 from GitHub, 10m, not externally provisioned', () => {
    expect(config('').certManager).toEqual({
      url: 'https://github.com/cert-manager/cert-manager/releases/v1.21.1/cert-manager.yaml',
      version: 'v1.21.1',
      timeout: '10m0s',
      externallyProvisioned: false,
    });
  });

  it('takes url (envsubst with OS env), version, timeout and externallyProvisioned (strconv.ParseBool)', () => {
    const cm = config('cert-manager:\n  url: ${MIRROR}/cm.yaml\n  version: v1.19.4\n  timeout: 5m\n  externallyProvisioned: "T"\n', {
      MIRROR: '/mirror',
    }).certManager;
    expect(cm).toEqual({ url: '/mirror/cm.yaml', version: 'v1.19.4', timeout: '5m', externallyProvisioned: true });
  });

  it('rejects an externallyProvisioned that is not a boolean', () => {
    const err = thrown(() => config('cert-manager:\n  externallyProvisioned: maybe\n').certManager);
    expect(err.message).toContain("cannot parse 'externallyProvisioned' as bool");
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('waits the configured Go duration, or 10m when it does not parse', () => {
    expect(formatGoDuration(certManagerWaitTimeout({ timeout: '90s' }))).toBe('1m30s');
    expect(formatGoDuration(certManagerWaitTimeout({ timeout: 'foo' }))).toBe('10m0s');
    expect(parseGoDuration('1h2m3.5s')).toBe(3_723_500_000_000n);
    expect(parseGoDuration('5')).toBeNull();
    expect(formatGoDuration(1_500_000n)).toBe('1.5ms');
  });
});

describe('overridesFolder', () => {
  it('is evaluated with the OS environment and ignored when blank', () => {
    expect(config('overridesFolder: ${BASE}/overrides\n', { BASE: '/data' }).overridesFolder).toBe('/data/overrides');
    expect(config('overridesFolder: "  "\n').overridesFolder).toBeUndefined();
    expect(config('', { OVERRIDESFOLDER: '/env' }).overridesFolder).toBe('/env');
  });
});

describe('credentials', () => {
  it('reads github-token and gitlab-access-token from the file or the environment', () => {
    expect(config('github-token: from-file\n').githubToken).toBe('from-file');
    expect(config('github-token: from-file\n', { GITHUB_TOKEN: 'from-env' }).githubToken).toBe('from-env');
    expect(config('', { GITLAB_ACCESS_TOKEN: 'gl' }).gitlabAccessToken).toBe('gl');
    expect(config('').githubToken).toBeUndefined();
  });
});

describe('URL expansion errors', () => {
  it('reports a bad ${...} in a provider URL like clusterctl (exit 2)', () => {
    const err = thrown(() => config('providers:\n- name: x\n  url: "${A-b}/x"\n  type: CoreProvider\n').providers);
    expect(err.message).toBe('unable to evaluate url: "${A-b}/x": missing closing brace');
    expect(err.exitCode).toBe(ExitCode.input);
  });
});
