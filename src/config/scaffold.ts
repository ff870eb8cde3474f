/**
 * The files `capiform init` writes, as text: a commented `capi.config.ts`, a `.gitignore` and a GitHub Actions
 * workflow. Pure: what the repositories offer is decided by the caller (src/pipeline/init.ts) and passed in. The texts
 * live in code, not in template files, so the npm package carries them wherever the code goes.
 */
import { looksLikeCredential } from './secrets.js';
import type { ProviderKind } from './schema.js';

export interface ScaffoldProvider {
  kind: Exclude<ProviderKind, 'ipam' | 'addon' | 'runtimeExtension'>;
  name: string;
  /** The newest release the repository offers (`v1.13.5`): the config pins the range of its patch releases. */
  newest: string;
  /** Repository as the config writes it (relative to the config's folder, or a URL); none: clusterctl's catalog. */
  url: string | undefined;
  /** Variables the provider's components need and do not default. */
  requiredVariables: readonly string[];
  /** `manager.featureGates` to set (a gate the release hard-codes, turned on for an example cluster). */
  featureGates?: Record<string, boolean>;
}

export interface ScaffoldCluster {
  name: string;
  namespace: string;
  infrastructure: string;
  /** undefined: `cluster-template.yaml`. */
  flavor: string | undefined;
  kubernetesVersion: string;
  /** `infrastructure-docker v1.13.5 cluster-template-development.yaml`. */
  source: string;
  /** Variables the template needs that neither capiform (name, namespace, version, counts) nor a default sets. */
  requiredVariables: readonly string[];
}

export interface Scaffold {
  providers: readonly ScaffoldProvider[];
  certManager: { newest: string; url: string | undefined } | undefined;
  clusters: readonly ScaffoldCluster[];
  argocdRepoURL: string | undefined;
  /** Global variables to set, each with the reason written above it (the feature gates the example clusters need). */
  variables?: readonly { name: string; value: string; comment: string }[];
}

/** Variables `render` sets from a cluster's own fields, so a template's need for them is met without a value. */
export const clusterOwnVariables = ['CLUSTER_NAME', 'NAMESPACE', 'KUBERNETES_VERSION', 'CONTROL_PLANE_MACHINE_COUNT', 'WORKER_MACHINE_COUNT'];

/** `v1.13.5` → `~1.13.5`: this release and its later patches; `lock --upgrade` moves within it. */
export function patchRange(version: string): string {
  return `~${version.replace(/^v/, '')}`;
}

function str(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : str(name);
}

function providerEntry(p: Pick<ScaffoldProvider, 'name' | 'newest' | 'url'>): string {
  return `{ name: ${str(p.name)}, version: ${str(patchRange(p.newest))}${p.url !== undefined ? `, url: ${str(p.url)}` : ''} }`;
}

/**
 * Variable lines for a `variables` block: credentials read from the environment at render time (they never land in
 * the config, and `secrets.policy: 'omit'` keeps them out of the tree); other required values left for the user.
 */
function variableLines(names: readonly string[], indent: string): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (looksLikeCredential(n)) out.push(`${indent}${key(n)}: { env: ${str(n)} }, // a credential: read from the environment when rendering`);
    else out.push(`${indent}// ${key(n)}: '', // required: set it before \`capiform render\``);
  }
  return out;
}

function hasCredential(s: Scaffold): boolean {
  return [...s.providers.flatMap((p) => p.requiredVariables), ...s.clusters.flatMap((c) => c.requiredVariables)].some(looksLikeCredential);
}

