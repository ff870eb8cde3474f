/**
 * Every provider version of the shared corpus through the real CLI: each components file with `generate provider`,
 * each `cluster-template*.yaml` flavor of each infrastructure provider with `generate cluster`, checked against
 * clusterctl's invariants (spec §2, §3). The corpus is `$CAPIFORM_CORPUS_DIR` or `../shared/corpus`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { sharedDir } from '../helpers/shared.js';
import { tempDir } from '../helpers/testdir.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const shared = sharedDir('corpus');
const corpus = shared.path;
const repository = join(corpus, 'repository');

interface IndexEntry {
  label: string;
  type: string;
  provider: string;
  version: string;
  components: string[];
  templates: string[];
  clusterClasses: string[];
}
type Stats = Record<string, { variables: Record<string, string | null> }>;
type Obj = Record<string, unknown>;

const clusterScoped = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'PodSecurityPolicy', 'CertificateSigningRequest', 'ClusterRoleBinding',
  'ClusterRole', 'VolumeAttachment', 'StorageClass', 'CSIDriver', 'CSINode', 'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration', 'CustomResourceDefinition', 'PriorityClass', 'RuntimeClass',
]);

const rec = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function parseOutput(text: string): Obj[] {
  return parseAllDocuments(text, { version: '1.1' })
    .map((d) => {
      expect(d.errors, d.errors.map((e) => e.message).join('\n')).toEqual([]);
      return d.toJS({ maxAliasCount: -1 }) as unknown;
    })
    .filter((o): o is Obj => o !== null && typeof o === 'object');
}

function count(text: string, re: RegExp): number {
  return text.match(re)?.length ?? 0;
}

/** A value for a required variable that keeps YAML valid wherever the corpus uses it. */
function valueFor(name: string): string {
  if (name === 'KUBERNETES_VERSION') return 'v1.33.1';
  if (/_B64/.test(name)) return 'dmFsdWU=';
  if (/PORT$/.test(name)) return '6443';
  if (/COUNT$|REPLICAS$/.test(name)) return '1';
  return `value-${name.toLowerCase().replace(/_/g, '-')}`;
}

/** Checks the components invariants of spec §2.3–§2.6 on a rendered provider. */
function checkComponents(objs: Obj[], ns: string, label: string): void {
  expect(objs[0]?.kind).toBe('Namespace');
  expect(rec(objs[0]?.metadata).name).toBe(ns);
  expect(objs.filter((o) => o.kind === 'Namespace')).toHaveLength(1);
  for (const o of objs) {
    const meta = rec(o.metadata);
    const labels = rec(meta.labels);
    expect(labels['clusterctl.cluster.x-k8s.io'], `${String(o.kind)} ${String(meta.name)}`).toBe('');
    expect(labels['cluster.x-k8s.io/provider']).toBe(label);
    const kind = String(o.kind);
    if (!clusterScoped.has(kind)) expect(meta.namespace, `${kind} ${String(meta.name)}`).toBe(ns);
    if (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') {
      for (const s of list(o.subjects)) if (rec(s).namespace !== undefined) expect(rec(s).namespace).toBe(ns);
    }
    if (kind === 'MutatingWebhookConfiguration' || kind === 'ValidatingWebhookConfiguration') {
      for (const w of list(o.webhooks)) {
        const service = rec(rec(w).clientConfig).service;
        if (service !== undefined) expect(rec(service).namespace).toBe(ns);
      }
    }
    if (kind === 'CustomResourceDefinition') {
      const service = rec(rec(rec(rec(o.spec).conversion).webhook).clientConfig).service;
      if (service !== undefined) expect(rec(service).namespace).toBe(ns);
    }
    const inject = rec(meta.annotations)['cert-manager.io/inject-ca-from'];
    if (typeof inject === 'string') expect(inject.startsWith(`${ns}/`)).toBe(true);
  }
}

