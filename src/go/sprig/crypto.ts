/**
 * sprig's crypto.go. derivePassword and decryptAES are deterministic and computed exactly; encryptAES takes its IV
 * from the inputs instead of crypto/rand (a valid ciphertext decryptAES reads back, but not CAPI's bytes). Key and
 * certificate generation and bcrypt draw fresh randomness on every call in Go: capiform fails them with an error
 * rather than invent keys. All of these are listed in nondeterministicSprigFunctions.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, createPrivateKey, scryptSync, X509Certificate } from 'node:crypto';
import { chargeScrypt, GoNumber, GoObject, type GoValue } from '../template/index.js';
import { decodeBase64 } from './encoding.js';
import { fn, goError, str, type FuncTable } from './func.js';
import { fromUtf8, sliceBoundsError, utf8 } from './text.js';

const passwordTypeTemplates: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: [
    'CvcvnoCvcvCvcv', 'CvcvCvcvnoCvcv', 'CvcvCvcvCvcvno', 'CvccnoCvcvCvcv', 'CvccCvcvnoCvcv', 'CvccCvcvCvcvno',
    'CvcvnoCvccCvcv', 'CvcvCvccnoCvcv', 'CvcvCvccCvcvno', 'CvcvnoCvcvCvcc', 'CvcvCvcvnoCvcc', 'CvcvCvcvCvccno',
    'CvccnoCvccCvcv', 'CvccCvccnoCvcv', 'CvccCvccCvcvno', 'CvcvnoCvccCvcc', 'CvcvCvccnoCvcc', 'CvcvCvccCvccno',
    'CvccnoCvcvCvcc', 'CvccCvcvnoCvcc', 'CvccCvcvCvccno',
  ],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};
const templateCharacters: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};

function uint32be(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** The Master Password algorithm sprig's derivePassword implements. */
function derivePassword(counter: number, passwordType: string, password: string, user: string, site: string): string {
  const templates = passwordTypeTemplates[passwordType];
  if (templates === undefined) return `cannot find password template ${passwordType}`;
  const seedPrefix = Buffer.from('com.lyndir.masterpassword');
  const userBytes = Buffer.from(utf8(user));
  const salt = Buffer.concat([seedPrefix, uint32be(userBytes.length), userBytes]);
  const key = scryptSync(Buffer.from(utf8(password)), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 256 * 1024 * 1024 });
  const siteBytes = Buffer.from(utf8(site));
  const seed = createHmac('sha256', key)
    .update(Buffer.concat([seedPrefix, uint32be(siteBytes.length), siteBytes, uint32be(counter)]))
    .digest();
  const template = templates[(seed[0] ?? 0) % templates.length] ?? '';
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const chars = templateCharacters[template[i] ?? ''] ?? '';
    out += chars[(seed[i + 1] ?? 0) % chars.length] ?? '';
  }
  return out;
}

/** The AES-256 key sprig builds: the password's bytes in a zeroed 32-byte buffer. */
function aesKey(password: string): Buffer {
  const key = Buffer.alloc(32);
  Buffer.from(utf8(password)).copy(key, 0, 0, 32);
  return key;
}

function encryptAES(password: string, plaintext: string): string {
  if (plaintext === '') return '';
  const key = aesKey(password);
  const content = Buffer.from(utf8(plaintext));
  const padding = 16 - (content.length % 16);
  const padded = Buffer.concat([content, Buffer.alloc(padding, padding)]);
  const iv = createHash('sha256').update(key).update(content).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
  return Buffer.concat([iv, cipher.update(padded), cipher.final()]).toString('base64');
}

function decryptAES(password: string, crypt64: string): string {
  if (crypt64 === '') return '';
  const crypt = decodeBase64(crypt64);
  if (typeof crypt === 'string') return goError(crypt);
  const boundsErr = sliceBoundsError(0, 16, crypt.length);
  if (boundsErr !== null) goError(boundsErr);
  const body = crypt.subarray(16);
  if (body.length % 16 !== 0) goError('crypto/cipher: input not full blocks');
  const decipher = createDecipheriv('aes-256-cbc', aesKey(password), crypt.subarray(0, 16)).setAutoPadding(false);
  const decrypted = Buffer.concat([decipher.update(body), decipher.final()]);
  if (decrypted.length === 0) goError('runtime error: index out of range [-1]');
  const pad = decrypted[decrypted.length - 1] ?? 0;
  const end = decrypted.length - pad;
  const err = sliceBoundsError(0, end, decrypted.length);
  if (err !== null) goError(err);
  return fromUtf8(decrypted.subarray(0, end));
}

/** sprig's `certificate` struct: the PEM texts of a certificate and its key. */
export class SprigCertificate extends GoObject {
  readonly goType = 'sprig.certificate';
  constructor(
    readonly cert: string,
    readonly key: string,
  ) {
    super();
  }
  override field(name: string): GoValue | undefined {
    return name === 'Cert' ? this.cert : name === 'Key' ? this.key : undefined;
  }
  format(): string {
    return `{${this.cert} ${this.key}}`;
  }
  /** encoding/json of the struct: its exported fields. */
  marshalJSON(): GoValue {
    return new Map<string, GoValue>([
      ['Cert', this.cert],
      ['Key', this.key],
    ]);
  }
}

