/**
 * The named formats of the Kubernetes CEL format library (`format.dns1123Label().validate(self)`), with
 * apimachinery's validation messages.
 */
const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;
const full = (re: string): RegExp => new RegExp(`^${re}$`);

const maxLenError = (n: number): string => `must be no more than ${n} characters`;

/** apimachinery `RegexError`. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e, i) => `${i > 0 ? ' or ' : ''}'${e}', `).join('')}regex used for validation is '${fmt}')`;
}

const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1035Msg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const qualifiedNameMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export function isDNS1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLenError(63));
  if (!full(DNS1123_LABEL).test(v)) {
    errs.push(full(DNS1123_SUBDOMAIN).test(v) ? 'must not contain dots' : regexError(labelMsg, DNS1123_LABEL, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push(maxLenError(253));
  if (!full(DNS1123_SUBDOMAIN).test(v)) errs.push(regexError(subdomainMsg, DNS1123_SUBDOMAIN, 'example.com'));
  return errs;
}

export function isDNS1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLenError(63));
  if (!full(DNS1035_LABEL).test(v)) errs.push(regexError(dns1035Msg, DNS1035_LABEL, 'my-name', 'abc-123'));
  return errs;
}

export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameMsg, QUALIFIED_NAME, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!full(QUALIFIED_NAME).test(name)) errs.push(`name part ${regexError(qualifiedNameMsg, QUALIFIED_NAME, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push(maxLenError(63));
  if (!full(LABEL_VALUE).test(v)) errs.push(regexError(labelValueMsg, LABEL_VALUE, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** apimachinery `maskTrailingDash`: a generateName prefix may end in a dash. */
const maskTrailingDash = (v: string): string => (v.length > 1 && v.endsWith('-') ? `${v.slice(0, -1)}a` : v);

const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function validDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function validDateTime(v: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(v);
  return m !== null && validDate(m[1]!) && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 61;
}

function parseRequestURI(v: string): string[] {
  const ok = /^[A-Za-z][A-Za-z0-9+.-]*:(\/\/)?[^\s]*$/.test(v) || (v.startsWith('/') && !/\s/.test(v));
  return ok ? [] : [`parse ${JSON.stringify(v)}: invalid URI for request`];
}

/** The formats by their CEL name (`format.named(name)` and `format.<name>()`). */
export const namedFormats: ReadonlyMap<string, (v: string) => string[]> = new Map<string, (v: string) => string[]>([
  ['dns1123Label', isDNS1123Label],
  ['dns1123Subdomain', isDNS1123Subdomain],
  ['dns1035Label', isDNS1035Label],
  ['qualifiedName', isQualifiedName],
  ['dns1123LabelPrefix', (v) => isDNS1123Label(maskTrailingDash(v))],
  ['dns1123SubdomainPrefix', (v) => isDNS1123Subdomain(maskTrailingDash(v))],
  ['dns1035LabelPrefix', (v) => isDNS1035Label(maskTrailingDash(v))],
  ['labelValue', isValidLabelValue],
  ['uri', parseRequestURI],
  ['uuid', (v) => (uuid.test(v) ? [] : ['does not match the UUID format'])],
  ['byte', (v) => (base64.test(v) ? [] : ['invalid base64'])],
  ['date', (v) => (validDate(v) ? [] : ['invalid date'])],
  ['datetime', (v) => (validDateTime(v) ? [] : ['invalid datetime'])],
]);
