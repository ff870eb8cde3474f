/**
 * Checking a signed bundle (`bundle verify --key`, `render --bundle … --key`): `<bundle>.sig` must be a signature of
 * the bundle's bytes by the key, `<bundle>.intoto.jsonl` a DSSE envelope signed by it whose statement is the
 * bundle's own `provenance.intoto.json`. Any failure is an integrity error (exit 3) naming the file it is about.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createVerify } from 'node:crypto';
import { IntegrityError, InputError } from '../errors.js';
import { loadVerifyKey, openDsseEnvelope } from './signing.js';

/** `<bundle>.sig` and `<bundle>.intoto.jsonl`, beside the bundle. */
export function signatureFiles(bundle: string): { sig: string; envelope: string } {
  return { sig: `${bundle}.sig`, envelope: `${bundle}.intoto.jsonl` };
}

const maxSidecarBytes = 64 * 1024 * 1024;

function readSidecar(path: string, shown: string, what: string): string {
  if (!existsSync(path)) {
    throw new IntegrityError(`${shown} is missing: a bundle verified with --key needs its ${what}`, {
      where: path,
      hint: 'copy it together with the bundle; `capiform bundle --sign-key <key>` writes it beside the bundle',
    });
  }
  if (statSync(path).size > maxSidecarBytes) throw new IntegrityError(`${shown} is larger than ${maxSidecarBytes} bytes; it is not a ${what}`, { where: path });
  return readFileSync(path, 'utf8');
}

export function readVerifyKey(keyFile: string, shown: string): ReturnType<typeof loadVerifyKey> {
  let pem: Buffer;
  try {
    pem = readFileSync(keyFile);
  } catch {
    throw new InputError(`cannot read the key ${shown}`, { where: keyFile, hint: 'give the path of the PEM public key (e.g. cosign.pub) with --key' });
  }
  return loadVerifyKey(pem, shown);
}

/**
 * Verifies the signature and the envelope of `bundle` with `keyFile`; returns the signed provenance statement (to
 * compare with the one inside the bundle). `shown` is the bundle as the user named it.
 */
export async function verifyBundleSignature(bundle: string, keyFile: string, shown: string, shownKey: string): Promise<Buffer> {
  const key = readVerifyKey(keyFile, shownKey);
  const files = signatureFiles(bundle);
  const sig = readSidecar(files.sig, `${shown}.sig`, 'signature');
  const verifier = createVerify('sha256');
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(bundle);
    stream.on('data', (chunk) => verifier.update(chunk));
    stream.on('end', () => resolve());
    stream.on('error', reject);
  });
  let ok = false;
  try {
    ok = verifier.verify(key, Buffer.from(sig.trim(), 'base64'));
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new IntegrityError(`${shown}: its signature ${shown}.sig was not made over these bytes by the key ${shownKey}`, {
      where: bundle,
      hint: 'the bundle was changed after it was signed, or signed with another key: do not use it; get the bundle and its .sig again, or the right public key',
    });
  }
  const opened = openDsseEnvelope(readSidecar(files.envelope, `${shown}.intoto.jsonl`, 'provenance envelope'), key);
  if ('problem' in opened) {
    throw new IntegrityError(`${shown}.intoto.jsonl ${opened.problem} (key ${shownKey})`, {
      where: files.envelope,
      hint: 'the provenance envelope was changed or belongs to another bundle: copy the one written beside this bundle',
    });
  }
  return opened.payload;
}

/** The envelope's statement must be the provenance the bundle carries, byte for byte. */
export function checkSignedProvenance(signed: Buffer, inBundle: Uint8Array | undefined, shown: string): void {
  if (inBundle === undefined || Buffer.compare(signed, Buffer.from(inBundle)) !== 0) {
    throw new IntegrityError(`${shown}: the provenance signed in ${shown}.intoto.jsonl is not the bundle's provenance.intoto.json`, {
      where: `${shown}.intoto.jsonl`,
      hint: 'the envelope belongs to another bundle: copy the one written beside this bundle',
    });
  }
}
