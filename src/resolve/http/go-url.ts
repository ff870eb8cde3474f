/**
 * The parts of Go's `net/url.Parse` that clusterctl's URL checks depend on: scheme, host, the unescaped path and
 * the escaped path, and Go's error texts (`parse "%gh&%ij": invalid URL escape "%gh"`). WHATWG `URL` accepts inputs
 * Go rejects and normalises paths Go keeps, so repository URLs are parsed with this instead.
 */

export interface GoUrl {
  scheme: string;
  host: string;
  /** Unescaped path (`/api/v4/projects/group/project/...`). */
  path: string;
  /** The path as written, escapes kept (`/api/v4/projects/group%2Fproject/...`), like Go's `EscapedPath()`. */
  escapedPath: string;
  rawQuery: string;
  opaque: string;
}

export class GoUrlError extends Error {}

function fail(raw: string, msg: string): never {
  throw new GoUrlError(`parse ${JSON.stringify(raw)}: ${msg}`);
}

function unescape(raw: string, s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) fail(raw, `invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

export function parseGoUrl(input: string): GoUrl {
  const raw = input;
  if (/[\x00-\x1f\x7f]/.test(raw)) fail(raw, 'net/url: invalid control character in URL');
  let rest = raw;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    unescape(raw, rest.slice(hash + 1));
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) fail(raw, 'missing protocol scheme');
      scheme = rest.slice(0, i).toLowerCase();
      rest = rest.slice(i + 1);
    }
    break;
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { scheme, host: '', path: '', escapedPath: '', rawQuery, opaque: rest };
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) fail(raw, 'first path segment in URL cannot contain colon');
  }
  let host = '';
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const authority = rest.slice(2);
    const slash = authority.indexOf('/');
    const auth = slash >= 0 ? authority.slice(0, slash) : authority;
    rest = slash >= 0 ? authority.slice(slash) : '';
    const at = auth.lastIndexOf('@');
    host = unescape(raw, at >= 0 ? auth.slice(at + 1) : auth);
  }
  const path = unescape(raw, rest);
  return { scheme, host, path, escapedPath: rest, rawQuery, opaque: '' };
}
