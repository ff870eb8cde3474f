/**
 * A rendered tree as text files: `providers/<label>/*.yaml`, `clusters/<namespace>/<name>/*.yaml`,
 * `clusterclasses/<namespace>/<name>/*.yaml`, `argocd/**`.
 * Readers (a directory, a git ref, a render: src/pipeline/review-*.ts) produce a RenderedTree; the diff itself reads no file.
 */
import { InputError } from '../../errors.js';
import { generatedMark, treeRoots } from '../../render/index.js';

export interface RenderedTree {
  /** Where it came from, for messages and the report (`working tree`, `git:origin/main`, a directory). */
  label: string;
  /** Tree-relative POSIX path → file text. */
  files: Map<string, string>;
}

export function isTreeFile(path: string): boolean {
  const top = path.split('/', 1)[0];
  return (treeRoots as readonly string[]).includes(top ?? '') && /\.ya?ml$/.test(path);
}

export function sortedFiles(files: Map<string, string>): Map<string, string> {
  return new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Checks that a tree is capiform's: its YAML files carry the generated header. An empty tree is allowed when
 * `allowEmpty` (a base before the first render); files without the header become warnings.
 */
export function checkCapiformTree(tree: RenderedTree, opts: { allowEmpty: boolean }): string[] {
  const warnings: string[] = [];
  if (tree.files.size === 0) {
    if (opts.allowEmpty) {
      warnings.push(`${tree.label} has no rendered tree (no providers/, clusters/ or argocd/ YAML files); every object counts as new`);
      return warnings;
    }
    throw new InputError(`${tree.label} has no rendered tree: no YAML files under providers/, clusters/ or argocd/`, {
      where: tree.label,
      hint: 'run `capiform render` first, or pass the directory that holds providers/ and clusters/',
    });
  }
  const without: string[] = [];
  for (const [path, text] of tree.files) if (!text.startsWith(generatedMark)) without.push(path);
  if (without.length === tree.files.size) {
    throw new InputError(
      `${tree.label} is not a tree rendered by capiform: none of its ${tree.files.size} YAML files starts with the "${generatedMark}" header`,
      { where: `${tree.label}: ${without[0]}`, hint: 'diff trees written by `capiform render` (or use plain `git diff` for other manifests)' },
    );
  }
  for (const path of without.slice(0, 5)) warnings.push(`${tree.label}: ${path} lacks the "${generatedMark}" header (edited by hand?)`);
  if (without.length > 5) warnings.push(`${tree.label}: ${without.length - 5} more files lack the header`);
  return warnings;
}