/** The commented `capi.config.ts`. */
export function configSource(s: Scaffold): string {
  const l: string[] = [];
  l.push(
    '// capiform configuration: the Cluster API providers of the management cluster and the workload clusters it runs.',
    '// `capiform lock` resolves it into capi.lock.yaml; `capiform render` writes providers/ and clusters/ from both.',
    '// Every field is described in capiform\'s docs/configuration.md; defineConfig only adds types.',
    "import { defineConfig } from 'capiform';",
    '',
    'export default defineConfig({',
    '  providers: {',
    '    // Each version is a range of patch releases of the newest release the repository offered when this file was',
    '    // written; `capiform lock --upgrade` moves inside it. Widen a range (\'^1.13.0\', \'latest\') to take new minors.',
  );
  const lists: Record<ScaffoldProvider['kind'], ScaffoldProvider[]> = { core: [], bootstrap: [], controlPlane: [], infrastructure: [] };
  for (const p of s.providers) lists[p.kind].push(p);
  const withVars = (p: ScaffoldProvider, indent: string): string[] => {
    const gates = Object.keys(p.featureGates ?? {}).sort();
    if (p.requiredVariables.length === 0 && gates.length === 0) return [`${indent}${providerEntry(p)},`];
    const entry = providerEntry(p);
    const out = [`${indent}${entry.slice(0, -2)},`];
    if (p.requiredVariables.length > 0) out.push(`${indent}  variables: {`, ...variableLines(p.requiredVariables, `${indent}    `), `${indent}  },`);
    if (gates.length > 0) {
      out.push(`${indent}  // The release hard-codes these feature gates; the example clusters need them on.`);
      out.push(`${indent}  manager: { featureGates: { ${gates.map((g) => `${key(g)}: ${String(p.featureGates![g])}`).join(', ')} } },`);
    }
    out.push(`${indent}},`);
    return out;
  };
  const core = lists.core[0];
  if (core) l.push(...withVars(core, '    ').map((x, i) => (i === 0 ? x.replace(/^ {4}/, '    core: ') : x)));
  for (const kind of ['bootstrap', 'controlPlane', 'infrastructure'] as const) {
    if (lists[kind].length === 0) continue;
    l.push(`    ${kind}: [`);
    for (const p of lists[kind]) l.push(...withVars(p, '      '));
    l.push('    ],');
  }
  l.push('  },');
  if (s.certManager) {
    l.push("  // cert-manager, installed first as clusterctl installs it; `capiform lock --upgrade cert-manager` moves it in its range.");
    l.push(`  certManager: { version: ${str(patchRange(s.certManager.newest))}${s.certManager.url !== undefined ? `, url: ${str(s.certManager.url)}` : ''} },`);
  }
  if (s.variables && s.variables.length > 0) {
    l.push('  // Variables every provider (and template) reads, as clusterctl reads them from the environment.');
    l.push('  variables: {');
    for (const v of s.variables) l.push(`    // ${v.comment}.`, `    ${key(v.name)}: ${str(v.value)},`);
    l.push('  },');
  }
  if (hasCredential(s)) {
    l.push("  // Credentials never reach git in plain text: objects that would hold one are left out of the tree (provision them", "  // with external-secrets or SOPS).", "  secrets: { policy: 'omit' },");
  }
  l.push('  clusters: [');
  if (s.clusters.length === 0) l.push('    // One entry per workload cluster: { name, namespace, infrastructure, flavor?, kubernetesVersion }.');
  for (const c of s.clusters) {
    l.push(`    // An example from ${c.source}: rename it, or copy it for each cluster you run.`);
    l.push('    {');
    l.push(`      name: ${str(c.name)},`, `      namespace: ${str(c.namespace)},`, `      infrastructure: ${str(c.infrastructure)},`);
    if (c.flavor !== undefined) l.push(`      flavor: ${str(c.flavor)},`);
    l.push(`      kubernetesVersion: ${str(c.kubernetesVersion)},`, '      controlPlaneMachineCount: 1,', '      workerMachineCount: 1,');
    if (c.requiredVariables.length > 0) l.push('      variables: {', ...variableLines(c.requiredVariables, '        '), '      },');
    l.push('    },');
  }
  l.push('  ],');
  if (s.argocdRepoURL !== undefined) {
    l.push('  // Argo CD Applications for the rendered tree, under argocd/ (point Argo CD at argocd/root).');
    l.push(`  argocd: { repoURL: ${str(s.argocdRepoURL)} },`);
  }
  l.push('});', '');
  return l.join('\n');
}

/** What a capiform repository keeps out of git: the writer's scratch state (the tree cache's record stays). */
export const gitignoreLines = ['node_modules/', '.capiform-staging*/', '.capiform/staging/', '.capiform/old/', '.capiform/journal.json', '.capiform/writer.lock*'];

/** `.gitignore` with capiform's lines added to `existing` (kept as it is; lines already there are not repeated). */
export function gitignoreSource(existing: string | undefined): string {
  const have = new Set((existing ?? '').split(/\r?\n/).map((x) => x.trim()));
  const missing = gitignoreLines.filter((x) => !have.has(x));
  if (existing !== undefined && missing.length === 0) return existing;
  const head = existing === undefined || existing === '' ? '' : existing.endsWith('\n') ? `${existing}\n` : `${existing}\n\n`;
  return `${head}# capiform\n${missing.join('\n')}\n`;
}

/** Where the workflow goes. */
export const ciWorkflowPath = '.github/workflows/capiform.yml';
/** Where the re-lock workflow for Renovate's branches goes. */
export const relockWorkflowPath = '.github/workflows/capiform-relock.yml';

