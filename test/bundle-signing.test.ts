/**
 * Signed bundles: `bundle --sign-key` writes `<bundle>.sig` (cosign sign-blob's format: base64 DER ECDSA P-256 over
 * the bundle's SHA-256) and `<bundle>.intoto.jsonl` (the DSSE envelope of the bundle's SLSA provenance), both checked
 * here by openssl; the bundle itself stays byte-identical, signed or not; `bundle verify --key` and
 * `render --bundle --key` refuse a tampered bundle, a wrong key and a missing signature (exit 3, naming the file).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../src/bundle/archive.js';
import { bundleContents } from '../src/bundle/verify.js';
import { pae } from '../src/bundle/signing.js';
import { bundleProject } from './helpers/bundle-project.js';
import { cosignVerifyBlob, goStdBase64Decode } from './helpers/cosign-verify-blob.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';
import { runCli } from './helpers/cli.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { tempDir } from './helpers/testdir.js';

const openssl = (...args: string[]): string => execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Keys as openssl makes them: a PKCS#8 P-256 private key, its public key, another pair, an encrypted key, an RSA key. */
function keys(): { dir: string; key: string; pub: string; otherPub: string; sec1: string; encrypted: string; rsa: string } {
  const dir = tempDir('capiform-keys-');
  const at = (f: string): string => join(dir, f);
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', at('sec1.pem'));
  openssl('pkcs8', '-topk8', '-nocrypt', '-in', at('sec1.pem'), '-out', at('key.pem'));
  openssl('ec', '-in', at('key.pem'), '-pubout', '-out', at('pub.pem'));
  openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', at('other.pem'));
  openssl('ec', '-in', at('other.pem'), '-pubout', '-out', at('other.pub'));
  openssl('pkcs8', '-topk8', '-v2', 'aes-256-cbc', '-passout', 'pass:hunter22', '-in', at('sec1.pem'), '-out', at('encrypted.pem'));
  openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', at('rsa.pem'));
  return { dir, key: at('key.pem'), pub: at('pub.pem'), otherPub: at('other.pub'), sec1: at('sec1.pem'), encrypted: at('encrypted.pem'), rsa: at('rsa.pem') };
}

