/**
 * The parts of Go's `net/url.Parse` that decide clusterctl behaviour: what fails to parse, the scheme (lower-cased),
 * host, path (unescaped) and escaped path. Not a general URL library.
 */

export interface GoUrl {
  scheme: string;
  /** Set for `scheme:opaque` URLs (no leading `/` after the scheme). */
  opaque: string;
  host: string;
  /** Unescaped path. */
  path: string;
  /** The path as written (still percent-encoded). */
  rawPath: string;
  rawQuery: string;
  fragment: string;
}

export class GoUrlError extends Error {}

function isHex(c: string): boolean {
  return /^[0-9A-Fa-f]$/.test(c);
}

/** `url.unescape` validation: every `%` must start a two-digit hex escape. Returns the decoded string. */
function unescape(s: string, mode: 'path' | 'host' | 'fragment', whole: string): string {
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const c = s[i] ?? '';
    if (c === '%') {
      const a = s[i + 1] ?? '';
      const b = s[i + 2] ?? '';
      if (!isHex(a) || !isHex(b)) {
        let bad = s.slice(i, i + 3);
        if (bad.length > 3) bad = bad.slice(0, 3);
        throw new GoUrlError(`parse ${goQ(whole)}: invalid URL escape ${goQ(bad)}`);
      }
      bytes.push(parseInt(a + b, 16));
      i += 3;
      continue;
    }
    if (mode === 'host' && c !== '' && /[^A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]/.test(c) && c.charCodeAt(0) < 0x80) {
      throw new GoUrlError(`parse ${goQ(whole)}: invalid character ${goQ(c)} in host name`);
    }
    for (const byte of enc.encode(c)) bytes.push(byte);
    i += c.length;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function goQ(s: string): string {
  return JSON.stringify(s);
}

/** Go `url.Parse(rawURL)`; throws GoUrlError with Go's message on failure. */
export function parseGoUrl(rawURL: string): GoUrl {
  const hash = rawURL.indexOf('#');
  const u = hash >= 0 ? rawURL.slice(0, hash) : rawURL;
  const frag = hash >= 0 ? rawURL.slice(hash + 1) : '';
  const url = parseNoFragment(u, rawURL);
  url.fragment = unescape(frag, 'fragment', rawURL);
  return url;
}

function parseNoFragment(rawURL: string, whole: string): GoUrl {
   
  if (/[\x00-\x1f\x7f]/.test(rawURL)) {
    throw new GoUrlError(`parse ${goQ(whole)}: net/url: invalid control character in URL`);
  }
  const url: GoUrl = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '', fragment: '' };
  if (rawURL === '') return url;
  if (rawURL === '*') {
    url.path = '*';
    return url;
  }
  // getScheme
  let rest = rawURL;
  for (let i = 0; i < rawURL.length; i++) {
    const c = rawURL[i] ?? '';
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new GoUrlError(`parse ${goQ(whole)}: missing protocol scheme`);
      url.scheme = rawURL.slice(0, i).toLowerCase();
      rest = rawURL.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && (rest.match(/\?/g) ?? []).length === 1) {
    url.rawQuery = '';
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return url;
    }
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) {
      throw new GoUrlError(`parse ${goQ(whole)}: first path segment in URL cannot contain colon`);
    }
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    let i = authority.indexOf('/');
    if (i < 0) i = authority.length;
    rest = authority.slice(i);
    authority = authority.slice(0, i);
    const at = authority.lastIndexOf('@');
    const hostPart = at >= 0 ? authority.slice(at + 1) : authority;
    url.host = parseHost(hostPart, whole);
  }
  url.rawPath = rest;
  url.path = unescape(rest, 'path', whole);
  return url;
}

function parseHost(host: string, whole: string): string {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) throw new GoUrlError(`parse ${goQ(whole)}: missing ']' in host`);
    const port = host.slice(end + 1);
    if (port !== '' && !/^:[0-9]*$/.test(port)) {
      throw new GoUrlError(`parse ${goQ(whole)}: invalid port ${goQ(port)} after host`);
    }
    return unescape(host, 'host', whole);
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0) {
    const port = host.slice(colon);
    if (!/^:[0-9]*$/.test(port)) throw new GoUrlError(`parse ${goQ(whole)}: invalid port ${goQ(port)} after host`);
  }
  return unescape(host, 'host', whole);
}

/** Go `URL.EscapedPath()` for URLs we parsed: the path as written. */
export function escapedPath(u: GoUrl): string {
  return u.rawPath;
}
