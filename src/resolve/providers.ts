/**
 * The provider list clusterctl works with (`client/config/providers_client.go`): the built-in catalog merged with the
 * `providers:` of clusterctl.yaml, sorted by type order then name; lookups by name and type; and the
 * `clusterctl config repositories` output.
 */
import { ConfigError, ResolutionError } from '../errors.js';
import { builtinProviders, type ProviderConfig } from './catalog.js';
import { providerProblem } from './provider-name.js';
import { providerTypeOrder, providerTypePlace } from '../capi/index.js';
import { clusterctlTable, compareGoStrings, tabwriteRows } from '../go/index.js';

/** User entries as `loadClusterctlConfig(...).providers` gives them. */
export interface UserProvider {
  name: string;
  url: string;
  type: string;
  where?: string;
}

/**
 * `providers.List()`: built-ins plus user entries (validated in clusterctl's order; the same name+type replaces a
 * built-in, others are appended), sorted by (type order, name bytes). Throws ConfigError for an invalid user entry.
 */
export function listProviders(userProviders: readonly UserProvider[] = []): ProviderConfig[] {
  const byKey = new Map<string, ProviderConfig>();
  for (const p of builtinProviders) byKey.set(`${p.name}\u0000${p.type}`, { ...p });
  for (const u of userProviders) {
    const problem = providerProblem(u);
    if (problem !== null) {
      throw new ConfigError(
        `error validating configuration for the ${u.type} with name ${u.name}. Please fix the providers value in clusterctl configuration file: ${problem}`,
        { where: u.where, hint: 'fix this providers entry in the clusterctl configuration file' },
      );
    }
    byKey.set(`${u.name}\u0000${u.type}`, { name: u.name, type: u.type, url: u.url });
  }
  return [...byKey.values()].sort(
    (a, b) => providerTypeOrder(a.type) - providerTypeOrder(b.type) || compareGoStrings(a.name, b.name),
  );
}

/** Levenshtein distance (for "did you mean"). */
export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j] ?? 0;
      prev[j] = Math.min((prev[j] ?? 0) + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length] ?? 0;
}

/**
 * The known names closest to `name` (best first): names of the same type first; a name containing or contained in
 * the query counts as close. At most `limit`.
 */
export function closestProviderNames(name: string, type: string, list: readonly ProviderConfig[], limit = 3): string[] {
  const sameType = [...new Set(list.filter((p) => p.type === type).map((p) => p.name))];
  const score = (n: string): number => {
    const d = levenshtein(name, n);
    const partial = n.includes(name) || name.includes(n) || n.split('-').includes(name) ? Math.min(d, 2) : d;
    return partial;
  };
  const scored = sameType
    .map((n) => ({ n, s: score(n) }))
    .filter(({ n, s }) => s <= Math.max(2, Math.floor(Math.max(n.length, name.length) / 2)))
    .sort((a, b) => a.s - b.s || compareGoStrings(a.n, b.n));
  return scored.slice(0, limit).map((x) => x.n);
}

/**
 * The names among `candidates` closest to `name` (best first, at most `limit`) for a "did you mean": case is ignored
 * (`clustertopology` → `ClusterTopology`), and a name at more than a third of its length away is no suggestion.
 */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const lower = name.toLowerCase();
  return [...new Set(candidates)]
    .filter((n) => n !== name)
    .map((n) => ({ n, d: levenshtein(lower, n.toLowerCase()) }))
    .filter(({ n, d }) => d <= Math.max(2, Math.floor(Math.max(n.length, name.length) / 3)))
    .sort((a, b) => a.d - b.d || compareGoStrings(a.n, b.n))
    .slice(0, limit)
    .map((x) => x.n);
}

/** `an InfrastructureProvider (--infrastructure, or providers.infrastructure in capi.config)`. */
function whereTypeGoes(type: string): string {
  const article = /^(Infrastructure|IPAM|Addon)/.test(type) ? 'an' : 'a';
  const place = providerTypePlace(type);
  return `${article} ${type}${place ? ` (--${place.flag}, or providers.${place.key} in capi.config)` : ''}`;
}

/**
 * `providers.Get(name, type)`. Unknown → ResolutionError with clusterctl's message and a hint naming the closest
 * known providers of that type (and the types the name exists for).
 */
export function getProvider(name: string, type: string, userProviders: readonly UserProvider[] = []): ProviderConfig {
  const list = listProviders(userProviders);
  const found = list.find((p) => p.name === name && p.type === type);
  if (found) return found;
  const hints: string[] = [];
  const otherTypes = list.filter((p) => p.name === name).map((p) => p.type);
  if (otherTypes.length > 0) hints.push(`"${name}" is ${otherTypes.map(whereTypeGoes).join('; also ')}`);
  const close = closestProviderNames(name, type, list);
  if (close.length > 0) hints.push(`closest known ${type} names: ${close.join(', ')}`);
  hints.push('or add a providers: entry (name, url, type) to clusterctl.yaml');
  throw new ResolutionError(
    `failed to get configuration for the ${type} with name ${name}. Please check the provider name and/or add configuration for new providers using the .clusterctl config file`,
    { hint: hints.join('; '), where: `${type} ${name}` },
    'E_UNKNOWN_PROVIDER',
  );
}

/** Go `filepath.Split`: directory part including the trailing `/`, and the last element. */
export function splitUrl(url: string): { dir: string; file: string } {
  const i = url.lastIndexOf('/');
  return { dir: url.slice(0, i + 1), file: url.slice(i + 1) };
}

/** `clusterctl config repositories` text output. */
export function formatRepositoriesText(list: readonly ProviderConfig[]): string {
  const rows = [['NAME', 'TYPE', 'URL', 'FILE']];
  for (const p of list) {
    const { dir, file } = splitUrl(p.url);
    rows.push([p.name, p.type, dir, file]);
  }
  return tabwriteRows(rows, clusterctlTable);
}

/** A string as go-yaml v2 would emit it as a plain or double-quoted scalar. */
function yamlString(s: string): string {
  if (s === '') return '""';
  const special =
    /^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(s) ||
    /[\s]$/.test(s) ||
    /: |\s#/.test(s) ||
    /:$/.test(s) ||
     
    /[\x00-\x1f\x7f]/.test(s) ||
    /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/.test(s) ||
    /^[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?$/.test(s) ||
    /^[-+]?0[xob]/i.test(s) ||
    /^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(s);
  return special ? JSON.stringify(s) : s;
}

/**
 * `clusterctl config repositories -o yaml`: a list of `{File, Name, ProviderType, URL}` (keys sorted, as
 * sigs.k8s.io/yaml emits a JSON-tagged struct).
 */
export function formatRepositoriesYaml(list: readonly ProviderConfig[]): string {
  let out = '';
  for (const p of list) {
    const { dir, file } = splitUrl(p.url);
    out += `- File: ${yamlString(file)}\n  Name: ${yamlString(p.name)}\n  ProviderType: ${yamlString(p.type)}\n  URL: ${yamlString(dir)}\n`;
  }
  return out === '' ? '[]\n' : out;
}
