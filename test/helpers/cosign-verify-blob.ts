/**
 * `cosign verify-blob --key <pub.pem> --signature <file.sig> --insecure-ignore-tlog=true <blob>`, step by step as
 * cosign's and sigstore's Go code does it, in node:crypto. cosign has no Debian package and its binary is not on the
 * test machines, so the tests follow its code instead of running it. Each step cites the file it transcribes
 * (sigstore/cosign at d6d86c22, sigstore/sigstore at bd0ad712):
 *
 * 1. `cmd/cosign/cli/verify/verify_blob.go` `base64signature`: the `--signature` file is read as is
 *    (`pkg/blob/load.go` `LoadFileOrURL`: `os.ReadFile`, nothing trimmed). If its bytes decode with Go's
 *    `base64.StdEncoding` (`isb64`) they are the base64 signature; otherwise cosign takes them as a raw signature and
 *    base64-encodes them itself.
 * 2. `pkg/oci/static/signature.go` `NewSignature` keeps that string and the blob's bytes as the payload;
 *    `pkg/cosign/verify.go` `verifyOCISignature` decodes the string with `base64.StdEncoding.DecodeString` and hands
 *    signature and payload to the verifier. (`verifyInternal` skips the transparency log only with
 *    `--insecure-ignore-tlog`: without it cosign looks the signature up in Rekor, where a bundle signed offline is not.)
 * 3. The verifier: `pkg/signature/keys.go` `VerifierForKeyRef` → `LoadPublicKeyRaw` → sigstore's
 *    `pkg/cryptoutils/publickey.go` `UnmarshalPEMToPublicKey` (the first PEM block; type `PUBLIC KEY`, parsed by
 *    `x509.ParsePKIXPublicKey`) and `signature.LoadVerifier` with SHA-256 (verify-blob's default `HashAlgorithm`).
 * 4. sigstore's `pkg/signature/ecdsa.go` `ECDSAVerifier.VerifySignature`: digest = SHA-256 of the blob; when the
 *    signature parses as ASN.1 `SEQUENCE { INTEGER r, INTEGER s }` it must pass `ecdsa.VerifyASN1(pub, digest, sig)`.
 *    (Other bytes are read as IEEE P1363 r||s; capiform writes DER, so here they are a failure.)
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

export type CosignVerdict = { ok: true } | { ok: false; step: string };

/**
 * Go's `base64.StdEncoding.DecodeString` (encoding/base64): `\r` and `\n` are skipped anywhere; every other byte must
 * be of the standard alphabet, in quanta of 4 with `=` padding only at the end. Null when Go would return an error.
 */
export function goStdBase64Decode(text: string): Buffer | null {
  const s = text.replace(/[\r\n]/g, '');
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return null;
  return Buffer.from(s, 'base64');
}

/** Go's `pem.Decode`: the first `-----BEGIN TYPE-----` block, its type and its base64 body decoded. */
function pemDecode(text: string): { type: string; der: Buffer } | null {
  const m = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
  if (!m) return null;
  return { type: m[1]!, der: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') };
}

/** Whether `der` is exactly `SEQUENCE { INTEGER, INTEGER }` in DER (what `asn1.Unmarshal` into `struct{ R, S *big.Int }` accepts and VerifyASN1 reads). */
function isAsn1RS(der: Buffer): boolean {
  let at = 0;
  const tlv = (tag: number): number | null => {
    if (der[at] !== tag) return null;
    let len = der[at + 1];
    if (len === undefined) return null;
    at += 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 2) return null;
      len = 0;
      for (let i = 0; i < n; i++) len = (len << 8) | (der[at++] ?? 0);
    }
    return at + len <= der.length ? len : null;
  };
  const seq = tlv(0x30);
  if (seq === null || at + seq !== der.length) return false;
  for (let i = 0; i < 2; i++) {
    const n = tlv(0x02);
    if (n === null || n === 0) return false;
    at += n;
  }
  return at === der.length;
}

/** The verdict `cosign verify-blob --key --signature --insecure-ignore-tlog=true` reaches, with the step that failed. */
export function cosignVerifyBlob(publicKeyPem: string, sigFile: Uint8Array, blob: Uint8Array): CosignVerdict {
  // 1. verify_blob.go base64signature / isb64.
  const sigText = Buffer.from(sigFile).toString('latin1');
  const b64sig = goStdBase64Decode(sigText) !== null ? sigText : Buffer.from(sigFile).toString('base64');
  // 2. verify.go verifyOCISignature.
  const signature = goStdBase64Decode(b64sig);
  if (signature === null) return { ok: false, step: 'base64 decoding of the signature' };
  // 3. cryptoutils.UnmarshalPEMToPublicKey, signature.LoadVerifier.
  const block = pemDecode(publicKeyPem);
  if (block === null) return { ok: false, step: 'PEM decoding failed' };
  if (block.type !== 'PUBLIC KEY') return { ok: false, step: `unknown Public key PEM file type: ${block.type}` };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: block.der, format: 'der', type: 'spki' });
  } catch {
    return { ok: false, step: 'x509.ParsePKIXPublicKey' };
  }
  if (key.asymmetricKeyType !== 'ec') return { ok: false, step: `not an ECDSA key: ${key.asymmetricKeyType}` };
  // 4. ecdsa.go VerifySignature: SHA-256 digest of the blob, ASN.1 DER r,s, ecdsa.VerifyASN1.
  if (!isAsn1RS(signature)) return { ok: false, step: 'not an ASN.1 DER signature (IEEE P1363 is not what capiform writes)' };
  // node:crypto verifies ECDSA over a message, not a digest: `verify('sha256', blob)` hashes the blob to that digest.
  if (!verify('sha256', blob, { key, dsaEncoding: 'der' }, signature)) return { ok: false, step: 'invalid signature when validating ASN.1 encoded signature' };
  return { ok: true };
}
