/**
 * Provider `metadata.yaml` (`clusterctl.cluster.x-k8s.io/v1alpha3` `Metadata`): decoding, validation with
 * clusterctl's messages (`client/repository/metadata_client.go`), release-series lookups, and the contract checks
 * `generate provider` runs (`client/generate_provider.go`, `internal/contract/version.go`).
 */
import { InputError, ResolutionError, CapiformError } from '../errors.js';
import { parseYamlDocument, portableValue, readPortableYaml, yamlDocumentValue } from '../yaml/index.js';
import { manifestLabel } from '../capi/index.js';
import type { ProviderRepository } from './repository.js';
import { goQuote, parseSemantic, tryParseSemantic, VersionParseError, type SemanticVersion } from '../go/index.js';

export const metadataFile = 'metadata.yaml';
export const metadataApiVersion = 'clusterctl.cluster.x-k8s.io/v1alpha3';
/** The contract clusterctl itself implements (`clusterv1.GroupVersion.Version`). */
export const currentContract = 'v1beta2';

export interface ReleaseSeries {
  major: number;
  minor: number;
  contract: string;
}

export interface Metadata {
  apiVersion: string;
  kind: string;
  releaseSeries: ReleaseSeries[];
}

const int32Max = 2 ** 31 - 1;

function decodeInt32(v: unknown, field: string): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v <= int32Max) return v;
  const type = typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : 'object';
  throw new Error(
    `json: cannot unmarshal ${type}${typeof v === 'number' ? ` ${v}` : ''} into Go struct field ReleaseSeries.releaseSeries.${field} of type int32`,
  );
}

function decodeString(v: unknown, where: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  const type = typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : 'object';
  throw new Error(`json: cannot unmarshal ${type} into Go struct field ${where} of type string`);
}

/** The first document's value; a release's metadata.yaml is portable YAML, read without loading the package. */
function metadataValue(text: string): unknown {
  const portable = readPortableYaml(text);
  if (portable !== undefined) return portable === null ? null : portableValue(portable);
  const doc = parseYamlDocument(text, 'providerMetadata');
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos?.[0]?.line;
    throw new Error(`error converting YAML to JSON: yaml: ${line ? `line ${line}: ` : ''}${err.message.split('\n')[0]}`);
  }
  return yamlDocumentValue(doc, 'providerMetadata');
}

/**
 * Decodes metadata.yaml the way the scheme's universal decoder does: YAML 1.1 (first document) → JSON → typed
 * `Metadata`; a missing apiVersion/kind is defaulted from the target type. Throws a plain Error with the decoder's
 * message (callers wrap it).
 */
export function decodeMetadata(text: string): Metadata {
  const data = metadataValue(text);
  if (data === null || data === undefined) {
    return { apiVersion: metadataApiVersion, kind: 'Metadata', releaseSeries: [] };
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(data) ? 'array' : typeof data} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const obj = data as Record<string, unknown>;
  const apiVersion = decodeString(obj.apiVersion, 'TypeMeta.apiVersion');
  const kind = decodeString(obj.kind, 'TypeMeta.kind');
  const rs = obj.releaseSeries;
  const releaseSeries: ReleaseSeries[] = [];
  if (rs !== null && rs !== undefined) {
    if (!Array.isArray(rs)) {
      throw new Error(`json: cannot unmarshal ${typeof rs} into Go struct field Metadata.releaseSeries of type []v1alpha3.ReleaseSeries`);
    }
    for (const item of rs) {
      if (item === null) {
        releaseSeries.push({ major: 0, minor: 0, contract: '' });
        continue;
      }
      if (typeof item !== 'object' || Array.isArray(item)) {
        throw new Error(`json: cannot unmarshal ${Array.isArray(item) ? 'array' : typeof item} into Go struct field Metadata.releaseSeries of type v1alpha3.ReleaseSeries`);
      }
      const r = item as Record<string, unknown>;
      releaseSeries.push({
        major: decodeInt32(r.major, 'major'),
        minor: decodeInt32(r.minor, 'minor'),
        contract: decodeString(r.contract, 'ReleaseSeries.releaseSeries.contract'),
      });
    }
  }
  return { apiVersion: apiVersion || metadataApiVersion, kind: kind || 'Metadata', releaseSeries };
}

/** The problem clusterctl's `validateMetadata` reports, or null. */
export function metadataProblem(m: Pick<Metadata, 'apiVersion' | 'kind' | 'releaseSeries'>, providerLabel: string): string | null {
  if (m.apiVersion !== metadataApiVersion) {
    return `invalid provider metadata: unexpected apiVersion ${goQuote(m.apiVersion)} for provider ${providerLabel} (expected ${goQuote(metadataApiVersion)})`;
  }
  if (m.kind !== 'Metadata' && m.kind !== '') {
    return `invalid provider metadata: unexpected kind ${goQuote(m.kind)} for provider ${providerLabel} (expected "Metadata")`;
  }
  if (m.releaseSeries.length === 0) {
    return `invalid provider metadata: releaseSeries is empty in metadata.yaml for provider ${providerLabel}`;
  }
  return null;
}

/** `validateMetadata`; throws InputError. */
export function validateMetadata(m: Metadata, providerLabel: string, where?: string): void {
  const problem = metadataProblem(m, providerLabel);
  if (problem !== null) {
    throw new InputError(problem, {
      where,
      hint: `metadata.yaml needs apiVersion ${metadataApiVersion}, kind Metadata and at least one releaseSeries entry`,
    });
  }
}

/**
 * Decodes and validates metadata.yaml bytes for a provider (`metadataClient.Get` after the read). `label` is the
 * provider's ManifestLabel. Throws InputError with clusterctl's messages.
 */
