/**
 * What `diff` reads: a rendered tree at a git ref with the real `git` (`ls-tree` + `cat-file --batch`: no checkout,
 * no index or working-tree change), a project file at a ref, and a rendered tree in a directory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { sha256Hex } from '../../cache/index.js';
import { InputError } from '../../errors.js';
import { treeRoots } from '../../render/index.js';
import { isTreeFile, sortedFiles, type RenderedTree } from '../../plan/diff/index.js';

interface GitResult {
  status: number | null;
  stdout: Buffer;
  stderr: string;
  error?: Error;
}

function git(cwd: string, args: string[], input?: Buffer): GitResult {
  const r = spawnSync('git', args, { cwd, input, maxBuffer: 1 << 30, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } });
  return { status: r.status, stdout: r.stdout ?? Buffer.alloc(0), stderr: (r.stderr ?? Buffer.alloc(0)).toString('utf8'), error: r.error };
}

/** The repository's top level for `dir`, or an InputError when `dir` is not inside a git work tree. */
export function gitTopLevel(dir: string): string {
  const r = git(dir, ['rev-parse', '--show-toplevel']);
  if (r.error) {
    throw new InputError(`cannot run git: ${r.error.message}`, { hint: 'install git, or compare two directories: capiform diff DIR_A DIR_B' });
  }
  if (r.status !== 0) {
    throw new InputError(`${dir} is not inside a git repository, so --base cannot be read`, {
      where: dir,
      hint: 'run capiform diff inside the repository that holds the rendered tree, or compare two directories: capiform diff DIR_A DIR_B',
    });
  }
  return r.stdout.toString('utf8').trim();
}

/** Resolves `ref` to a commit id; an unknown ref is an InputError (exit 2). */
export function resolveCommit(top: string, ref: string): string {
  if (ref.startsWith('-')) throw new InputError(`invalid git ref "${ref}"`, { hint: 'pass a branch, tag or commit, e.g. --base origin/main' });
  const r = git(top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (r.status !== 0) {
    throw new InputError(`unknown git ref "${ref}": no such branch, tag or commit in ${top}`, {
      where: top,
      hint: ref.startsWith('origin/')
        ? `fetch it first (git fetch origin ${ref.slice('origin/'.length)}), e.g. actions/checkout with fetch-depth: 0`
        : 'check the name with `git branch -a` / `git tag`, or fetch it first',
    });
  }
  return r.stdout.toString('utf8').trim();
}

/**
 * Reads the tree rooted at `root` (a directory inside the repository; its path relative to the top level is the
 * prefix inside the commit) as it is at `ref`.
 */
export function readTreeFromGit(root: string, ref: string): RenderedTree {
  const absRoot = resolve(root);
  const top = gitTopLevel(absRoot);
  const commit = resolveCommit(top, ref);
  const prefixRaw = relative(top, absRoot).split(sep).join('/');
  const prefix = prefixRaw === '' ? '' : `${prefixRaw}/`;
  const pathspecs = treeRoots.map((t) => `${prefix}${t}`);
  const ls = git(top, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...pathspecs]);
  if (ls.status !== 0) throw new InputError(`git ls-tree failed for "${ref}": ${ls.stderr.trim()}`, { where: top });
  const entries: { sha: string; path: string }[] = [];
  for (const rec of ls.stdout.toString('utf8').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [, type, sha] = rec.slice(0, tab).split(' ');
    const full = rec.slice(tab + 1);
    if (type !== 'blob' || !sha || !full.startsWith(prefix)) continue;
    const path = full.slice(prefix.length);
    if (isTreeFile(path)) entries.push({ sha, path });
  }
  const files = new Map<string, string>();
  const blobs = catBlobs(top, ref, entries);
  entries.forEach((e, i) => files.set(e.path, blobs[i]!.toString('utf8')));
  return { label: `git:${ref}`, files: sortedFiles(files) };
}