export interface WorkflowSettings {
  /** The branch pushes are checked on: the repository's default branch. */
  defaultBranch: string;
  /** capiform's version (`0.1.0`): the action is pinned to its tag, as the project pins the package. */
  version: string;
  /** Folders inside the repository the config reads (local provider repositories), relative to it (`repository`). */
  folders: readonly string[];
}

/** Everything `render --check` and the review read: a change to any of them must run the workflow. */
export function workflowPaths(w: WorkflowSettings): string[] {
  return [
    'capi.config.*',
    'capi.lock.yaml',
    'providers/**',
    'clusters/**',
    'clusterclasses/**',
    'targets/**',
    'argocd/**',
    '.capiform/**',
    'package.json',
    'package-lock.json',
    ciWorkflowPath,
    ...w.folders.map((f) => `${f.replace(/\/+$/, '')}/**`),
  ];
}

/** A YAML double-quoted scalar (JSON's string syntax is one): branch names and paths may hold any character. */
function yamlString(s: string): string {
  return JSON.stringify(s);
}

// Node 22 or newer: Node 20 parses NODE_EXTRA_CA_CERTS (set on many corporate runners) at every start, later Node
// only when a command opens a TLS connection (docs/speed.md).
const setupSteps = `      - uses: actions/setup-node@v4
        with:
          node-version: 22
          cache: npm
      # capiform is a devDependency of this repository (package.json, package-lock.json); the action runs that one.
      - run: npm ci
      # capiform's own cache (downloaded releases, rendered components, trees) is keyed inside by the digest of what
      # each entry was made from, so a restored one is never stale; restored, a fresh runner checks as fast as a warm
      # one. A new lock or capiform starts a new entry (docs/ci.md, "Caching").
      - uses: actions/cache@v4
        with:
          path: ~/.cache/capiform
          key: capiform-\${{ runner.os }}-\${{ hashFiles('capi.lock.yaml', 'package-lock.json') }}`;

/**
 * The GitHub Actions workflow: every push to the default branch and every pull request must carry a lock that matches
 * the config and a tree that matches both (`render --check --frozen`, then `validate`); a pull request also gets the
 * review as one sticky comment, posted even when the check fails (the action runs check, review, comment, and fails
 * at the end).
 */
export function ciWorkflowSource(w: WorkflowSettings): string {
  const paths = workflowPaths(w).map((p) => `      - ${yamlString(p)}`).join('\n');
  return `# capiform: the committed tree must be what capi.config.ts and capi.lock.yaml render, and every pull request
# gets one comment saying what the change does to the providers and clusters (docs/github-action.md).
name: capiform
on:
  push:
    branches: [${yamlString(w.defaultBranch)}]
    paths:
${paths}
  pull_request:
    paths:
${paths}
# One run per branch or pull request: a newer push cancels a pull request's older run; pushes to the default branch
# each finish.
concurrency:
  group: capiform-\${{ github.ref }}
  cancel-in-progress: \${{ github.event_name == 'pull_request' }}
permissions:
  contents: read
jobs:
  check:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pull-requests: write # the review comment
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # the review reads the base branch's tree
${setupSteps}
      # \`render --check --frozen\` and \`validate\`, then on a pull request the review and its comment, whatever the
      # check said; fails at the end when the check failed (the comment shows the fix: npx capiform lock && npx capiform render).
      - uses: capiform/capiform@v${w.version}
`;
}

/**
 * The re-lock workflow: on a push to a Renovate branch (which edits only the config), lock, render and commit the
 * result back, so the branch's check passes without anyone checking it out. A push to a branch of this repository
 * never runs a fork's code; the action also refuses forks' pull requests.
 */
export function relockWorkflowSource(w: WorkflowSettings): string {
  return `# capiform: Renovate changes a version range in capi.config.ts; this job re-locks the entries it changed, renders the
# tree and commits both back to Renovate's branch (docs/github-action.md, "Re-locking bot branches").
name: capiform relock
on:
  push:
    branches: ["renovate/**"]
    paths:
      - "capi.config.*"
      - "package.json"
      - "package-lock.json"
concurrency:
  group: capiform-relock-\${{ github.ref }}
  cancel-in-progress: false
permissions:
  contents: read
jobs:
  relock:
    runs-on: ubuntu-latest
    permissions:
      contents: write # push the re-locked commit
    steps:
      - uses: actions/checkout@v4
        with:
          # A commit pushed with the job's own token starts no workflow (GitHub's rule), so the check would not run on
          # it: store a GitHub App's or a fine-grained token (contents: write) as CAPIFORM_RELOCK_TOKEN to have it checked.
          token: \${{ secrets.CAPIFORM_RELOCK_TOKEN || github.token }}
${setupSteps}
      - uses: capiform/capiform@v${w.version}
        with:
          mode: relock
`;
}