export function parseMetadata(bytes: Uint8Array | string, label: string, where?: string): Metadata {
  const text = typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes);
  let m: Metadata;
  try {
    m = decodeMetadata(text);
  } catch (err) {
    throw new InputError(`error decoding "${metadataFile}" for provider ${goQuote(label)}: ${(err as Error).message}`, {
      where,
      hint: 'fix metadata.yaml: it must be a clusterctl Metadata document with a releaseSeries list',
    });
  }
  validateMetadata(m, label, where);
  return m;
}

/** Reads a file through an optional override layer; see overrides.ts. */
export type FileReader = (version: string, file: string) => Promise<Uint8Array | null>;

/**
 * Most often the version itself is wrong (a typo, a missing `v`): a local repository lists its versions for free, so
 * say which it has; otherwise the release lacks its metadata.yaml.
 */
async function missingReleaseHint(repo: ProviderRepository, version: string, location: string): Promise<string> {
  const missingFile = `every provider release needs a metadata.yaml next to its components; add one at ${location}`;
  if (repo.kind !== 'local') return missingFile;
  const versions = await repo.listVersions().catch(() => [] as string[]);
  if (versions.length === 0 || versions.includes(version)) return missingFile;
  const withV = `v${version}`;
  const shown = versions.length > 8 ? [...versions.slice(0, 8), `… (${versions.length} in all)`] : versions;
  return `the repository has no release ${version}${versions.includes(withV) ? ` (did you mean ${withV}?)` : ''}; it has: ${shown.join(', ')}`;
}

/**
 * `metadataClient.Get`: reads `metadata.yaml` of `version` from the repository (through `read`, e.g. the
 * overrides layer), decodes and validates it. A missing file or a failing read → ResolutionError
 * `failed to read "metadata.yaml" from the repository for provider "<label>": …`.
 */
export async function readMetadata(
  repo: ProviderRepository,
  version: string,
  provider: { name: string; type: string } | string,
  read?: FileReader,
): Promise<Metadata> {
  const label = typeof provider === 'string' ? provider : manifestLabel(provider.name, provider.type);
  const prefix = `failed to read "${metadataFile}" from the repository for provider ${goQuote(label)}`;
  let bytes: Uint8Array | null;
  try {
    bytes = await (read ?? ((v, f) => repo.getFile(v, f)))(version, metadataFile);
  } catch (err) {
    if (err instanceof CapiformError) {
      err.message = `${prefix}: ${err.message}`;
      throw err;
    }
    throw new ResolutionError(`${prefix}: ${(err as Error).message}`, { cause: err });
  }
  const location = repo.fileLocation(version, metadataFile);
  if (bytes === null) {
    throw new ResolutionError(
      repo.kind === 'local'
        ? `${prefix}: failed to read file ${goQuote(location)} from local release ${version}`
        : `${prefix}: failed to get file "${metadataFile}" from "${version}" release`,
      {
        where: location,
        hint: await missingReleaseHint(repo, version, location),
      },
      'E_METADATA_NOT_FOUND',
    );
  }
  return parseMetadata(bytes, label, location);
}

function toUint(v: bigint): number {
  return Number(v);
}

/** `GetReleaseSeriesForVersion`: the series with the version's major and minor, or null. */
export function releaseSeriesForVersion(m: Metadata, version: SemanticVersion | string): ReleaseSeries | null {
  const v = typeof version === 'string' ? tryParseSemantic(version) : version;
  if (!v) return null;
  return m.releaseSeries.find((s) => s.major === toUint(v.major) && s.minor === toUint(v.minor)) ?? null;
}

/** `GetReleaseSeriesForContract`: among the series with that contract, the highest major.minor; null if none. */
export function releaseSeriesForContract(m: Metadata, contract: string): ReleaseSeries | null {
  let best: ReleaseSeries | null = null;
  for (const s of m.releaseSeries) {
    if (s.contract !== contract) continue;
    if (!best || s.major > best.major || (s.major === best.major && s.minor > best.minor)) best = s;
  }
  return best;
}

/** `contract.GetCompatibleVersions(contract)`: the contract itself plus the ones it stays compatible with. */
export function compatibleContracts(contract: string = currentContract): string[] {
  return contract === 'v1beta2' ? ['v1beta2', 'v1beta1'] : [contract];
}

/**
 * The checks `generate provider` runs after reading metadata (steps 5–6): the version parses as semver, matches a
 * release series, and that series' contract is one clusterctl supports. Returns the matching series.
 */
export function checkProviderContract(m: Metadata, version: string, providerName: string): ReleaseSeries {
  let v: SemanticVersion;
  try {
    v = parseSemantic(version);
  } catch (err) {
    if (err instanceof VersionParseError) {
      throw new InputError(`failed to parse current version: ${err.message}`, {
        hint: 'use a semantic version such as v1.2.3',
      });
    }
    throw err;
  }
  const series = releaseSeriesForVersion(m, v);
  if (!series) {
    throw new ResolutionError(
      `invalid provider metadata: version ${version} for the provider ${providerName} does not match any release series`,
      { hint: `add a releaseSeries entry for ${v.major}.${v.minor} to the provider's metadata.yaml, or pick a listed version` },
    );
  }
  const compatible = compatibleContracts(currentContract);
  if (!compatible.includes(series.contract)) {
    throw new ResolutionError(
      `current version of clusterctl is only compatible with provider implementing ${compatible.join(', ')} contract versions, detected ${series.contract} for provider ${providerName}`,
      { hint: 'pick a provider version that implements the v1beta2 or v1beta1 contract' },
    );
  }
  return series;
}
