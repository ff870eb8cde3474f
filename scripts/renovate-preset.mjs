#!/usr/bin/env node
/**
 * Writes renovate/capiform.json from clusterctl's provider catalog: `npm run build && node scripts/renovate-preset.mjs`.
 * test/renovate-preset.test.ts fails when the committed preset is not what `renovatePreset(builtinProviders)` returns.
 *
 * Every regular expression here must compile in RE2, which Renovate uses when it can: no lookaround, no
 * backreferences, no repeated group names. None may match across entries: a TypeScript/JSON body is made of strings,
 * comments, balanced braces (a few levels deep) and any other character but a brace or a quote; a YAML entry's lines
 * never cross a `- ` list item.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const Q = `['"\`]`;
const STR = `'[^'\\n]*'|"[^"\\n]*"|\`[^\`]*\``;
const COMMENT = `//[^\\n]*|/\\*(?:[^*]|\\*+[^*/])*\\*+/`;
const PLAIN = `[^{}'"\`]`;

/** A `{ … }` block with up to `depth` levels of braces inside it. */
function braces(depth) {
  let b = `\\{(?:${COMMENT}|${STR}|${PLAIN})*\\}`;
  for (let i = 0; i < depth; i++) b = `\\{(?:${COMMENT}|${STR}|${PLAIN}|${b})*\\}`;
  return b;
}

/** A key in TypeScript (`name:`), JSON (`"name":`) or YAML's flow style. */
const key = (k) => `(?:['"]${k}['"]|\\b${k})\\s*:\\s*`;

/** A version literal: a digit first, optionally after `~`, `^`, `=` or `v`. `latest` is left alone. */
const versionValue = `['"\`]?(?<currentValue>[~^=v]?[0-9][^'"\`\\s,}#]*)['"\`]?`;

/**
 * What may stand between and after an entry's keys. A `url` that is not an `http(s)://` literal (a path, a `file:`
 * URL, a variable, an interpolated template) marks the entry as a local folder's: its `localN` group is set, the
 * entry's depType is `local-folder`, and the preset's package rule disables it, so it is never looked up on GitHub.
 * JavaScript resets a group inside a repeated group on every repetition, so the `url` is matched by an optional group
 * after a lazy run of items, never inside the repetition.
 */
class Groups {
  n = 0;
  next() {
    return `local${++this.n}`;
  }
  names() {
    return Array.from({ length: this.n }, (_, i) => `local${i + 1}`);
  }
}

const ITEM = `(?:${COMMENT}|${STR}|${braces(1)}|${PLAIN})`;
/** A url value served from a folder: a path, a `file:` URL, an interpolated template literal, a variable. */
const LOCAL_VALUE = `(?:'(?:\\.|/|~|file:)[^'\\n]*'|"(?:\\.|/|~|file:)[^"\\n]*"|\`(?:\\.|/|~|file:|\\$\\{)[^\`]*\`|(?:\\.|/|~)[^\\s,}]*|[A-Za-z_$][\\w$.]*)`;

/** Items up to the next key, catching a local `url` among them. */
function flowBody(g) {
  return `${ITEM}*?(?:(?<${g.next()}>${key('url')}${LOCAL_VALUE})${ITEM}*?)?`;
}

/** `{ name: 'aws', …, version: '~2.10.0', … }` in TypeScript, JavaScript, JSON or YAML's flow style. */
function flowProvider(names, g) {
  return `\\{${flowBody(g)}${key('name')}${Q}?(?<depName>${names})(?:${Q}|[\\s,])${flowBody(g)}${key('version')}${versionValue}${flowBody(g)}\\}`;
}

function flowCertManager(g) {
  return `${key('certManager')}\\{${flowBody(g)}${key('version')}${versionValue}${flowBody(g)}\\}`;
}

/** YAML block style: one key a line, never across a `- ` item. A line that is not a list item nor a `url:`. */
const YLINE = `\\n[ \\t]*(?:#[^\\n]*)?|\\n[ \\t]+url:[ \\t]*['"]?https?://[^\\n]*|\\n[ \\t]+(?:[^-\\s#u]|u[^-\\s#r]|ur[^-\\s#l]|url[^:])[^\\n]*`;
const YLOCAL = `url:[ \\t]*['"]?(?:\\.|/|~|file:)[^\\n]*`;
function yamlBody(g) {
  return `(?:${YLINE})*?(?:\\n[ \\t]+(?<${g.next()}>${YLOCAL})(?:${YLINE})*?)?`;
}
/** Where a block-style entry ends: the next list item, a top-level key, or the end of the text. */
const YEND = `(?:\\n[ \\t]*-|\\n[^\\s#]|\\n?$)`;

function yamlProvider(names, g) {
  return `(?:(?<${g.next()}>${YLOCAL})\\n[ \\t]*)?\\bname:[ \\t]*['"]?(?<depName>${names})['"]?[ \\t]*(?:#[^\\n]*)?${yamlBody(g)}\\n[ \\t]+version:[ \\t]*${versionValue}[ \\t]*(?:#[^\\n]*)?${yamlBody(g)}${YEND}`;
}

function yamlCertManager(g) {
  return `certManager:[ \\t]*(?:#[^\\n]*)?${yamlBody(g)}\\n[ \\t]+version:[ \\t]*${versionValue}[ \\t]*(?:#[^\\n]*)?${yamlBody(g)}${YEND}`;
}

// Where entries are: the shared `providers`/`certManager` of the config, or those of one `managementClusters` entry.
const ts = {
  files: '/(^|/)capi\\.config\\.(ts|mts|cts|js|mjs|cjs|json)$/',
  managementClusters: `${key('managementClusters')}${braces(6)}`,
  section: (k, depth) => `${key(k)}${braces(depth)}`,
  sectionStart: (k) => `^${key(k)}`,
  target: `[{,]\\s*(?:(?://[^\\n]*|/\\*(?:[^*]|\\*+[^*/])*\\*+/)\\s*)*['"]?(?<target>[a-z0-9][-a-z0-9]*)['"]?\\s*:\\s*${braces(5)}`,
};
// YAML with two-space indentation: sections at the top level, management clusters two spaces in, theirs four.
// A block runs while its lines are indented deeper; blank lines count only when a deeper line follows them, so a
// block never takes the newline that starts the next one.
const deeper = (indent) => `(?:(?:\\n[ \\t]*)*\\n${indent} [ \\t]*[^ \\t\\n][^\\n]*)*`;
const block = (indent, k) => `(?:^|\\n)${indent}${k}:[^\\n]*${deeper(indent)}`;
const yaml = {
  files: '/(^|/)capi\\.config\\.yaml$/',
  managementClusters: block('', 'managementClusters'),
  section: (k) => block('', k),
  sectionStart: (k) => `^\\n?${k}:`,
  targetSection: (k) => block('    ', k),
  target: `\\n  ['"]?(?<target>[a-z0-9][-a-z0-9]*)['"]?:[^\\n]*${deeper('  ')}`,
};

function depTypeTemplate(g) {
  const conditions = [...g.names().map((n) => [n, 'local-folder']), ['target', 'target-{{target}}']];
  return `{{#if ${conditions.map(([c, v]) => `${c}}}${v}`).join('{{else if ')}{{else}}shared{{/if}}`;
}

