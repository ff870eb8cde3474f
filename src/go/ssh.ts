/**
 * `ssh.ParseAuthorizedKey` of golang.org/x/crypto/ssh (keys.go): whether a line of an `authorized_keys` file holds a
 * public key Go can parse. Only the answer is reproduced (the key is not returned): the line's options and key type
 * word are skipped as Go skips them, the base64 blob is decoded and the wire-format key inside is parsed by its own
 * algorithm name (RSA, DSA, ECDSA, Ed25519 and their security-key variants), with Go's structural checks. Known gap:
 * an ECDSA point is checked for its uncompressed form and length, not for lying on the curve; OpenSSH certificates
 * are accepted by algorithm name without parsing the certificate.
 */

/** At most this many bytes are looked at: an authorized key is a few kilobytes at most. */
const maxInput = 1 << 20;

/** `parseString`: a uint32 length and that many bytes. */
function readString(b: Uint8Array, at: number): { value: Uint8Array; next: number } | null {
  if (b.length - at < 4) return null;
  const n = ((b[at] as number) * 0x1000000 + ((b[at + 1] as number) << 16) + ((b[at + 2] as number) << 8) + (b[at + 3] as number)) >>> 0;
  if (b.length - at - 4 < n) return null;
  return { value: b.subarray(at + 4, at + 4 + n), next: at + 4 + n };
}

/** `parseInt` (an mpint, two's complement big-endian) as a bigint. */
function readMpint(b: Uint8Array, at: number): { value: bigint; next: number } | null {
  const s = readString(b, at);
  if (!s) return null;
  let v = 0n;
  for (const x of s.value) v = (v << 8n) | BigInt(x);
  if (s.value.length > 0 && ((s.value[0] as number) & 0x80) !== 0) v -= 1n << BigInt(8 * s.value.length);
  return { value: v, next: s.next };
}

const text = (b: Uint8Array): string => new TextDecoder('latin1').decode(b);

const bitLen = (v: bigint): number => (v < 0n ? -v : v).toString(2).replace(/^0$/, '').length;

const ecdsaCurves: Readonly<Record<string, { curve: string; pointBytes: number }>> = {
  'ecdsa-sha2-nistp256': { curve: 'nistp256', pointBytes: 65 },
  'ecdsa-sha2-nistp384': { curve: 'nistp384', pointBytes: 97 },
  'ecdsa-sha2-nistp521': { curve: 'nistp521', pointBytes: 133 },
};

const certAlgorithms = new Set([
  'ssh-rsa-cert-v01@openssh.com',
  'ssh-dss-cert-v01@openssh.com',
  'ecdsa-sha2-nistp256-cert-v01@openssh.com',
  'ecdsa-sha2-nistp384-cert-v01@openssh.com',
  'ecdsa-sha2-nistp521-cert-v01@openssh.com',
  'sk-ecdsa-sha2-nistp256-cert-v01@openssh.com',
  'ssh-ed25519-cert-v01@openssh.com',
  'sk-ssh-ed25519-cert-v01@openssh.com',
]);

/** `parseECDSA` after the algorithm name: the curve name and an uncompressed point (`elliptic.Unmarshal`). */
function ecdsaRest(b: Uint8Array, at: number, curve: { curve: string; pointBytes: number }): number | null {
  const name = readString(b, at);
  if (!name || text(name.value) !== curve.curve) return null;
  const point = readString(b, name.next);
  if (!point || point.value.length !== curve.pointBytes || point.value[0] !== 4) return null;
  return point.next;
}

