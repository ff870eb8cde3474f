/**
 * Choosing a version (`client/repository/repository_versions.go`), over any ProviderRepository:
 * - `latestPatchRelease(repo, major?, minor?)`: semver tags only, releases before pre-releases (each descending),
 *   the first 5 probed for `metadata.yaml` at `"v" + version`; not-found skips, any other error aborts;
 * - `latestRelease(repo)` = `latestPatchRelease(repo)`;
 * - `latestContractRelease(repo, contract)`: the latest release, or the latest patch of the newest series that
 *   implements `contract` when the latest release is of another series.
 * Local repositories report a missing metadata.yaml as an error, not as not-found (clusterctl's local quirk).
 */
import { CapiformError, ResolutionError } from '../errors.js';
import { decodeMetadata, metadataFile, releaseSeriesForContract } from './metadata.js';
import { settledCandidates, type CandidateRule } from './candidates.js';
import type { ProviderRepository } from './repository.js';
import { compareSemantic, formatSemantic, goQuote, tryParseSemantic, type SemanticVersion } from '../go/index.js';

export const noValidReleaseMessage = 'failed to find releases tagged with a valid semantic version number';
const maxCandidates = 5;

/** Thrown when the chosen release has no metadata.yaml (`errNotFound` in clusterctl). */
export class ReleaseNotFoundError extends ResolutionError {
  constructor(message: string, details: ConstructorParameters<typeof ResolutionError>[1] = {}) {
    super(message, details, 'E_RELEASE_NOT_FOUND');
  }
}

/** Reads a file; `null` = not found. Local repositories turn not-found into an error, as clusterctl's do. */
async function probe(repo: ProviderRepository, version: string, file: string): Promise<Uint8Array | null> {
  const bytes = await repo.getFile(version, file);
  if (bytes === null && repo.kind === 'local') {
    throw new ResolutionError(
      `failed to read file ${goQuote(repo.fileLocation(version, file))} from local release ${version}`,
      {
        where: repo.fileLocation(version, file),
        hint: `add ${file} to that release folder (clusterctl does not skip local releases without it)`,
      },
    );
  }
  return bytes;
}

/** Sort order of `latestPatchRelease`: releases before pre-releases, each in descending semver. */
export function sortCandidates(versions: SemanticVersion[]): SemanticVersion[] {
  return [...versions].sort((a, b) => {
    const ar = a.preRelease === '';
    const br = b.preRelease === '';
    if (ar !== br) return ar ? -1 : 1;
    return compareSemantic(b, a);
  });
}

/** `latestPatchRelease`; returns `"v" + version` of the first candidate whose metadata.yaml exists. */
export async function latestPatchRelease(
  repo: ProviderRepository,
  major?: number | bigint | null,
  minor?: number | bigint | null,
): Promise<string> {
  const inSeries = (sv: SemanticVersion): boolean =>
    (major === undefined || major === null || sv.major === BigInt(major)) &&
    (minor === undefined || minor === null || sv.minor === BigInt(minor));
  const rule: CandidateRule = {
    order: (versions) => {
      const parsed: SemanticVersion[] = [];
      for (const v of versions) {
        const sv = tryParseSemantic(v);
        if (sv && inSeries(sv)) parsed.push(sv);
      }
      return sortCandidates(parsed).map((sv) => `v${formatSemantic(sv)}`);
    },
    range: seriesRange(major, minor),
  };
  const hint = `check the versions the repository at ${repo.url} offers`;
  let probed = 0;
  const candidates = settledCandidates(repo, rule);
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = await candidates.next();
    } catch (err) {
      if (err instanceof CapiformError) {
        err.message = `failed to get repository versions: ${err.message}`;
        throw err;
      }
      throw new ResolutionError(`failed to get repository versions: ${(err as Error).message}`, { cause: err });
    }
    if (next.done) break;
    probed++;
    const bytes = await probe(repo, next.value, metadataFile);
    if (bytes !== null) return next.value;
    if (probed === maxCandidates) break;
  }
  if (probed === 0) throw new ResolutionError(noValidReleaseMessage, { hint });
  throw new ResolutionError(noValidReleaseMessage, {
    hint: `${hint}; clusterctl only probes the 5 newest tags, and each needs a release with ${metadataFile}`,
  });
}

/** The releases of `major.minor` (either may be absent) as an npm semver range. */
function seriesRange(major?: number | bigint | null, minor?: number | bigint | null): string {
  if (major === undefined || major === null) return '*';
  if (minor === undefined || minor === null) return `>=${major}.0.0 <${BigInt(major) + 1n}.0.0`;
  return `>=${major}.${minor}.0 <${major}.${BigInt(minor) + 1n}.0`;
}

/** `latestRelease` = the latest patch release over all versions (not contract-aware). */
export function latestRelease(repo: ProviderRepository): Promise<string> {
  return latestPatchRelease(repo, null, null);
}

/** `latestContractRelease(repo, contract)`; clusterctl always passes `v1beta2`. */
export async function latestContractRelease(repo: ProviderRepository, contract: string): Promise<string> {
  const latest = await latestRelease(repo);
  let bytes: Uint8Array | null;
  try {
    bytes = await probe(repo, latest, metadataFile);
  } catch {
    return latest;
  }
  if (bytes === null) {
    throw new ReleaseNotFoundError(`failed to get file "${metadataFile}" from "${latest}" release`, {
      where: repo.fileLocation(latest, metadataFile),
    });
  }
  let series;
  try {
    series = releaseSeriesForContract(decodeMetadata(new TextDecoder().decode(bytes)), contract);
  } catch {
    return latest;
  }
  if (!series) return latest;
  const sv = tryParseSemantic(latest);
  if (!sv) return latest;
  if (sv.major !== BigInt(series.major) || sv.minor !== BigInt(series.minor)) {
    return latestPatchRelease(repo, series.major, series.minor);
  }
  return latest;
}
