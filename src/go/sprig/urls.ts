/** sprig's url.go: urlParse (net/url.Parse into a dict) and urlJoin (a dict back to URL.String()). */
import { goQuote } from '../quote.js';
import { GoUrlError, parseGoUrl } from '../url.js';
import { reflectKind, type GoValue } from '../template/index.js';
import { fn, goError, map, nilDereference, str, type FuncTable } from './func.js';
import { utf8 } from './text.js';

type EscapeMode = 'path' | 'host' | 'userPassword' | 'fragment';

/** net/url's shouldEscape for the modes URL.String uses. */
function shouldEscape(c: number, mode: EscapeMode): boolean {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9]/.test(ch)) return false;
  if (mode === 'host' && "!$&'()*+,;=:[]<>\"".includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    switch (mode) {
      case 'path':
        return ch === '?';
      case 'userPassword':
        return '@/?:'.includes(ch);
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

function escape(s: string, mode: EscapeMode): string {
  let out = '';
  for (const b of utf8(s)) {
    out += b < 0x80 && !shouldEscape(b, mode) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function unescapeUserinfo(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The userinfo of a URL as Userinfo.String() prints it, or null when the URL has none. Throws url.Parse's error for
 * userinfo it rejects (validUserinfo, bad escapes); `whole` is the URL the error names.
 */
function userinfoOf(raw: string, whole = raw): string | null {
  const noFrag = raw.split('#')[0] ?? '';
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?]*)/.exec(noFrag) ?? /^\/\/([^/?]*)/.exec(noFrag);
  if (!m) return null;
  const authority = m[1] ?? '';
  const at = authority.lastIndexOf('@');
  if (at < 0) return null;
  const userinfo = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) {
    throw new GoUrlError(`parse ${goQuote(whole)}: net/url: invalid userinfo`);
  }
  const badEscape = /%(?![0-9A-Fa-f]{2})/.exec(userinfo);
  if (badEscape) {
    throw new GoUrlError(`parse ${goQuote(whole)}: invalid URL escape ${goQuote(userinfo.slice(badEscape.index, badEscape.index + 3))}`);
  }
  return formatUserinfo(userinfo);
}

function formatUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(':');
  if (colon < 0) return escape(unescapeUserinfo(userinfo), 'userPassword');
  return `${escape(unescapeUserinfo(userinfo.slice(0, colon)), 'userPassword')}:${escape(unescapeUserinfo(userinfo.slice(colon + 1)), 'userPassword')}`;
}

/** URL.Hostname(): the host without port and IPv6 brackets. */
function hostname(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end >= 0 ? host.slice(1, end) : host.slice(1);
  }
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

function urlParse(v: string): Map<string, GoValue> {
  let u;
  let userinfo: string | null;
  try {
    u = parseGoUrl(v);
    userinfo = userinfoOf(v);
  } catch (e) {
    if (e instanceof GoUrlError) goError(`unable to parse url: ${e.message}`);
    throw e;
  }
  return new Map<string, GoValue>([
    ['scheme', u.scheme],
    ['host', u.host],
    ['hostname', hostname(u.host)],
    ['path', u.path],
    ['query', u.rawQuery],
    ['opaque', u.opaque],
    ['fragment', u.fragment],
    ['userinfo', userinfo ?? ''],
  ]);
}

function dictGetOrEmpty(d: Map<string, GoValue>, key: string): string {
  if (!d.has(key)) return '';
  const v = d.get(key) ?? null;
  if (v === null) goError(nilDereference);
  if (typeof v !== 'string') goError(`unable to parse ${key} key, must be of type string, but ${reflectKind(v)} found`);
  return v;
}

function urlJoin(d: Map<string, GoValue>): string {
  const scheme = dictGetOrEmpty(d, 'scheme');
  const host = dictGetOrEmpty(d, 'host');
  const path = dictGetOrEmpty(d, 'path');
  const query = dictGetOrEmpty(d, 'query');
  const opaque = dictGetOrEmpty(d, 'opaque');
  const fragment = dictGetOrEmpty(d, 'fragment');
  const userinfo = dictGetOrEmpty(d, 'userinfo');
  let user: string | null = null;
  if (userinfo !== '') {
    const probe = `proto://${userinfo}@host`;
    try {
      parseGoUrl(probe);
      user = userinfoOf(probe);
    } catch (e) {
      if (e instanceof GoUrlError) goError(`unable to parse userinfo in dict: ${e.message}`);
      throw e;
    }
  }
  let out = '';
  if (scheme !== '') out += `${scheme}:`;
  if (opaque !== '') {
    out += opaque;
  } else {
    if (scheme !== '' || host !== '' || user !== null) {
      if (host !== '' || path !== '' || user !== null) out += '//';
      if (user !== null) out += `${user}@`;
      if (host !== '') out += escape(host, 'host');
    }
    const p = escape(path, 'path');
    if (p !== '' && !p.startsWith('/') && host !== '') out += '/';
    if (out === '' && (p.split('/')[0] ?? '').includes(':')) out += './';
    out += p;
  }
  if (query !== '') out += `?${query}`;
  if (fragment !== '') out += `#${escape(fragment, 'fragment')}`;
  return out;
}

export function urlFuncs(): FuncTable {
  const dictType = 'map[string]interface {}';
  return {
    urlParse: fn('urlParse', ['string'], [dictType], (a) => urlParse(str(a[0]))),
    urlJoin: fn('urlJoin', [dictType], ['string'], (a) => urlJoin(map(a[0]) ?? new Map())),
  };
}
