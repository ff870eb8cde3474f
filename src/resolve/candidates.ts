/**
 * Candidate versions in the order clusterctl tries them (releases before pre-releases, each newest first), reading a
 * paginated version listing (GitHub's releases API, 100 per page) only as far as needed to be sure of each one.
 *
 * GitHub lists releases newest first by `created_at`, which is not semver order (a 1.10.7 backport comes after
 * 1.13.0), so page 1 alone proves nothing. Two facts of release histories make stopping early correct:
 *   (A) within one release series (major.minor), releases are created in ascending order: the releases of a series
 *       on unread (older) pages are below the lowest version of that series already seen;
 *   (B) no release is higher than every one of the 100 releases created after it: everything on unread pages is
 *       below the highest version of each page already read.
 * A release candidate is settled when no release the unread pages could still hold under (A) and (B) fits the
 * constraint and is higher. Pre-release candidates (tried only after every fitting release) and constraints nothing
 * read so far satisfies read the listing to the end. A history that breaks (A) or (B) (say, an old release re-created
 * after 100 newer ones) is resolved from the pages read; GOPROXY (the default) lists every version at once.
 */
import { npmSemver, orderCandidates } from '../config/index.js';
import type { ProviderRepository } from './repository.js';
import { compareSemantic, formatSemantic, tryParseSemantic, type SemanticVersion } from '../go/index.js';

export interface CandidateRule {
  /** The versions among `versions` that fit, in the order they are tried. */
  order(versions: readonly string[]): string[];
  /** The releases that fit, as an npm semver range: decides what unread pages could still add. */
  range: string;
}

/** capi.config's `version`: `latest`, an exact version or a range (config/constraints.ts). */
export function constraintRule(constraint: string): CandidateRule {
  return {
    order: (versions) => orderCandidates(versions, constraint),
    range: constraint === 'latest' ? '*' : constraint,
  };
}

/** Yields the candidates of `rule` in order; stop iterating once one is accepted, and no further page is read. */
export async function* settledCandidates(repo: ProviderRepository, rule: CandidateRule): AsyncGenerator<string> {
  if (!repo.listVersionPage) {
    yield* rule.order(await repo.listVersions());
    return;
  }
  const seen: string[] = [];
  const pageMaxima: SemanticVersion[] = [];
  let pages = 0;
  let last = false;
  const readPage = async (): Promise<void> => {
    const page = await repo.listVersionPage!(pages++);
    seen.push(...page.versions);
    last = page.last;
    const max = highest(page.versions);
    if (max) pageMaxima.push(max);
  };
  await readPage();
  const tried = new Set<string>();
  for (;;) {
    const next = rule.order(seen).find((v) => !tried.has(v));
    if (next === undefined || (!last && !isSettled(next, seen, pageMaxima, rule.range))) {
      if (last) return;
      await readPage();
      continue;
    }
    tried.add(next);
    yield next;
  }
}

function highest(versions: readonly string[]): SemanticVersion | undefined {
  let max: SemanticVersion | undefined;
  for (const v of versions) {
    const sv = tryParseSemantic(v);
    if (sv && (!max || compareSemantic(sv, max) > 0)) max = sv;
  }
  return max;
}

const release = (major: bigint, minor: bigint): SemanticVersion => ({ major, minor, patch: 0n, preRelease: '', buildMetadata: '' });

/** Whether no release the unread pages may hold (facts A and B above) is higher than `candidate` and fits `range`. */
function isSettled(candidate: string, seen: readonly string[], pageMaxima: readonly SemanticVersion[], range: string): boolean {
  const c = tryParseSemantic(candidate);
  if (!c || c.preRelease !== '' || pageMaxima.length === 0) return false;
  const bound = pageMaxima.reduce((a, b) => (compareSemantic(a, b) <= 0 ? a : b));
  // The lowest version seen of each series above the candidate's.
  const lowest = new Map<string, SemanticVersion>();
  for (const v of seen) {
    const sv = tryParseSemantic(v);
    if (!sv || sv.major < c.major || (sv.major === c.major && sv.minor <= c.minor)) continue;
    const key = `${sv.major}.${sv.minor}`;
    const cur = lowest.get(key);
    if (!cur || compareSemantic(sv, cur) < 0) lowest.set(key, sv);
  }
  const series = [...lowest.values()].sort(compareSemantic);
  // Intervals [from, to) of releases still possible above the candidate: the start of each seen series up to its
  // lowest seen version (A), and every series never seen, up to the bound (B).
  const open: [SemanticVersion, SemanticVersion][] = [];
  let gapFrom = release(c.major, c.minor + 1n);
  for (const s of series) {
    open.push([gapFrom, release(s.major, s.minor)]);
    open.push([release(s.major, s.minor), s]);
    gapFrom = release(s.major, s.minor + 1n);
  }
  open.push([gapFrom, bound]);
  for (const [from, to] of open) {
    const upper = compareSemantic(to, bound) <= 0 ? to : bound;
    if (compareSemantic(from, upper) >= 0) continue;
    try {
      if (npmSemver().intersects(`>=${formatSemantic(from)} <${formatSemantic(upper)}`, range)) return false;
    } catch {
      return false; // a range semver cannot compare (huge numbers): read on rather than guess
    }
  }
  return true;
}