describe('signed bundles', () => {
  let k: ReturnType<typeof keys>;
  let dir: string;
  let bundle: Buffer;
  const env = { PATH: process.env.PATH, CAPIFORM_CACHE_DIR: tempDir('capiform-cache-') };
  beforeAll(async () => {
    k = keys();
    dir = fixtureProject();
    const render = await runCli(['render'], { cwd: dir, env });
    expect(render.code, render.stderr).toBe(0);
    const r = await runCli(['bundle', '--out', 'dist/b.tar.gz', '--sign-key', k.key], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('signed: dist/b.tar.gz.sig, dist/b.tar.gz.intoto.jsonl\n');
    bundle = readFileSync(join(dir, 'dist/b.tar.gz'));
  }, 60_000);

  it('writes <bundle>.sig that openssl verifies with the public key; the bundle is byte-identical to an unsigned one', async () => {
    const sig = readFileSync(join(dir, 'dist/b.tar.gz.sig'), 'utf8');
    expect(sig).toMatch(/^[A-Za-z0-9+/]+=*$/);
    writeFileSync(join(k.dir, 'raw.sig'), Buffer.from(sig, 'base64'));
    expect(openssl('dgst', '-sha256', '-verify', k.pub, '-signature', join(k.dir, 'raw.sig'), join(dir, 'dist/b.tar.gz'))).toBe('Verified OK\n');
    const unsigned = await runCli(['bundle', '--out', 'unsigned/b.tar.gz'], { cwd: dir, env });
    expect(unsigned.code).toBe(0);
    expect(Buffer.compare(readFileSync(join(dir, 'unsigned/b.tar.gz')), bundle)).toBe(0);
    expect(existsSync(join(dir, 'unsigned/b.tar.gz.sig'))).toBe(false);
    rmSync(join(dir, 'unsigned'), { recursive: true });
  });

  it("<bundle>.sig passes cosign verify-blob's own steps (cosign's code followed, its binary not run); a wrong key, a changed byte or a mangled .sig fail", () => {
    const sigFile = readFileSync(join(dir, 'dist/b.tar.gz.sig'));
    const pub = readFileSync(k.pub, 'utf8');
    // Go's base64.StdEncoding takes the file as it is: the base64 signature itself, not raw bytes to re-encode.
    expect(goStdBase64Decode(sigFile.toString('latin1'))).not.toBeNull();
    expect(cosignVerifyBlob(pub, sigFile, bundle)).toEqual({ ok: true });
    // cosign skips \r and \n, so a .sig with a final newline (as an editor or `echo` leaves it) verifies too.
    expect(cosignVerifyBlob(pub, Buffer.from(`${sigFile.toString('latin1')}\r\n`), bundle)).toEqual({ ok: true });

    expect(cosignVerifyBlob(readFileSync(k.otherPub, 'utf8'), sigFile, bundle)).toEqual({ ok: false, step: 'invalid signature when validating ASN.1 encoded signature' });
    const changed = Buffer.from(bundle);
    changed[changed.length >> 1]! ^= 0x01;
    expect(cosignVerifyBlob(pub, sigFile, changed)).toEqual({ ok: false, step: 'invalid signature when validating ASN.1 encoded signature' });
    // A space is not skipped: cosign then takes the file as a raw signature, which is no DER signature.
    expect(cosignVerifyBlob(pub, Buffer.from(` ${sigFile.toString('latin1')}`), bundle).ok).toBe(false);
    // The private key's PEM is no public key to cosign.
    expect(cosignVerifyBlob(readFileSync(k.key, 'utf8'), sigFile, bundle)).toEqual({ ok: false, step: 'unknown Public key PEM file type: PRIVATE KEY' });
  });

  it('carries an in-toto statement with SLSA provenance: subjects, every locked artifact, the builder and the config digest', () => {
    const { files } = bundleContents(readArchive(bundle).entries);
    const statement = JSON.parse(Buffer.from(files.get('provenance.intoto.json')!).toString('utf8')) as {
      _type: string;
      predicateType: string;
      subject: { name: string; digest: { sha256: string } }[];
      predicate: {
        buildDefinition: { externalParameters: { config: { name: string; digest: { sha256: string } }; configDigest: string }; resolvedDependencies: { name: string; uri: string; digest: { sha256: string } }[] };
        runDetails: { builder: { id: string; version: { capiform: string } } };
      };
    };
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe('https://slsa.dev/provenance/v1');
    const expected = [...files.keys()].filter((p) => p !== 'SHA256SUMS' && p !== 'provenance.intoto.json').sort();
    expect(statement.subject.map((s) => s.name)).toEqual(expected);
    for (const s of statement.subject) expect(s.digest.sha256).toBe(sha(files.get(s.name)!));
    const deps = statement.predicate.buildDefinition.resolvedDependencies;
    const lock = readFileSync(join(dir, 'capi.lock.yaml'), 'utf8');
    // Every file the lock pins, with where it came from and its digest, and nothing else.
    const pinned = [...lock.matchAll(/- name: (\S+)\n {4}path: (\S+)\n {4}sha256: ([0-9a-f]{64})\n/g)].map((m) => ({ uri: m[2]!, sha256: m[3]! }));
    expect(pinned.length).toBeGreaterThan(4);
    expect(deps.map((d) => ({ uri: d.uri, sha256: d.digest.sha256 })).sort((a, b) => (a.uri < b.uri ? -1 : 1))).toEqual(pinned.sort((a, b) => (a.uri < b.uri ? -1 : 1)));
    const core = deps.find((d) => d.name.startsWith('cluster-api@') && d.name.endsWith('/core-components.yaml'))!;
    expect(core.digest.sha256).toBe(sha(readFileSync(join(dir, core.uri))));
    expect(statement.predicate.buildDefinition.externalParameters.configDigest).toBe(/configDigest: (\S+)/.exec(lock)![1]);
    expect(statement.predicate.buildDefinition.externalParameters.config).toEqual({ name: 'capi.config.ts', digest: { sha256: sha(readFileSync(join(dir, 'capi.config.ts'))) } });
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(statement.predicate.runDetails.builder).toEqual({ id: 'https://github.com/capiform/capiform', version: { capiform: pkg.version } });
  });

  it('writes the DSSE envelope of that statement beside the bundle, signed over PAE with the same key (openssl verifies it)', () => {
    const line = readFileSync(join(dir, 'dist/b.tar.gz.intoto.jsonl'), 'utf8');
    expect(line.endsWith('}\n') && line.split('\n').length === 2).toBe(true);
    const env = JSON.parse(line) as { payloadType: string; payload: string; signatures: { keyid: string; sig: string }[] };
    expect(env.payloadType).toBe('application/vnd.in-toto+json');
    const payload = Buffer.from(env.payload, 'base64');
    const { files } = bundleContents(readArchive(bundle).entries);
    expect(Buffer.compare(payload, Buffer.from(files.get('provenance.intoto.json')!))).toBe(0);
    writeFileSync(join(k.dir, 'pae.bin'), pae(env.payloadType, payload));
    writeFileSync(join(k.dir, 'pae.sig'), Buffer.from(env.signatures[0]!.sig, 'base64'));
    expect(openssl('dgst', '-sha256', '-verify', k.pub, '-signature', join(k.dir, 'pae.sig'), join(k.dir, 'pae.bin'))).toBe('Verified OK\n');
  });

  it('bundle verify --key and render --bundle --key accept the signed bundle', async () => {
    const v = await runCli(['bundle', 'verify', 'dist/b.tar.gz', '--key', k.pub], { cwd: dir });
    expect(v.stderr).toBe('');
    expect(v.stdout).toMatch(/^dist\/b\.tar\.gz: OK \(\d+ files verified, signed by .*pub\.pem\)\n$/);
    const r = await runCli(['render', '--bundle', 'dist/b.tar.gz', '--key', k.pub, '--check'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a tampered byte, a wrong key, a missing signature or envelope: exit 3 naming the file, for verify and render', async () => {
    const copy = (name: string, bytes: Buffer, sidecars = true): string => {
      writeFileSync(join(dir, `dist/${name}`), bytes);
      if (sidecars) {
        writeFileSync(join(dir, `dist/${name}.sig`), readFileSync(join(dir, 'dist/b.tar.gz.sig')));
        writeFileSync(join(dir, `dist/${name}.intoto.jsonl`), readFileSync(join(dir, 'dist/b.tar.gz.intoto.jsonl')));
      }
      return `dist/${name}`;
    };
    const tampered = Buffer.from(bundle);
    tampered[tampered.length - 100] = tampered[tampered.length - 100]! ^ 1;
    const t = copy('t.tar.gz', tampered);
    const u = copy('unsigned.tar.gz', bundle, false);
    const e = copy('noenv.tar.gz', bundle);
    rmSync(join(dir, `${e}.intoto.jsonl`));
    const before = snapshotDir(dir);
    for (const argv of [['bundle', 'verify', t, '--key', k.pub], ['render', '--bundle', t, '--key', k.pub, '--check']]) {
      const r = await runCli(argv, { cwd: dir });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`Error: ${t}: its signature ${t}.sig was not made over these bytes by the key ${k.pub}`);
    }
    const wrong = await runCli(['bundle', 'verify', 'dist/b.tar.gz', '--key', k.otherPub], { cwd: dir });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain(`Error: dist/b.tar.gz: its signature dist/b.tar.gz.sig was not made over these bytes by the key ${k.otherPub}`);
    for (const argv of [['bundle', 'verify', u, '--key', k.pub], ['render', '--bundle', u, '--key', k.pub, '--check']]) {
      const r = await runCli(argv, { cwd: dir });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`Error: ${u}.sig is missing: a bundle verified with --key needs its signature`);
    }
    const noEnv = await runCli(['bundle', 'verify', e, '--key', k.pub], { cwd: dir });
    expect(noEnv.code).toBe(3);
    expect(noEnv.stderr).toContain(`Error: ${e}.intoto.jsonl is missing: a bundle verified with --key needs its provenance envelope`);
    // Without --key, an unsigned bundle is still a bundle.
    expect((await runCli(['bundle', 'verify', u], { cwd: dir })).code).toBe(0);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('refuses an encrypted key (not supported, with what to do) and a key that is not P-256 (exit 2), writing nothing', async () => {
    const fresh = bundleProject();
    const enc = await runCli(['bundle', '--out', 'dist/x.tar.gz', '--sign-key', k.encrypted], { cwd: fresh });
    expect(enc.code).toBe(2);
    expect(enc.stderr).toContain(`Error: ${k.encrypted} is an encrypted private key; capiform reads unencrypted PEM keys only (encrypted cosign keys are not supported)`);
    const rsa = await runCli(['bundle', '--out', 'dist/x.tar.gz', '--sign-key', k.rsa], { cwd: fresh });
    expect(rsa.code).toBe(2);
    expect(rsa.stderr).toContain(`Error: ${k.rsa} is a rsa key; capiform signs and verifies with ECDSA P-256 keys`);
    expect(existsSync(join(fresh, 'dist'))).toBe(false);
    // A SEC1 (BEGIN EC PRIVATE KEY) key, as `openssl ecparam -genkey` writes it, signs too.
    const sec1 = await runCli(['bundle', '--out', 'dist/s.tar.gz', '--sign-key', k.sec1], { cwd: fresh });
    expect(sec1.code, sec1.stderr).toBe(0);
  });

  it('no key byte enters the bundle, the output or the signature files', async () => {
    const secret = readFileSync(k.key, 'utf8').split('\n').filter((l) => l && !l.startsWith('-----'));
    const tar = gunzipSync(bundle).toString('latin1');
    for (const line of secret) {
      expect(tar).not.toContain(line);
      expect(readFileSync(join(dir, 'dist/b.tar.gz.intoto.jsonl'), 'utf8')).not.toContain(line);
    }
  });
});
