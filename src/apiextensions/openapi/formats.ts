/**
 * The string formats the API server validates (kube-openapi `strfmt.Default`, restricted by apiextensions
 * `supportedVersionedFormats`): a format a version does not know is dropped from the schema, never an error.
 * Names are normalised like go-openapi (`date-time` → `datetime`).
 */

export type FormatValidator = (s: string) => boolean;

const shortNameRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const longNameRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const hostnameRe =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;

/** Go `net.ParseIP` for IPv4 dotted quads; `sloppy` accepts leading zeros like k8s `ParseIPSloppy`. */
function parseIPv4(s: string, sloppy: boolean): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]+$/.test(p)) return undefined;
    if (!sloppy && (p.length > 3 || (p.length > 1 && p.startsWith('0')))) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** Go `net.ParseIP` for IPv6 (with `::` and an embedded IPv4 tail). */
function isIPv6Text(s: string, sloppy: boolean): boolean {
  if (s.length === 0) return false;
  let groups = 0;
  let ellipsis = false;
  let rest = s;
  if (rest.startsWith('::')) {
    ellipsis = true;
    rest = rest.slice(2);
    if (rest === '') return true;
  }
  while (rest.length > 0) {
    const m = /^[0-9a-fA-F]{1,4}/.exec(rest);
    if (!m) return false;
    // An IPv4 tail takes two groups.
    if (rest.length > m[0].length && rest[m[0].length] === '.') {
      if (!ellipsis && groups !== 6) return false;
      if (groups + 2 > 8) return false;
      if (!parseIPv4(rest, sloppy)) return false;
      groups += 2;
      rest = '';
      break;
    }
    groups++;
    rest = rest.slice(m[0].length);
    if (rest === '') break;
    if (rest[0] !== ':') return false;
    if (rest.startsWith('::')) {
      if (ellipsis) return false;
      ellipsis = true;
      rest = rest.slice(2);
      if (rest === '') break;
    } else {
      rest = rest.slice(1);
      if (rest === '') return false;
    }
    if (groups > 8) return false;
  }
  return ellipsis ? groups < 8 : groups === 8;
}

function parseIP(s: string, sloppy: boolean): boolean {
  return parseIPv4(s, sloppy) !== undefined || isIPv6Text(s, sloppy);
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^[0-9]+$/.test(bits) || bits.length > 3) return false;
  const v4 = parseIPv4(addr, true) !== undefined;
  if (!v4 && !isIPv6Text(addr, true)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

/** Go `net.ParseMAC`. */
function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  if (s[2] === ':' || s[2] === '-') {
    const groups = s.split(s[2]);
    return [6, 8, 20].includes(groups.length) && groups.every((g) => /^[0-9a-fA-F]{2}$/.test(g));
  }
  if (s[4] === '.') {
    const groups = s.split('.');
    return [3, 4, 10].includes(groups.length) && groups.every((g) => /^[0-9a-fA-F]{4}$/.test(g));
  }
  return false;
}

/** Go `url.ParseRequestURI` succeeding. */
export function isRequestURI(s: string): boolean {
  if (s === '' || /[\x00-\x1f\x7f]/.test(s)) return false;
  if (s === '*') return true;
  let scheme = '';
  let rest = s;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false;
      scheme = s.slice(0, i);
      rest = s.slice(i + 1);
    }
    break;
  }
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end >= 0 ? rest.slice(2, end) : rest.slice(2);
    rest = end >= 0 ? rest.slice(end) : '';
    const at = authority.lastIndexOf('@');
    const host = at >= 0 ? authority.slice(at + 1) : authority;
    if (host.startsWith('[')) {
      const close = host.indexOf(']');
      if (close < 0) return false;
      const port = host.slice(close + 1);
      if (port !== '' && !/^:[0-9]*$/.test(port)) return false;
    } else {
      const colon = host.lastIndexOf(':');
      if (colon >= 0 && !/^[0-9]*$/.test(host.slice(colon + 1))) return false;
      if (/[^A-Za-z0-9\-._~!$&'()*+,;=:%\u0080-\uffff]/.test(host)) return false;
    }
  }
  return !/%(?![0-9a-fA-F]{2})/.test(rest);
}