/** encoding/pem.Decode of the first block: its type and bytes, or null. */
function pemDecode(text: string): { type: string; bytes: Buffer } | null {
  const m = /-----BEGIN ([^\n]*?)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) return null;
  const body = (m[2] ?? '')
    .split(/\r?\n/)
    .filter((line) => !line.includes(':'))
    .join('');
  return { type: m[1] ?? '', bytes: Buffer.from(body, 'base64') };
}

/** sprig's buildCustomCertificate: validates a base64 PEM certificate and key and returns them as given. */
function buildCustomCert(b64cert: string, b64key: string): SprigCertificate {
  const cert = decodeBase64(b64cert);
  if (typeof cert === 'string') goError('unable to decode base64 certificate');
  const key = decodeBase64(b64key);
  if (typeof key === 'string') goError('unable to decode base64 private key');
  const certText = fromUtf8(cert as Uint8Array);
  const keyText = fromUtf8(key as Uint8Array);
  const block = pemDecode(certText);
  if (block === null) goError('unable to decode certificate');
  try {
    new X509Certificate(block?.bytes ?? Buffer.alloc(0));
  } catch {
    goError('error parsing certificate: decodedCert.Bytes: x509: malformed certificate');
  }
  const keyBlock = pemDecode(keyText);
  if (keyBlock === null) goError('error parsing private key: no PEM data in input');
  const type = keyBlock?.type ?? '';
  const formats: Record<string, { type: 'pkcs8' | 'pkcs1' | 'sec1'; what: string }> = {
    'PRIVATE KEY': { type: 'pkcs8', what: 'decoding PEM as PKCS#8' },
    'RSA PRIVATE KEY': { type: 'pkcs1', what: 'parsing RSA private key from PEM' },
    'EC PRIVATE KEY': { type: 'sec1', what: 'parsing EC private key from PEM' },
  };
  const format = formats[type];
  if (format === undefined) {
    if (!type.endsWith(' PRIVATE KEY')) goError(`error parsing private key: no private key data in PEM block of type ${type}`);
    goError(`error parsing private key: capiform cannot check a ${type} block`);
  }
  try {
    createPrivateKey({ key: keyBlock?.bytes ?? Buffer.alloc(0), format: 'der', type: format?.type ?? 'pkcs8' });
  } catch {
    goError(`error parsing private key: ${format?.what ?? ''}: asn1: structure error`);
  }
  return new SprigCertificate(certText, keyText);
}

function random(name: string): never {
  return goError(
    `capiform: ${name} generates new random keys or salts on every call in Go, so CAPI's result cannot be reproduced offline`,
  );
}

export function cryptoFuncs(): FuncTable {
  const cert = 'sprig.certificate';
  const list = '[]interface {}';
  return {
    bcrypt: fn('bcrypt', ['string'], ['string'], () => random('bcrypt')),
    htpasswd: fn('htpasswd', ['string', 'string'], ['string'], (a) =>
      str(a[0]).includes(':') ? `invalid username: ${str(a[0])}` : random('htpasswd'),
    ),
    genPrivateKey: fn('genPrivateKey', ['string'], ['string'], (a) => {
      const typ = str(a[0]);
      return ['', 'rsa', 'dsa', 'ecdsa', 'ed25519'].includes(typ) ? random('genPrivateKey') : `Unknown type ${typ}`;
    }),
    derivePassword: fn('derivePassword', ['uint32', 'string', 'string', 'string', 'string'], ['string'], (a) => {
      const c = a[0];
      const counter = c instanceof GoNumber ? Number(c.value) : typeof c === 'bigint' ? Number(c) : 0;
      chargeScrypt();
      return derivePassword(counter, str(a[1]), str(a[2]), str(a[3]), str(a[4]));
    }),
    buildCustomCert: fn('buildCustomCert', ['string', 'string'], [cert, 'error'], (a) => buildCustomCert(str(a[0]), str(a[1]))),
    genCA: fn('genCA', ['string', 'int'], [cert, 'error'], () => random('genCA')),
    genCAWithKey: fn('genCAWithKey', ['string', 'int', 'string'], [cert, 'error'], () => random('genCAWithKey')),
    genSelfSignedCert: fn('genSelfSignedCert', ['string', list, list, 'int'], [cert, 'error'], () => random('genSelfSignedCert')),
    genSelfSignedCertWithKey: fn('genSelfSignedCertWithKey', ['string', list, list, 'int', 'string'], [cert, 'error'], () =>
      random('genSelfSignedCertWithKey'),
    ),
    genSignedCert: fn('genSignedCert', ['string', list, list, 'int', cert], [cert, 'error'], () => random('genSignedCert')),
    genSignedCertWithKey: fn('genSignedCertWithKey', ['string', list, list, 'int', cert, 'string'], [cert, 'error'], () =>
      random('genSignedCertWithKey'),
    ),
    encryptAES: fn('encryptAES', ['string', 'string'], ['string', 'error'], (a) => encryptAES(str(a[0]), str(a[1]))),
    decryptAES: fn('decryptAES', ['string', 'string'], ['string', 'error'], (a) => decryptAES(str(a[0]), str(a[1]))),
  };
}

