/**
 * Credentials never reach git in plain text. A variable is a credential when the config lists it under
 * `secrets.variables` or its name looks like one, unless `secrets.allowPlaintext` names it. Rendering substitutes a
 * marker for every credential, so its value never enters the rendered text; objects holding a marker fail the render
 * (policy "fail") or are left out of the tree (policy "omit").
 */
import type { ResolvedConfig } from './types.js';

/** Name patterns of credentials (upper-cased names; clusterctl variables are conventionally upper case). */
const credentialPatterns = [/PASSWORD/, /PASSWD/, /SECRET/, /TOKEN/, /CREDENTIAL/, /_KEY($|_)/, /^KEY_/, /APIKEY/, /B64ENCODED/, /PRIVATE/];

/** Names that mention a credential but hold a setting about it (`KUBEADM_BOOTSTRAP_TOKEN_TTL`, `AWS_SSH_KEY_NAME`). */
const settingSuffixes = /_(TTL|TIMEOUT|PERIOD|DURATION|NAME|ENABLED|LENGTH)$/;

/**
 * Names that match a credential pattern but hold something public: an SSH public key is written into machines'
 * `authorized_keys` by design (`AZURE_SSH_PUBLIC_KEY_B64`, `VSPHERE_SSH_AUTHORIZED_KEY`), and a private network's
 * address or subnet (`AZURE_INTERNAL_LB_PRIVATE_IP`, `PRIVATE_SUBNET_ID`) is no secret. Treating them as
 * credentials would leave whole machine templates and control planes out of the tree.
 */
const publicValues = [/PUBLIC_KEY/, /AUTHORIZED_KEY/, /SSH_PUB(_|$)/, /PRIVATE_(IP|IPS|SUBNET|SUBNETS|SUBNET_ID|SUBNET_IDS|DNS|ZONE|NETWORK|CIDR|ENDPOINT)($|_)/];

export function looksLikeCredential(name: string): boolean {
  const upper = name.toUpperCase();
  if (settingSuffixes.test(upper) || publicValues.some((re) => re.test(upper))) return false;
  return credentialPatterns.some((re) => re.test(upper));
}

export function isSecretVariable(name: string, config: Pick<ResolvedConfig, 'secrets'>): boolean {
  if (config.secrets.allowPlaintext.includes(name)) return false;
  return config.secrets.variables.includes(name) || looksLikeCredential(name);
}

/** The text that stands in for a credential while rendering. */
export function secretMarker(name: string): string {
  return `capiform-secret-${name}-capiform`;
}

const markerRe = /capiform-secret-([A-Za-z0-9_.-]+?)-capiform/g;

/** Credential names whose marker occurs in `text`. */
export function markersIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(markerRe)) out.add(m[1]!);
  return [...out].sort();
}

/** Every value in the config that belongs to a credential (or looks like one), for redaction. */
export function secretValues(config: ResolvedConfig): string[] {
  const values = new Set<string>();
  const add = (vars: Readonly<Record<string, string | undefined>>): void => {
    for (const [name, value] of Object.entries(vars)) {
      if (value && value.length >= 4 && (looksLikeCredential(name) || config.secrets.variables.includes(name))) values.add(value);
    }
  };
  add(config.variables);
  for (const p of config.providers) add(p.variables);
  for (const c of config.clusters) add(c.variables);
  for (const t of config.targets ?? []) for (const v of secretValues(t)) values.add(v);
  // Longest first, so a value containing another is replaced whole.
  return [...values].sort((a, b) => b.length - a.length);
}

/** Replaces every credential value (and its base64 form) in `text` with `***`. */
export function redact(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) {
    out = out.split(v).join('***');
    const b64 = Buffer.from(v).toString('base64');
    if (b64.length >= 8) out = out.split(b64).join('***');
  }
  return out;
}
