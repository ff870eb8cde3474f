/**
 * The manual's links hold: every relative link in README.md and docs/*.md names a file of the repository, and every
 * `#anchor` a heading of the page it points at (GitHub's heading ids: lower case, punctuation dropped, spaces as
 * hyphens, `-1`, `-2` … for repeats).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..');
const pages = ['README.md', ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** Lines outside fenced code blocks, with inline code removed (a link in backticks is no link). */
function prose(text: string): string[] {
  let fenced = false;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out.push(line.replace(/`[^`]*`/g, (m) => (m.includes('](') ? '' : m)));
  }
  return out;
}

function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let set = anchorCache.get(file);
  if (set) return set;
  set = new Set();
  const seen = new Map<string, number>();
  for (const line of prose(readFileSync(file, 'utf8'))) {
    const m = /^#{1,6} (.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    set.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, set);
  return set;
}

function links(page: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  prose(readFileSync(join(repoRoot, page), 'utf8')).forEach((l, i) => {
    for (const m of l.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1]!, line: i + 1 });
  });
  return out;
}

function problem(page: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: — not checked offline
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? join(repoRoot, page) : resolve(dirname(join(repoRoot, page)), decodeURI(path));
  if (relative(repoRoot, file).startsWith('..')) return `${target}: outside the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined) return undefined;
  if (!statSync(file).isFile() || !file.endsWith('.md')) return `${target}: an anchor into a file that is not a page`;
  return anchorsOf(file).has(anchor) ? undefined : `${target}: no heading with id "${anchor}" in ${relative(repoRoot, file)}`;
}

describe('links of the manual', () => {
  it('README.md links every page of docs/', () => {
    const linked = new Set(links('README.md').map((l) => l.target.split('#')[0]));
    expect(pages.filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
  });

  for (const page of pages) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const broken = links(page).flatMap(({ target, line }) => {
        const p = problem(page, target);
        return p === undefined ? [] : [`${page}:${line}: ${p}`];
      });
      expect(broken).toEqual([]);
    });
  }

  it('the checker itself finds a missing file and a missing anchor', () => {
    expect(problem('README.md', 'docs/no-such-page.md')).toContain('no such file');
    expect(problem('README.md', 'docs/fleets.md#no-such-heading')).toContain('no heading with id');
    expect(problem('README.md', '#quick-start')).toBeUndefined();
    expect(problem('docs/fleets.md', '../README.md#exit-codes')).toBeUndefined();
  });
});
