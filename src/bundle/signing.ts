/**
 * Bundle signatures, in the formats cosign reads: `<bundle>.sig` is the base64 DER ECDSA P-256 signature over the
 * bundle's bytes (SHA-256), as `cosign sign-blob --key` writes it (and `openssl dgst -sha256 -verify` checks once
 * decoded); `<bundle>.intoto.jsonl` is the DSSE envelope of the provenance statement, signed over DSSE's PAE with
 * the same key. Keys are read by the caller and only held here: no key byte is ever written or printed.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { InputError } from '../errors.js';

export const intotoPayloadType = 'application/vnd.in-toto+json';

/** DSSE's pre-authentication encoding: `DSSEv1 <len(type)> <type> <len(body)> <body>`. */
export function pae(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${payload.length} `), payload]);
}

function p256(key: KeyObject, file: string, what: 'private' | 'public'): KeyObject {
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    const kind = key.asymmetricKeyType === 'ec' ? `an EC key on ${key.asymmetricKeyDetails?.namedCurve ?? 'another curve'}` : `a ${key.asymmetricKeyType ?? 'non-asymmetric'} key`;
    throw new InputError(`${file} is ${kind}; capiform signs and verifies with ECDSA P-256 keys`, {
      where: file,
      hint: `make one with \`cosign generate-key-pair\` (then decrypt it, see docs/signing.md) or \`openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out ${what === 'private' ? 'cosign.key' : 'key.pem'}\``,
    });
  }
  return key;
}

/** A PEM ECDSA P-256 private key (PKCS#8 or SEC1); encrypted keys are refused with what to do. */
export function loadSigningKey(pem: Uint8Array, file: string): KeyObject {
  const text = Buffer.from(pem).toString('utf8');
  if (/-----BEGIN ENCRYPTED (SIGSTORE |COSIGN )?PRIVATE KEY-----/.test(text) || /Proc-Type: 4,ENCRYPTED/.test(text)) {
    throw new InputError(`${file} is an encrypted private key; capiform reads unencrypted PEM keys only (encrypted cosign keys are not supported)`, {
      where: file,
      hint:
        'export it unencrypted for the signing step: `openssl pkcs8 -in key.pem -nocrypt -topk8 -out signing.pem` for an encrypted PKCS#8 key; ' +
        'for a cosign key, sign with a key made by `openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt` instead',
    });
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    // The parser's message can quote the input: say only what kind of file is expected.
    throw new InputError(`${file} is not a PEM private key`, { where: file, hint: 'give the PEM file of an ECDSA P-256 private key (-----BEGIN PRIVATE KEY----- or -----BEGIN EC PRIVATE KEY-----)' });
  }
  return p256(key, file, 'private');
}

/** A PEM public key (SPKI), as `cosign generate-key-pair` writes cosign.pub. */
export function loadVerifyKey(pem: Uint8Array, file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(pem).toString('utf8'), format: 'pem' });
  } catch {
    throw new InputError(`${file} is not a PEM public key`, { where: file, hint: 'give the PEM file of an ECDSA P-256 public key (-----BEGIN PUBLIC KEY-----), e.g. cosign.pub' });
  }
  return p256(key, file, 'public');
}

/** `cosign sign-blob`'s output: base64 of the DER signature over `bytes`' SHA-256. */
export function signBlob(bytes: Uint8Array, key: KeyObject): string {
  return sign('sha256', bytes, key).toString('base64');
}

export function verifyBlob(bytes: Uint8Array, signatureBase64: string, key: KeyObject): boolean {
  const sig = Buffer.from(signatureBase64.trim(), 'base64');
  if (sig.length === 0) return false;
  try {
    return verify('sha256', bytes, key, sig);
  } catch {
    return false;
  }
}

export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

/** The DSSE envelope of `payload`, one JSON line (in-toto's `.intoto.jsonl`). */
export function dsseEnvelope(payload: Uint8Array, key: KeyObject): string {
  const envelope: DsseEnvelope = {
    payloadType: intotoPayloadType,
    payload: Buffer.from(payload).toString('base64'),
    signatures: [{ keyid: '', sig: sign('sha256', pae(intotoPayloadType, payload), key).toString('base64') }],
  };
  return `${JSON.stringify(envelope)}\n`;
}

/** The payload of an envelope whose signature `key` made, or a reason it is not. */
export function openDsseEnvelope(text: string, key: KeyObject): { payload: Buffer } | { problem: string } {
  let env: Partial<DsseEnvelope>;
  try {
    env = JSON.parse(text.split('\n').find((l) => l.trim() !== '') ?? '') as Partial<DsseEnvelope>;
  } catch {
    return { problem: 'is not a DSSE envelope (JSON)' };
  }
  if (env.payloadType !== intotoPayloadType || typeof env.payload !== 'string' || !Array.isArray(env.signatures)) {
    return { problem: `is not a DSSE envelope of an in-toto statement (payloadType ${intotoPayloadType})` };
  }
  const payload = Buffer.from(env.payload, 'base64');
  const message = pae(env.payloadType, payload);
  const ok = env.signatures.some((s) => {
    try {
      return typeof s?.sig === 'string' && verify('sha256', message, key, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
  return ok ? { payload } : { problem: 'has no signature made by this key' };
}
