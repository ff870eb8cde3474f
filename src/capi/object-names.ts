/** Kubernetes' object name rules (apimachinery's IsDNS1123Label / IsDNS1123Subdomain), for names that become paths. */

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `ns` is not a namespace name (a lowercase RFC 1123 label, at most 63 characters), or null. */
export function namespaceNameProblem(ns: string): string | null {
  if (ns.length > 63 || !dns1123Label.test(ns)) return 'a namespace is a lowercase RFC 1123 label: a-z, 0-9 and "-", starting and ending with a letter or digit, at most 63 characters';
  return null;
}

/** Why `name` is not an object name (a lowercase RFC 1123 subdomain, at most 253 characters), or null. */
export function objectNameProblem(name: string): string | null {
  if (name.length > 253 || !dns1123Subdomain.test(name)) return 'a name is a lowercase RFC 1123 subdomain: labels of a-z, 0-9 and "-" joined by ".", at most 253 characters';
  return null;
}
