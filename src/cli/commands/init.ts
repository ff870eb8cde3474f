/**
 * `capiform init [DIR]`: a new project's `capi.config.ts`, `.gitignore` and CI workflow, pinned to the newest
 * releases the repository offers; prints the next two commands.
 */
import { relative, resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import { parseProviderName } from '../../resolve/index.js';
import type { CliIO } from '../context.js';
import { colorsFor } from '../colors.js';
import { withBundle } from './bundle-option.js';
import { pipelineOptions } from './pipeline-shared.js';

/** The Kubernetes version example clusters are written with: one every provider of the corpus's newest releases supports. */
export const exampleKubernetesVersion = 'v1.33.1';

interface InitOptions {
  core: string;
  bootstrap: string[];
  controlPlane: string[];
  infrastructure: string[];
  repository?: string;
  certManager?: string;
  argocd?: string;
  kubernetesVersion: string;
  force?: boolean;
}

/** clusterctl's list flags: repeatable, and each value may hold a comma-separated list. */
function list(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((x) => x.trim()).filter((x) => x !== '')];
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

export function registerInit(program: Command, io: CliIO): void {
  program
    .command('init')
    .description('start a project: capi.config.ts pinned to the newest releases, .gitignore and a CI workflow')
    .argument('[dir]', 'the project folder (default: the current directory)')
    .option('--core <provider>', 'core provider name[:version]', 'cluster-api')
    .option('-b, --bootstrap <providers>', 'bootstrap providers name[:version], comma-separated or repeated (default: kubeadm; none: "")', list)
    .option('-c, --control-plane <providers>', 'control plane providers name[:version] (default: kubeadm; none: "")', list)
    .option('-i, --infrastructure <providers>', 'infrastructure providers name[:version]; each gets an example cluster', list)
    .option('--repository <dir|url>', 'one repository for every provider and cert-manager: a local folder in clusterctl\'s layout, or a URL (default: clusterctl\'s catalog)')
    .option('--cert-manager <version>', 'cert-manager version (default: the newest the repository offers)')
    .option('--argocd <repoURL>', 'also write Argo CD Applications for this git repository')
    .option('--kubernetes-version <version>', 'Kubernetes version of the example clusters', exampleKubernetesVersion)
    .option('--force', 'replace an existing capi.config.* and workflow')
    .option('--offline', 'use only the cache and local repositories')
    .option('--bundle <file>', 'read every provider release from this air-gapped bundle (no network, no cache)')
    .action(async (dirArg: string | undefined, local: InitOptions, cmd: Command) => {
      const opts = pipelineOptions(cmd);
      const dir = resolvePath(io.cwd, dirArg ?? '.');
      const provider = (s: string): { name: string; version: string } => parseProviderName(s);
      const { initProject, isRepositoryUrl } = await import('../../pipeline/index.js');
      const repository = local.repository === undefined || isRepositoryUrl(local.repository) ? local.repository : resolvePath(io.cwd, local.repository);
      const res = await withBundle(io, opts.bundle, dir, (b) =>
        initProject({
          dir,
          core: provider(local.core),
          bootstrap: (local.bootstrap ?? ['kubeadm']).map(provider),
          controlPlane: (local.controlPlane ?? ['kubeadm']).map(provider),
          infrastructure: (local.infrastructure ?? []).map(provider),
          ...(repository !== undefined ? { repository } : {}),
          ...(local.certManager !== undefined ? { certManager: local.certManager } : {}),
          ...(local.argocd !== undefined ? { argocdRepoURL: local.argocd } : {}),
          kubernetesVersion: local.kubernetesVersion,
          force: local.force ?? false,
          env: io.env,
          offline: opts.offline ?? false,
          ...(b.repositories ? { repositories: b.repositories } : {}),
        }),
      );
      const c = colorsFor(io, 'stdout');
      const where = relative(io.cwd, dir);
      const prefix = where === '' ? '' : `cd ${shellWord(where)} && `;
      const bundle = opts.bundle !== undefined ? ` --bundle ${shellWord(relative(dir, resolvePath(io.cwd, opts.bundle)))}` : '';
      const next = [`${prefix}npx capiform lock${bundle}`, `npx capiform render${bundle}`];
      if (opts.json) {
        io.stdout(`${JSON.stringify({ dir, ...res, next }, null, 2)}\n`);
        return;
      }
      if (opts.quiet) return;
      io.stdout(`wrote ${res.written.join(', ')}${where === '' ? '' : ` in ${where}`}\n`);
      for (const p of res.providers) {
        io.stdout(`  ${p.label} ${p.range} (newest: ${p.newest})\n`);
        if (p.environment.length > 0) io.stdout(`    ${c.yellow('reads from the environment when rendering:')} ${p.environment.join(', ')}\n`);
      }
      if (res.certManager) io.stdout(`  cert-manager ${res.certManager.range} (newest: ${res.certManager.newest})\n`);
      for (const cl of res.clusters) {
        io.stdout(`  cluster ${cl.name}: ${cl.infrastructure}${cl.flavor ? `, flavor ${cl.flavor}` : ''}\n`);
        if (cl.missing.length > 0) io.stdout(`    ${c.yellow('set before rendering:')} ${cl.missing.join(', ')} in ${cl.configPath} of capi.config.ts\n`);
      }
      for (const g of res.gates) {
        const how = g.variable !== undefined ? `sets variables.${g.variable}: 'true'` : `sets manager.featureGates.${g.gate}: true`;
        io.stdout(`  ${how}: feature gate ${g.gate} of ${g.providers.join(', ')}, which the example needs (${g.because})\n`);
      }
      const branch = res.defaultBranch;
      const whence: Record<typeof branch.from, string> = {
        'origin/HEAD': "origin's default branch",
        'init.defaultBranch': "git's init.defaultBranch",
        'current branch': 'the current branch',
        fallback: `${c.yellow('no git repository says which branch is the default')}: edit \`branches:\` in the workflow if yours is another`,
      };
      io.stdout(`  the workflow checks pushes to ${branch.name} (${whence[branch.from]}) and every pull request\n`);
      if (res.kubernetesVersion) io.stdout(`  --kubernetes-version ${res.kubernetesVersion.given} written as ${res.kubernetesVersion.written} (CAPI's webhooks want the v)\n`);
      io.stdout(`${c.bold('next:')}\n${next.map((l) => `  ${l}\n`).join('')}`);
    });
}