if (!shared.present) {
  // The tests are made from the corpus index, so without it one skipped entry says why.
  it.skip(`corpus: every provider version through the CLI${shared.skipped}`, () => {});
} else {
  const index = JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as IndexEntry[];
  const stats = JSON.parse(readFileSync(join(corpus, 'stats.json'), 'utf8')) as Stats;
  const providers = index.filter((e) => e.type !== '' && e.label !== 'cert-manager' && e.components.length > 0);
  const tmp = tempDir('capiform-corpus-');

  /** A clusterctl.yaml whose `providers:` point at the corpus; `extra` adds variables. */
  function config(name: string, entries: { name: string; type: string; url: string }[], extra: Obj = {}): string {
    const p = join(tmp, `${name}.yaml`);
    writeFileSync(p, stringify({ providers: entries, ...extra }));
    return p;
  }
  const flagOf: Record<string, string> = {
    CoreProvider: '--core',
    BootstrapProvider: '--bootstrap',
    ControlPlaneProvider: '--control-plane',
    InfrastructureProvider: '--infrastructure',
    IPAMProvider: '--ipam',
  };
  const requiredEnv = (files: string[]): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tmp };
    for (const f of files) {
      for (const [k, d] of Object.entries(stats[f]?.variables ?? {})) if (d === null) env[k] = valueFor(k);
    }
    return env;
  };

  describe('corpus: generate provider renders every components file', () => {
    for (const e of providers) {
      for (const file of e.components) {
        it(`${e.label}/${e.version}/${file}`, async () => {
          const cfg = config(`${e.label}-${e.version}-${file}`, [
            { name: e.provider, type: e.type, url: join(repository, e.label, e.version, file) },
          ]);
          const ns = 'capiform-test';
          const source = readFileSync(join(repository, e.label, e.version, file), 'utf8');
          const r = await runCli(
            ['generate', 'provider', flagOf[e.type] ?? '', `${e.provider}:${e.version}`, '-n', ns, '--config', cfg],
            { env: requiredEnv([`${e.label}/${e.version}/${file}`]), cwd: tmp },
          );
          expect(r.stderr).toBe('');
          expect(r.code).toBe(0);
          expect(r.stdout.endsWith('\n') && !r.stdout.endsWith('\n\n')).toBe(true);
          expect(count(r.stdout, /\$\{/g)).toBeLessThanOrEqual(count(source, /\$\$\{/g));
          checkComponents(parseOutput(r.stdout), ns, e.label);
        });
      }
    }
  });

  describe('corpus: generate cluster renders every flavor of every infrastructure provider', () => {
    for (const e of providers.filter((p) => p.type === 'InfrastructureProvider')) {
      const varsFile = join(corpus, 'variables', e.label, e.version, 'example_variables.yaml');
      for (const t of e.templates) {
        const flavor = /^cluster-template(?:-(.+))?\.yaml$/.exec(t)?.[1];
        it(`${e.label}/${e.version}/${t}`, async () => {
          let extra: Obj = {};
          if (existsSync(varsFile)) {
            extra = parseAllDocuments(readFileSync(varsFile, 'utf8'))[0]?.toJS() as Obj;
            // The example file names the endpoint differently from the template (corpus README, deviation 4).
            extra = { ...extra, CLUSTER_APIENDPOINT_HOST: extra.API_ENDPOINT_HOST, CLUSTER_APIENDPOINT_PORT: extra.API_ENDPOINT_PORT };
          }
          const cfg = config(
            `${e.label}-${e.version}-${t}`,
            [{ name: e.provider, type: e.type, url: join(repository, e.label, e.version, e.components[0] ?? '') }],
            extra,
          );
          const ns = 'capiform-cluster';
          const files = [`${e.label}/${e.version}/${t}`, ...e.clusterClasses.map((c) => `${e.label}/${e.version}/${c}`)];
          const env = requiredEnv(files);
          for (const k of Object.keys(extra)) delete env[k];
          // Templates that name their class with ${CLUSTER_CLASS_NAME}: pick the shipped clusterclass-<name>.yaml whose
          // distinctive words all appear in the flavor (CAPV: topology -> template, topology-supervisor -> template-supervisor).
          const shipped = e.clusterClasses.map((c) => c.replace(/^clusterclass-|\.yaml$/g, ''));
          const fits = shipped.filter((c) => c.split('-').every((w) => w === 'template' || (flavor ?? '').includes(w)));
          if (env.CLUSTER_CLASS_NAME !== undefined && fits.length > 0) {
            env.CLUSTER_CLASS_NAME = fits.sort((a, b) => b.length - a.length)[0];
          }
          const args = ['generate', 'cluster', 'my-cluster', '--infrastructure', `${e.provider}:${e.version}`, '-n', ns];
          if (flavor) args.push('--flavor', flavor);
          const r = await runCli([...args, '--kubernetes-version', 'v1.33.1', '--config', cfg], { env, cwd: tmp });
          const missingClass = /^Error: failed to get the cluster class template for "[^"]*\/([^"]*)"/.exec(r.stderr);
          if (missingClass) {
            // clusterctl fails the same way without a management cluster: the release ships no clusterclass-<name>.yaml.
            expect(e.clusterClasses).not.toContain(`clusterclass-${missingClass[1]}.yaml`);
            expect(r.code).toBe(3);
            expect(r.stderr).toContain('fix: clusterctl needs ClusterClass');
            return;
          }
          expect(r.stderr).toBe('');
          expect(r.code).toBe(0);
          const sources = files.map((f) => readFileSync(join(repository, f), 'utf8')).join('\n');
          expect(count(r.stdout, /\$\{/g)).toBeLessThanOrEqual(count(sources, /\$\$\{/g));
          const objs = parseOutput(r.stdout);
          expect(objs.length).toBeGreaterThan(0);
          for (const o of objs) {
            if (!clusterScoped.has(String(o.kind))) expect(rec(o.metadata).namespace).toBe(ns);
          }
          // Topology clusters whose class ships as clusterclass-<name>.yaml get it merged in front.
          const classes = objs.filter((o) => o.kind === 'ClusterClass').map((o) => rec(o.metadata).name);
          for (const c of objs.filter((o) => o.kind === 'Cluster')) {
            const topo = rec(rec(c.spec).topology);
            const cls = rec(topo.classRef).name ?? topo.class;
            if (typeof cls === 'string' && e.clusterClasses.includes(`clusterclass-${cls}.yaml`)) {
              expect(classes).toContain(cls);
              expect(objs.findIndex((o) => o.kind === 'ClusterClass')).toBeLessThan(objs.indexOf(c));
            }
          }
        });
      }
    }
  });

  describe('corpus: the installed bin', () => {
    const built = existsSync(join(repoRoot, 'dist/cli/main.js'));
    it.skipIf(!built)(`spawns bin/capiform.js and prints the same bytes as the in-process CLI${built ? '' : ' (skipped: dist/ not built; run npm run build)'}`, async () => {
      const bin = join(repoRoot, 'bin/capiform.js');
      const e = providers.find((p) => p.label === 'cluster-api' && p.version === 'v1.13.5');
      if (!e) throw new Error('the corpus has no cluster-api v1.13.5');
      const cfg = config('spawn', [{ name: e.provider, type: e.type, url: join(repository, e.label, e.version, e.components[0] ?? '') }]);
      const args = ['generate', 'provider', flagOf[e.type] ?? '', `${e.provider}:${e.version}`, '-n', 'spawned', '--config', cfg];
      const env = { PATH: process.env.PATH, HOME: tmp };
      const spawned = spawnSync(process.execPath, [bin, ...args], { env, cwd: tmp, encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(spawned.stderr).toBe('');
      expect(spawned.status).toBe(0);
      const inProcess = await runCli(args, { env, cwd: tmp });
      expect(spawned.stdout).toBe(inProcess.stdout);
    });
  });
}
