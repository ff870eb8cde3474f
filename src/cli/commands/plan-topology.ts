/**
 * `capiform plan topology`: what CAPI's topology controller would create for each ClusterClass-managed Cluster,
 * offline — the successor of clusterctl's removed `alpha topology plan`. Reads YAML files or folders (or the project's
 * rendered tree), prints each Cluster's desired objects by role, or writes them one file per object.
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { InputError, UsageError, ExitCode } from '../../errors.js';
import type { CliIO } from '../context.js';
import { setExitCode } from '../exit-status.js';
import { writeFileAtomic } from '../../cache/index.js';
import { emitManifests } from '../../yaml/index.js';
import { tabwrite } from '../../go/index.js';
import { namespaceNameProblem, objectNameProblem } from '../../capi/index.js';
import { treeRoots } from '../../render/index.js';
import type { TopologyPlan, TopologyPlanCluster } from '../../plan/topology/index.js';
import { readManifests } from '../../pipeline/plan-inputs/index.js';
import { assertNoUnfinishedWrite, readSettled, stateDir } from '../../pipeline/tree/index.js';

interface TopologyFlags {
  cluster?: string;
  outputDirectory?: string;
}

interface Globals {
  json?: boolean;
  config?: string;
}

function show(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

function objectOf(o: Record<string, unknown>): { kind: string; name: string } {
  const meta = o.metadata as { name?: unknown } | undefined;
  return { kind: typeof o.kind === 'string' ? o.kind : '', name: typeof meta?.name === 'string' ? meta.name : '' };
}

/** The text output: per Cluster its objects by role, the values patches set, and the warnings. */
export function formatTopologyPlan(plan: TopologyPlan): string {
  const out: string[] = [];
  for (const c of plan.clusters) {
    if (out.length > 0) out.push('');
    out.push(`Cluster ${c.cluster} (ClusterClass ${c.class})`);
    if (c.objects.length > 0) {
      let table = 'ROLE\tKIND\tNAME\n';
      for (const o of c.objects) {
        const { kind, name } = objectOf(o.object);
        table += `${o.role}\t${kind}\t${name}\n`;
      }
      out.push(...tabwrite(table).trimEnd().split('\n').map((l) => `  ${l}`));
    }
    if (c.patched.length > 0) {
      out.push('  Values set by the class patches:');
      for (const p of c.patched) {
        for (const v of p.values) {
          const what = v.op === 'remove' ? '(removed)' : show(v.value);
          out.push(`    ${p.role} ${v.path}: ${what}  [patch ${v.patch}]`);
        }
      }
    }
    for (const w of c.warnings) out.push(`  ! ${w}`);
  }
  if (plan.clusters.length === 0) out.push('No Cluster with spec.topology found.');
  for (const w of plan.warnings) out.push(`! ${w}`);
  return `${out.join('\n')}\n`;
}

/** `<ns>/<cluster>/<role with "/" replaced by "_">.yaml` */
export function topologyObjectFile(cluster: string, role: string): string {
  return `${cluster}/${role.replace(/\//g, '_')}.yaml`;
}

const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The files `--output-directory` would write, every one checked before the first is: paths are built from the
 * input's namespaces and names (a PR's), so each must be a valid Kubernetes name, every file must stay inside the
 * folder, and none may land in the project's own tree (only `render` writes there).
 */
function plannedFiles(dir: string, project: string, clusters: readonly TopologyPlanCluster[]): { rel: string; file: string; object: Record<string, unknown> }[] {
  const tree = [...treeRoots, stateDir].map((r) => join(project, r));
  const ownTree = tree.find((t) => isInside(t, dir) || isInside(dir, t));
  if (ownTree !== undefined && isInside(ownTree, dir)) {
    throw new UsageError(`--output-directory ${dir} lies in the project's tree (${relative(project, ownTree)}/), which only \`capiform render\` writes`, {
      where: '--output-directory',
      hint: 'write the plan to a folder outside the tree, e.g. --output-directory topology-plan',
    });
  }
  const out: { rel: string; file: string; object: Record<string, unknown> }[] = [];
  for (const c of clusters) {
    const [ns = '', name = ''] = c.cluster.split(/\/(.*)/s);
    const problem = namespaceNameProblem(ns) ?? objectNameProblem(name);
    if (problem !== null) {
      throw new InputError(`cannot write the plan of Cluster ${JSON.stringify(c.cluster)} to --output-directory: ${problem}`, {
        where: '--output-directory',
        hint: 'the API server refuses such a Cluster too: fix its metadata.name and metadata.namespace',
      });
    }
    for (const o of c.objects) {
      const rel = topologyObjectFile(c.cluster, o.role);
      const file = resolve(dir, rel);
      const segs = rel.split('/');
      if (!isInside(dir, file) || segs.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) {
        throw new InputError(`cannot write ${JSON.stringify(rel)}: it would leave --output-directory ${dir}`, { where: '--output-directory' });
      }
      const hit = tree.find((t) => isInside(t, file));
      if (hit !== undefined) {
        throw new UsageError(`--output-directory ${dir} would write ${relative(project, file)} into the project's tree (${relative(project, hit)}/), which only \`capiform render\` writes`, {
          where: '--output-directory',
          hint: 'write the plan to a folder outside the tree, e.g. --output-directory topology-plan',
        });
      }
      out.push({ rel, file, object: o.object });
    }
  }
  return out;
}

