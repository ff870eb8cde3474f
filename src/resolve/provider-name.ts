/**
 * Provider names: `name[:version]` parsing (`client/common.go` `parseProviderName`) and the validation of user
 * provider entries (`client/config/providers_client.go` `validateProvider`), with clusterctl's exact messages.
 */
import { ConfigError, UsageError } from '../errors.js';
import { parseGoUrl, goQuote } from '../go/index.js';
import { isProviderType } from '../capi/index.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123LabelRE = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRE = new RegExp(`^${dns1123SubdomainFmt}$`);

/** k8s `validation.RegexError`. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += ' or ';
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

/** k8s `validation.IsDNS1123Label`: the list of problems (empty when valid). */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123LabelRE.test(value)) {
    if (dns1123SubdomainRE.test(value)) errs.push('must not contain dots');
    else
      errs.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          dns1123LabelFmt,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errs;
}

/** k8s `validation.IsDNS1123Subdomain`. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123SubdomainRE.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        dns1123SubdomainFmt,
        'example.com',
      ),
    );
  }
  return errs;
}

export interface ProviderNameAndVersion {
  /** Lower-cased name. */
  name: string;
  /** The version verbatim (`""` when none was given). */
  version: string;
}

/**
 * `parseProviderName("aws:v2.10.3")` → `{ name: 'aws', version: 'v2.10.3' }`. The name is lower-cased and must be an
 * RFC 1123 label; the version is kept as written. Errors are UsageErrors (exit 2) with clusterctl's messages.
 */
export function parseProviderName(provider: string): ProviderNameAndVersion {
  const t = provider.split(':');
  const prefix = `invalid provider name ${goQuote(provider)}. Provider name should be in the form name[:version]`;
  const hint = 'write the provider as name or name:version, e.g. aws or aws:v2.10.3';
  if (t.length > 2) throw new UsageError(prefix, { hint });
  const name = (t[0] ?? '').toLowerCase();
  if (name === '') throw new UsageError(`${prefix} and name cannot be empty`, { hint });
  const errs = isDNS1123Label(name);
  if (errs.length > 0) throw new UsageError(`${prefix} and the name should be valid: ${errs.join('; ')}`, { hint });
  let version = '';
  if (t.length > 1) {
    version = t[1] ?? '';
    if (version === '') throw new UsageError(`${prefix} and version cannot be empty`, { hint });
  }
  return { name, version };
}

const allowedTypes =
  'CoreProvider, BootstrapProvider, InfrastructureProvider, ControlPlaneProvider, IPAMProvider, RuntimeExtensionProvider, AddonProvider';

/**
 * Checks one user provider entry like clusterctl, in clusterctl's order; returns the message of the first problem,
 * or null when the entry is valid. (`listProviders` wraps it into a ConfigError.)
 */
export function providerProblem(p: { name: string; url: string; type: string }): string | null {
  if (p.name === '') return 'name value cannot be empty';
  if (p.name.toLowerCase() !== p.name) return `provider name ${p.name} must be in lower case`;
  if ((p.name === 'cluster-api') !== (p.type === 'CoreProvider')) {
    return `name cluster-api must be used with the CoreProvider type (name: ${p.name}, type: ${p.type})`;
  }
  const errs = isDNS1123Subdomain(p.name);
  if (errs.length > 0) return `invalid provider name: ${errs.join('; ')}`;
  if (p.url === '') return 'provider URL value cannot be empty';
  try {
    parseGoUrl(p.url);
  } catch (err) {
    return `error parsing provider URL: ${(err as Error).message}`;
  }
  if (!isProviderType(p.type)) return `invalid provider type. Allowed values are [${allowedTypes}]`;
  return null;
}

/** `validateProvider`: throws a ConfigError with clusterctl's message. */
export function validateProvider(p: { name: string; url: string; type: string }, where?: string): void {
  const problem = providerProblem(p);
  if (problem !== null) throw new ConfigError(problem, { where });
}