function packageNameTemplate(repos) {
  const [first, ...rest] = repos.map(([name, repo]) => `(equals depName '${name}')}}${repo}`);
  return `{{#if ${first}${rest.map((r) => `{{else if ${r}`).join('')}{{/if}}`;
}

function manager(description, files, matchStrings, entry) {
  return {
    customType: 'regex',
    description,
    managerFilePatterns: [files],
    matchStrings,
    matchStringsStrategy: 'recursive',
    ...entry,
    datasourceTemplate: 'github-releases',
    versioningTemplate: 'npm',
  };
}

/** The preset for a provider catalog (`{ name, url }` with GitHub release URLs). */
export function renovatePreset(catalog) {
  const reposByName = new Map();
  for (const p of catalog) {
    const m = /^https:\/\/github\.com\/([^/]+\/[^/]+)\/releases\//.exec(p.url);
    if (!m) continue;
    reposByName.set(p.name, (reposByName.get(p.name) ?? new Set()).add(m[1]));
  }
  // talos, microk8s, metal3, nutanix: the repository depends on the provider type, so the name alone does not say.
  const unique = [...reposByName].filter(([, r]) => r.size === 1).map(([n, r]) => [n, [...r][0]]);
  unique.sort((a, b) => b[0].length - a[0].length || a[0].localeCompare(b[0]));
  const names = unique.map(([n]) => n.replace(/[.]/g, '\\.')).join('|');
  const provider = (g) => ({ depNameTemplate: undefined, packageNameTemplate: packageNameTemplate(unique), depTypeTemplate: depTypeTemplate(g) });
  const certManager = (g) => ({ depNameTemplate: 'cert-manager', packageNameTemplate: 'cert-manager/cert-manager', depTypeTemplate: depTypeTemplate(g) });
  const managers = [];
  const add = (description, files, levels, entry) => {
    const g = new Groups();
    const last = levels.at(-1)(g);
    const m = manager(description, files, [...levels.slice(0, -1), last], entry(g));
    if (m.depNameTemplate === undefined) delete m.depNameTemplate;
    managers.push(m);
  };
  {
    const entryOf = flowProvider;
    add('Shared providers of capi.config.ts/.js/.json (one version for every management cluster)', ts.files,
      [`${ts.managementClusters}|${ts.section('providers', 3)}`, `${ts.sectionStart('providers')}[\\s\\S]*`, (g) => entryOf(names, g)], provider);
    add('Providers of one management cluster (managementClusters.<name>.providers) in capi.config.ts/.js/.json', ts.files,
      [ts.managementClusters, ts.target, ts.section('providers', 3), (g) => entryOf(names, g)], provider);
  }
  add('Shared cert-manager of capi.config.ts/.js/.json', ts.files,
    [`${ts.managementClusters}|${ts.section('certManager', 0)}`, (g) => `^${flowCertManager(g)}`], certManager);
  add('cert-manager of one management cluster in capi.config.ts/.js/.json', ts.files,
    [ts.managementClusters, ts.target, (g) => flowCertManager(g)], certManager);
  for (const [style, entryOf, cmOf] of [['block', yamlProvider, yamlCertManager], ['flow', flowProvider, flowCertManager]]) {
    add(`Shared providers of capi.config.yaml (${style} style)`, yaml.files,
      [`${yaml.managementClusters}|${yaml.section('providers')}`, `${yaml.sectionStart('providers')}[\\s\\S]*`, (g) => entryOf(names, g)], provider);
    add(`Providers of one management cluster in capi.config.yaml (${style} style)`, yaml.files,
      [yaml.managementClusters, yaml.target, yaml.targetSection('providers'), (g) => entryOf(names, g)], provider);
    add(`Shared cert-manager of capi.config.yaml (${style} style)`, yaml.files,
      [`${yaml.managementClusters}|${yaml.section('certManager')}`, `${yaml.sectionStart('certManager')}[\\s\\S]*`, (g) => cmOf(g)], certManager);
    add(`cert-manager of one management cluster in capi.config.yaml (${style} style)`, yaml.files,
      [yaml.managementClusters, yaml.target, yaml.targetSection('certManager'), (g) => cmOf(g)], certManager);
  }
  managers.push({
    customType: 'regex',
    description:
      'Any provider annotated with its GitHub repository: a "// renovate: github-releases=<owner>/<repo>" line (or "# renovate: …" in YAML) right before `version:` (needed for talos, microk8s, metal3, nutanix, whose repository depends on the provider type, and for providers outside clusterctl\'s catalog)',
    managerFilePatterns: ['/(^|/)capi\\.config\\.(ts|mts|cts|js|mjs|cjs|yaml)$/'],
    matchStrings: [`(?://|#)\\s*renovate:\\s*github-releases=(?<packageName>[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)[ \\t]*\\n\\s*version:\\s*${versionValue}`],
    depNameTemplate: '{{{packageName}}}',
    depTypeTemplate: 'shared',
    datasourceTemplate: 'github-releases',
    versioningTemplate: 'npm',
  });
  const capiformFiles = ['**/capi.config.{ts,mts,cts,js,mjs,cjs,json,yaml}'];
  return {
    $schema: 'https://docs.renovatebot.com/renovate-schema.json',
    description:
      'capiform: provider and cert-manager versions in capi.config.{ts,js,json,yaml} as GitHub releases; needs Renovate >= 40.2. Generated by scripts/renovate-preset.mjs. Extend with "github>capiform/capiform//renovate/capiform".',
    customManagers: managers,
    // The re-lock job (the action's `mode: relock`) commits lock and tree onto Renovate's branch: Renovate must keep
    // treating the branch as its own and go on rebasing it.
    gitIgnoredAuthors: ['capiform[bot]@users.noreply.github.com'],
    packageRules: [
      {
        description: 'Ranges move with every release, patches included (~1.12.0 -> ~1.12.5): a range is only rewritten by Renovate when its lower bound moves, and the lock then follows.',
        matchFileNames: capiformFiles,
        rangeStrategy: 'bump',
      },
      {
        description: 'A provider or cert-manager served from a local folder (its url is not an http(s) literal) has no GitHub release to look up.',
        matchFileNames: capiformFiles,
        matchDepTypes: ['local-folder'],
        enabled: false,
      },
      {
        description: 'The core provider, kubeadm bootstrap and control plane and CAPD are one release of kubernetes-sigs/cluster-api: update them together.',
        matchFileNames: capiformFiles,
        matchPackageNames: ['kubernetes-sigs/cluster-api'],
        groupName: 'Cluster API',
      },
      {
        description: 'One pull request per management cluster: a version set under managementClusters.<name> moves on a branch of its own.',
        matchFileNames: capiformFiles,
        matchDepTypes: ['/^target-/'],
        additionalBranchPrefix: '{{depType}}-',
        commitMessageSuffix: '({{depType}})',
      },
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { builtinProviders } = await import('../dist/index.js');
  const out = fileURLToPath(new URL('../renovate/capiform.json', import.meta.url));
  writeFileSync(out, `${JSON.stringify(renovatePreset(builtinProviders), null, 2)}\n`);
  console.log(`wrote ${out}`);
}