/** `net/mail.ParseAddress` accepting an address (optionally `Name <addr>`): RFC 5322 dot-atoms or quoted local parts. */
function isEmail(s: string): boolean {
  let addr = s.trim();
  const angle = /^(.*)<([^<>]*)>$/.exec(addr);
  if (angle) addr = (angle[2] as string).trim();
  const at = addr.lastIndexOf('@');
  if (at <= 0 || at === addr.length - 1) return false;
  const local = addr.slice(0, at);
  const domain = addr.slice(at + 1);
  const atom = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~\\u0080-\\uffff]+";
  const dotAtom = new RegExp(`^${atom}(\\.${atom})*$`, 'u');
  const quoted = /^"([^"\\]|\\.)*"$/;
  if (!dotAtom.test(local) && !quoted.test(local)) return false;
  return dotAtom.test(domain) || /^\[[^[\]\\]*\]$/.test(domain);
}

function isISBN10(s: string): boolean {
  const t = s.replace(/[\s-]+/g, '');
  if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(t[i]);
  sum += t[9] === 'X' ? 100 : 10 * Number(t[9]);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const t = s.replace(/[\s-]+/g, '');
  if (!/^[0-9]{13}$/.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(t[i]);
  return Number(t[12]) - ((10 - (sum % 10)) % 10) === 0;
}

function isCreditCard(s: string): boolean {
  const t = s.replace(/[^0-9]+/g, '');
  if (
    !/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/.test(
      t,
    )
  ) {
    return false;
  }
  let sum = 0;
  let double = false;
  for (let i = t.length - 1; i >= 0; i--) {
    let n = Number(t[i]);
    if (double) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

/** `time.Parse("2006-01-02", s)`. */
export function isDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] as number;
  return d <= days;
}

function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] as string)) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/.exec(parts[1] as string);
  if (!m) return false;
  return (m[1] as string) <= '23' && (m[2] as string) <= '59' && (m[3] as string) <= '59';
}

/** `time.ParseDuration`. */
function isGoDuration(s: string): boolean {
  let rest = s.replace(/^[-+]/, '');
  if (rest === '0') return true;
  if (rest === '') return false;
  while (rest !== '') {
    const m = /^([0-9]*(\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (!m || m[1] === '' || m[1] === '.') return false;
    rest = rest.slice(m[0].length);
  }
  return true;
}

const durationUnits = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt `ParseDuration`: Go durations, or `<n> <unit>` pairs such as `3 days`. */
function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  for (const m of s.matchAll(/((\d+)\s*([A-Za-zµ]+))/g)) {
    const unit = (m[3] as string).trim().toLowerCase();
    for (const variants of durationUnits) {
      const last = variants.length - 1;
      if (variants.some((v, i) => (i === last && unit.startsWith(v)) || v === unit)) return true;
    }
  }
  return false;
}

const validators: Record<string, FormatValidator> = {
  uri: isRequestURI,
  email: isEmail,
  hostname: (s) => hostnameRe.test(s) && s.length <= 255 && s.split('.').every((p) => p.length <= 63),
  ipv4: (s) => parseIP(s, true) && s.includes('.'),
  ipv6: (s) => parseIP(s, false) && s.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid3: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  uuid4: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  uuid5: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) =>
    /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/.test(s),
  byte: (s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/.test(s),
  password: () => true,
  date: isDate,
  datetime: isDateTime,
  duration: isDuration,
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  k8sshortname: (s) => s.length <= 63 && shortNameRe.test(s),
  k8slongname: (s) => s.length <= 253 && longNameRe.test(s),
};

/** go-openapi's name normalisation. */
export function normalizeFormat(name: string): string {
  return name.replaceAll('-', '');
}

/** Formats introduced after 1.0, with the Kubernetes minor that added them. */
const introducedIn: Record<string, number> = { k8sshortname: 34, k8slongname: 34 };

/**
 * The format the API server keeps for a schema node (`StripUnsupportedFormatsPostProcessorForVersion`): unknown or
 * too-new string formats, integer formats other than int32/int64 and number formats other than float/double become "".
 */
export function effectiveFormat(format: string | undefined, types: readonly string[], minor: number): string {
  if (!format) return '';
  const type = types.length === 1 ? (types[0] as string) : '';
  switch (type) {
    case '':
    case 'string': {
      const n = normalizeFormat(format);
      if (validators[n] === undefined || (introducedIn[n] ?? 0) > minor) return '';
      return format;
    }
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

/** Does the registry know this (normalised) format name? */
export function knownFormat(format: string): boolean {
  return format !== '' && validators[normalizeFormat(format)] !== undefined;
}

/** Does `s` satisfy the named format? */
export function matchesFormat(format: string, s: string): boolean {
  const v = validators[normalizeFormat(format)];
  return v === undefined || v(s);
}