/** The contents of `entries`' blobs, in order, with one `git cat-file --batch`. */
function catBlobs(top: string, ref: string, entries: readonly { sha: string; path: string }[]): Buffer[] {
  if (entries.length === 0) return [];
  const cat = git(top, ['cat-file', '--batch'], Buffer.from(entries.map((e) => `${e.sha}\n`).join('')));
  if (cat.status !== 0) throw new InputError(`git cat-file failed for "${ref}": ${cat.stderr.trim()}`, { where: top });
  const out = cat.stdout;
  const blobs: Buffer[] = [];
  let pos = 0;
  for (const e of entries) {
    const nl = out.indexOf(0x0a, pos);
    const header = out.subarray(pos, nl).toString('utf8');
    const size = Number(header.split(' ')[2]);
    if (!header.startsWith(e.sha) || !Number.isFinite(size)) {
      throw new InputError(`git cat-file returned an unexpected record for ${e.path}: ${header}`, { where: top });
    }
    blobs.push(out.subarray(nl + 1, nl + 1 + size));
    pos = nl + 1 + size + 1;
  }
  return blobs;
}

/**
 * Writes the files of `commit` into `dest` (which must exist), as a checkout would but without touching the
 * repository's index or working tree: regular and executable files, and symbolic links; submodules are left out.
 * `skip(path)` leaves paths out (the rendered tree, which a render in memory never reads).
 */
export function extractCommit(top: string, ref: string, commit: string, dest: string, skip: (path: string) => boolean = () => false): number {
  const ls = git(top, ['ls-tree', '-r', '-z', '--full-tree', commit]);
  if (ls.status !== 0) throw new InputError(`git ls-tree failed for "${ref}": ${ls.stderr.trim()}`, { where: top });
  const entries: { sha: string; path: string; mode: string }[] = [];
  for (const rec of ls.stdout.toString('utf8').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode = '', type, sha] = rec.slice(0, tab).split(' ');
    const path = rec.slice(tab + 1);
    if (type !== 'blob' || !sha || skip(path)) continue;
    entries.push({ sha, path, mode });
  }
  const blobs = catBlobs(top, ref, entries);
  const made = new Set<string>();
  entries.forEach((e, i) => {
    const abs = join(dest, ...e.path.split('/'));
    const dir = dirname(abs);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    if (e.mode === '120000') symlinkSync(blobs[i]!.toString('utf8'), abs);
    else writeFileSync(abs, blobs[i]!, { mode: e.mode === '100755' ? 0o755 : 0o644 });
  });
  return entries.length;
}

/**
 * The salt for secret hashes: $CAPIFORM_DIFF_SALT when set, else the id of the repository's first commit (stable
 * for every clone of the repository), else the absolute path of `dir`.
 */
export function repositorySalt(dir: string, env: NodeJS.ProcessEnv): string {
  const fromEnv = env.CAPIFORM_DIFF_SALT;
  if (fromEnv) return fromEnv;
  const r = git(dir, ['rev-list', '--max-parents=0', 'HEAD']);
  if (r.status === 0) {
    const roots = r.stdout.toString('utf8').trim().split('\n').filter(Boolean).sort();
    if (roots.length > 0) return `git:${roots[0]}`;
  }
  return sha256Hex(`dir:${resolve(dir)}`);
}

/** Reads providers/, clusters/ and argocd/ YAML files under `dir`. A missing directory is an InputError. */
export function readTreeFromDir(dir: string, label = dir): RenderedTree {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError(`cannot read the rendered tree: ${dir} is not a directory`, {
      where: dir,
      hint: 'pass the directory that holds providers/ and clusters/ (the output of `capiform render`)',
    });
  }
  const files = new Map<string, string>();
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = join(abs, entry.name);
      if (entry.isDirectory()) walk(childAbs, childRel);
      else if (entry.isFile() && isTreeFile(childRel)) files.set(childRel, readFileSync(childAbs, 'utf8'));
    }
  };
  for (const top of treeRoots) {
    const abs = join(dir, top);
    if (existsSync(abs) && statSync(abs).isDirectory()) walk(abs, top);
  }
  return { label, files: sortedFiles(files) };
}


/** A file's bytes at `commit` (a path relative to the top level), or undefined when the commit does not have it. */
export function readFileAtCommit(top: string, commit: string, path: string): Buffer | undefined {
  const r = git(top, ['cat-file', 'blob', `${commit}:${path}`]);
  return r.status === 0 ? r.stdout : undefined;
}
