/**
 * The bundle's provenance: an in-toto Statement (v1) with a SLSA Provenance v1 predicate, stored inside the bundle
 * as `provenance.intoto.json`. Subjects are the bundle's files with their sha256 (every file but SHA256SUMS, which
 * lists this one); resolved dependencies are every release file the lock pins, with the URL or path it came from
 * and its digest; the builder is this capiform; the external parameters are the config file's digest and the lock's
 * configDigest. No timestamps and no host names: the same inputs give the same bytes, so the bundle stays
 * reproducible. Its DSSE envelope (signing.ts) lives beside the bundle, never in it.
 */
import { compareGoStrings } from '../go/index.js';
import { sha256Hex } from '../cache/index.js';
import type { Lock } from '../lock/index.js';
import { lockedFiles } from './locked-files.js';

export const provenanceFile = 'provenance.intoto.json';
export const statementType = 'https://in-toto.io/Statement/v1';
export const slsaProvenanceType = 'https://slsa.dev/provenance/v1';
export const bundleBuildType = 'https://github.com/capiform/capiform/blob/main/docs/signing.md#bundle-v1';
export const builderId = 'https://github.com/capiform/capiform';

export interface ProvenanceInput {
  readonly files: readonly { readonly path: string; readonly content: Uint8Array | string }[];
  readonly lock: Lock;
  readonly config: { readonly name: string; readonly content: Uint8Array | string };
  readonly capiformVersion: string;
  readonly extras: readonly string[];
}

export interface ResourceDescriptor {
  name?: string;
  uri?: string;
  digest: { sha256: string };
}

export interface Statement {
  _type: string;
  subject: ResourceDescriptor[];
  predicateType: string;
  predicate: {
    buildDefinition: {
      buildType: string;
      externalParameters: { config: ResourceDescriptor; configDigest: string; contract: string; extras: string[] };
      resolvedDependencies: ResourceDescriptor[];
    };
    runDetails: { builder: { id: string; version: Record<string, string> } };
  };
}

export function provenanceStatement(input: ProvenanceInput): Statement {
  const subject = [...input.files]
    .sort((a, b) => compareGoStrings(a.path, b.path))
    .map((f) => ({ name: f.path, digest: { sha256: sha256Hex(f.content) } }));
  const resolvedDependencies = lockedFiles(input.lock)
    .map((l) => ({
      name: `${l.label}@${l.version}/${l.file.name}`,
      uri: l.file.url ?? l.file.path!,
      digest: { sha256: l.file.sha256 },
    }))
    .sort((a, b) => compareGoStrings(a.name, b.name));
  return {
    _type: statementType,
    subject,
    predicateType: slsaProvenanceType,
    predicate: {
      buildDefinition: {
        buildType: bundleBuildType,
        externalParameters: {
          config: { name: input.config.name, digest: { sha256: sha256Hex(input.config.content) } },
          configDigest: input.lock.configDigest,
          contract: input.lock.contract,
          extras: [...input.extras].sort(compareGoStrings),
        },
        resolvedDependencies,
      },
      runDetails: { builder: { id: builderId, version: { capiform: input.capiformVersion } } },
    },
  };
}

/** The statement as stored: JSON, two-space indented, a final newline. */
export function formatStatement(s: Statement): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}

/** Problems of a stored statement against the digests of the bundle's files (bundle verify). */
export function checkProvenance(bytes: Uint8Array, digests: ReadonlyMap<string, string>, skip: ReadonlySet<string>): string[] {
  let s: Partial<Statement>;
  try {
    s = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<Statement>;
  } catch (err) {
    return [`${provenanceFile} is not JSON: ${(err as Error).message}`];
  }
  if (s._type !== statementType || s.predicateType !== slsaProvenanceType || !Array.isArray(s.subject)) {
    return [`${provenanceFile} is not an in-toto statement with a SLSA provenance v1 predicate`];
  }
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const sub of s.subject) {
    const name = typeof sub?.name === 'string' ? sub.name : '';
    listed.add(name);
    const actual = digests.get(name);
    if (actual === undefined) problems.push(`${provenanceFile}: subject ${name} is not in the bundle`);
    else if (actual !== sub.digest?.sha256) problems.push(`${provenanceFile}: subject ${name} has sha256 ${actual}, the provenance says ${String(sub.digest?.sha256)}`);
  }
  for (const path of digests.keys()) {
    if (!skip.has(path) && !listed.has(path)) problems.push(`${provenanceFile}: ${path} is in the bundle but not a subject of the provenance`);
  }
  return problems;
}