/** `parsePubKey`: where the key of `algo` ends in `b`, or null when Go refuses it. */
function keyEnd(algo: string, b: Uint8Array, at: number): number | null {
  switch (algo) {
    case 'ssh-rsa': {
      const e = readMpint(b, at);
      const n = e && readMpint(b, e.next);
      if (!e || !n) return null;
      if (bitLen(e.value) > 24) return null; // "ssh: exponent too large"
      if (e.value < 3n || (e.value & 1n) === 0n) return null; // "ssh: incorrect exponent"
      return n.next;
    }
    case 'ssh-dss': {
      let next = at;
      for (let i = 0; i < 4; i++) {
        const v = readMpint(b, next);
        if (!v) return null;
        next = v.next;
      }
      return next;
    }
    case 'ssh-ed25519': {
      const k = readString(b, at);
      return k && k.value.length === 32 ? k.next : null;
    }
    case 'sk-ssh-ed25519@openssh.com': {
      const k = readString(b, at);
      const app = k && k.value.length === 32 ? readString(b, k.next) : null;
      return app ? app.next : null;
    }
    case 'sk-ecdsa-sha2-nistp256@openssh.com': {
      const next = ecdsaRest(b, at, ecdsaCurves['ecdsa-sha2-nistp256'] as { curve: string; pointBytes: number });
      const app = next === null ? null : readString(b, next);
      return app ? app.next : null;
    }
    default: {
      const curve = ecdsaCurves[algo];
      if (curve) return ecdsaRest(b, at, curve);
      return certAlgorithms.has(algo) ? b.length : null; // "ssh: unknown key algorithm"
    }
  }
}

/** `ssh.ParsePublicKey`: a wire-format key with nothing after it. */
export function isSshPublicKey(blob: Uint8Array): boolean {
  const algo = readString(blob, 0);
  if (!algo) return false;
  const end = keyEnd(text(algo.value), blob, algo.next);
  return end === blob.length; // otherwise "ssh: trailing junk in public key"
}

/**
 * Go's `base64.StdEncoding.DecodeString`: the standard alphabet with `=` padding, CR and LF ignored; null where Go
 * returns an error.
 */
export function decodeStdBase64(s: string): Uint8Array | null {
  const t = s.replace(/[\r\n]/g, '');
  if (t.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t)) return null;
  return new Uint8Array(Buffer.from(t, 'base64'));
}

const isBlank = (c: number | undefined): boolean => c === 0x20 || c === 0x09;

function trimSpace(b: Uint8Array): Uint8Array {
  let s = 0;
  let e = b.length;
  const ws = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;
  while (s < e && ws(b[s])) s++;
  while (e > s && ws(b[e - 1])) e--;
  return b.subarray(s, e);
}

function indexBlank(b: Uint8Array): number {
  for (let i = 0; i < b.length; i++) if (isBlank(b[i])) return i;
  return -1;
}

/** `parseAuthorizedKey`: the base64 key (up to the next blank) after the key type word. */
function parsesAfterType(b: Uint8Array): boolean {
  const t = trimSpace(b);
  let i = indexBlank(t);
  if (i === -1) i = t.length;
  // Go decodes into a buffer with base64.StdEncoding.Decode, which also ignores CR/LF: none are left in a line here.
  const blob = decodeStdBase64(text(t.subarray(0, i)));
  return blob !== null && isSshPublicKey(blob);
}

/** The options field Go skips before the key type (`ParseAuthorizedKey`): where the key type starts, or -1. */
function afterOptions(line: Uint8Array): number {
  let inQuote = false;
  let i = 0;
  for (i = 0; i < line.length; i++) {
    const c = line[i];
    if (!inQuote && isBlank(c)) break;
    if (c === 0x22 && (i === 0 || line[i - 1] !== 0x5c)) inQuote = !inQuote;
  }
  if (i === line.length) i = line.length - 1; // Go's range loop leaves i at the last index when it does not break
  while (i < line.length && isBlank(line[i])) i++;
  return i === line.length ? -1 : i;
}

/** Whether `ssh.ParseAuthorizedKey(in)` finds a key (returns no error). */
export function parsesAsAuthorizedKey(input: Uint8Array): boolean {
  let rest: Uint8Array | null = input.subarray(0, Math.min(input.length, maxInput));
  while (rest !== null && rest.length > 0) {
    let line: Uint8Array = rest;
    const nl = line.indexOf(0x0a);
    if (nl !== -1) {
      rest = line.subarray(nl + 1);
      line = line.subarray(0, nl);
    } else rest = null;
    const cr = line.indexOf(0x0d);
    if (cr !== -1) line = line.subarray(0, cr);
    line = trimSpace(line);
    if (line.length === 0 || line[0] === 0x23) continue;
    const i = indexBlank(line);
    if (i === -1) continue;
    if (parsesAfterType(line.subarray(i))) return true;
    const start = afterOptions(line);
    if (start === -1) continue;
    const typed = line.subarray(start);
    const j = indexBlank(typed);
    if (j === -1) continue;
    if (parsesAfterType(typed.subarray(j))) return true;
  }
  return false; // "ssh: no key found"
}