function writeObjects(dir: string, project: string, clusters: readonly TopologyPlanCluster[]): string[] {
  const files = plannedFiles(dir, project, clusters);
  const written: string[] = [];
  for (const f of files) {
    mkdirSync(dirname(f.file), { recursive: true });
    // A folder on the way may be a link (committed, or made by someone else): the file must still land inside.
    if (!isInside(realpathSync(dir), realpathSync(dirname(f.file)))) {
      throw new InputError(`cannot write ${f.rel}: a folder on its way is a symbolic link that leads out of --output-directory ${dir}`, {
        where: '--output-directory',
        hint: 'write the plan to a fresh folder',
      });
    }
    writeFileAtomic(f.file, emitManifests([f.object]));
    written.push(f.rel);
  }
  return written;
}

async function readInputs(io: CliIO, paths: readonly string[], config: string | undefined): Promise<Record<string, unknown>[]> {
  if (paths.length > 0) return readManifests(paths, io.cwd);
  let base = io.cwd;
  if (config) {
    const p = resolve(io.cwd, config);
    if (!existsSync(p)) throw new UsageError(`config file not found: ${config}`, { hint: 'pass an existing capi.config.* with --config' });
    base = dirname(p);
  }
  assertNoUnfinishedWrite(base);
  // Classes live in clusterclasses/ (shared by a namespace's clusters), Clusters in clusters/.
  const inputs = ['clusterclasses', 'clusters'].map((d) => join(base, d)).filter((d) => existsSync(d));
  if (inputs.length === 0) {
    throw new InputError(`nothing to plan: no clusterclasses/ or clusters/ directory in ${base}`, {
      where: base,
      hint: 'run `capiform render` first, or pass the YAML files or folders holding the Clusters and their ClusterClass',
    });
  }
  return readSettled(base, () => readManifests(inputs, io.cwd));
}

async function runTopology(io: CliIO, paths: readonly string[], flags: TopologyFlags, globals: Globals): Promise<number> {
  const objects = await readInputs(io, paths, globals.config);
  // Loaded here, not at start-up: `plan upgrade` and `plan move` do not need the topology engine.
  const { planTopology } = await import('../../plan/topology/index.js');
  const plan = planTopology(objects);
  if (flags.cluster !== undefined) {
    const wanted = flags.cluster.includes('/') ? flags.cluster : `default/${flags.cluster}`;
    const found = plan.clusters.filter((c) => c.cluster === wanted);
    if (found.length === 0) {
      const names = plan.clusters.map((c) => c.cluster);
      throw new UsageError(`--cluster ${flags.cluster}: no topology Cluster ${wanted} in the input (found: ${names.length > 0 ? names.join(', ') : 'none'})`, {
        hint: 'pass --cluster NAMESPACE/NAME of one of the Clusters found',
      });
    }
    plan.clusters = found;
  }
  if (flags.outputDirectory !== undefined) {
    const dir = resolve(io.cwd, flags.outputDirectory);
    const project = globals.config ? dirname(resolve(io.cwd, globals.config)) : io.cwd;
    const written = writeObjects(dir, project, plan.clusters);
    if (!globals.json) io.stderr(`Wrote ${written.length} objects to ${flags.outputDirectory}\n`);
  }
  if (globals.json) {
    const doc = { clusters: plan.clusters.map((c) => ({ cluster: c.cluster, class: c.class, objects: c.objects, warnings: [...c.warnings] })) };
    io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
  } else io.stdout(formatTopologyPlan(plan));
  if (globals.json) for (const w of plan.warnings) io.stderr(`warning: ${w}\n`);
  const failed = plan.clusters.filter((c) => c.failed);
  if (failed.length === 0) return ExitCode.ok;
  // The reasons on stderr too, as render words them: stdout may be a file or `--json` for a script.
  for (const c of failed) {
    io.stderr(`Error: Cluster ${c.cluster} cannot be expanded with ClusterClass ${c.class} (CAPI's webhooks would reject it):\n${c.errors.map((e) => `  ${e}\n`).join('')}`);
  }
  return ExitCode.input;
}

export function registerPlanTopology(plan: Command, io: CliIO): void {
  plan
    .command('topology')
    .description('ClusterClass expansion, offline: the objects CAPI’s topology controller creates for each Cluster (clusterctl alpha topology plan)')
    .argument('[paths...]', 'YAML files or folders with Clusters, their ClusterClasses and templates (default: clusterclasses/ and clusters/ of the rendered tree)')
    .option('--cluster <ns/name>', 'only this Cluster')
    .option('--output-directory <dir>', 'write one file per object: <dir>/<namespace>/<cluster>/<role>.yaml')
    .option('--config <file>', 'capi.config.* whose directory holds the rendered tree')
    .action(async (paths: string[], flags: TopologyFlags, cmd: Command) => {
      const code = await runTopology(io, paths, flags, cmd.optsWithGlobals<Globals>());
      if (code !== ExitCode.ok) setExitCode(cmd, code);
    });
}
