/**
 * A real OCI registry for the tests: the distribution registry (Debian's `docker-registry` package,
 * `/usr/bin/docker-registry`) started on 127.0.0.1 on a free port with a temporary storage folder and config file,
 * optionally behind htpasswd (basic) auth. Artifacts are pushed through its HTTP API the way `oras push` writes
 * them: each file a blob, an OCI image manifest with the empty config, `artifactType`, and one layer per file titled
 * with `org.opencontainers.image.title`.
 *
 * Without the binary the tests skip with a notice, except under `CAPIFORM_REQUIRE_SHARED=1` (CI), where the file
 * fails: `.ci/run` installs the package.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './testdir.js';

/** The registry binary: `CAPIFORM_DOCKER_REGISTRY`, else where Debian's package puts it. */
export function registryBinaryFor(env: NodeJS.ProcessEnv = process.env): string {
  return env.CAPIFORM_DOCKER_REGISTRY || '/usr/bin/docker-registry';
}
const registryBinary = registryBinaryFor();
const htpasswdBinary = '/usr/bin/htpasswd';

export interface RegistryAvailability {
  present: boolean;
  /** `''` when present, else ` (skipped: …)` for the test's name. */
  skipped: string;
}

/** Whether the registry can run here; under CAPIFORM_REQUIRE_SHARED=1 a missing binary throws (fails the file). */
export function registryAvailability(env: NodeJS.ProcessEnv = process.env): RegistryAvailability {
  const registryBinary = registryBinaryFor(env);
  const present = existsSync(registryBinary) && existsSync(htpasswdBinary);
  if (!present && env.CAPIFORM_REQUIRE_SHARED === '1') {
    throw new Error(
      `the distribution registry (${registryBinary}) or htpasswd (${htpasswdBinary}) is missing, and CAPIFORM_REQUIRE_SHARED=1 forbids skipping: ` +
        'apt-get install -y docker-registry apache2-utils (.ci/run does)',
    );
  }
  return { present, skipped: present ? '' : ` (skipped: no ${registryBinary}; apt-get install docker-registry apache2-utils)` };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RegistryOptions {
  /** htpasswd (bcrypt) basic auth with this one user. */
  basicAuth?: { username: string; password: string };
}

export interface PushedArtifact {
  manifestDigest: string;
  layers: Record<string, string>;
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export class TestRegistry {
  /** `127.0.0.1:<port>`. */
  readonly host: string;
  readonly base: string;
  private readonly authHeader: Record<string, string>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    private readonly port: number,
    private readonly output: () => string,
    private readonly basic: RegistryOptions['basicAuth'],
  ) {
    this.host = `127.0.0.1:${port}`;
    this.base = `http://${this.host}`;
    this.authHeader = basic ? { authorization: `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}` } : {};
  }

  static async start(opts: RegistryOptions = {}): Promise<TestRegistry> {
    const dir = tempDir('capiform-registry-');
    const port = await freePort();
    let auth = '';
    if (opts.basicAuth) {
      const r = spawnSync(htpasswdBinary, ['-Bbn', opts.basicAuth.username, opts.basicAuth.password], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`htpasswd failed: ${r.stderr}`);
      writeFileSync(join(dir, 'htpasswd'), r.stdout);
      auth = `auth:\n  htpasswd:\n    realm: capiform-test\n    path: ${join(dir, 'htpasswd')}\n`;
    }
    writeFileSync(
      join(dir, 'config.yml'),
      `version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: ${join(dir, 'storage')}\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:${port}\n${auth}`,
    );
    return TestRegistry.serve(dir, port, opts.basicAuth);
  }

  /** The same registry (storage, port, auth) started again after `stop`. */
  static restart(old: TestRegistry): Promise<TestRegistry> {
    return TestRegistry.serve(old.dir, old.port, old.basic);
  }

  private static async serve(dir: string, port: number, basic: RegistryOptions['basicAuth']): Promise<TestRegistry> {
    const child = spawn(registryBinary, ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const registry = new TestRegistry(child, dir, port, () => output, basic);
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the registry exited (${child.exitCode}): ${output}`);
      try {
        const res = await fetch(`${registry.base}/v2/`);
        if (res.status === 200 || res.status === 401) return registry;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await registry.stop();
        throw new Error(`the registry did not answer on ${registry.base} within 15 s: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }

  log(): string {
    return this.output();
  }

  async pushBlob(repository: string, bytes: Uint8Array): Promise<{ digest: string; size: number }> {
    const digest = sha256(bytes);
    const start = await fetch(`${this.base}/v2/${repository}/blobs/uploads/`, { method: 'POST', headers: this.authHeader });
    if (start.status !== 202) throw new Error(`blob upload start: ${start.status} ${await start.text()}`);
    const location = new URL(start.headers.get('location')!, this.base);
    location.searchParams.set('digest', digest);
    const put = await fetch(location, { method: 'PUT', body: bytes, headers: { ...this.authHeader, 'content-type': 'application/octet-stream' } });
    if (put.status !== 201) throw new Error(`blob upload: ${put.status} ${await put.text()}`);
    return { digest, size: bytes.byteLength };
  }

  /** Pushes `files` (title → content) as one artifact tagged `tag`, as `oras push <host>/<repository>:<tag> <files…>` does. */
  pushRelease(repository: string, tag: string, files: Record<string, string | Uint8Array>): Promise<PushedArtifact> {
    return this.pushArtifact(repository, tag, Object.entries(files).map(([title, content]) => ({ title, content })));
  }

  /**
   * Pushes one artifact whose layers are `layers`, in order: each with the title given (any JSON value, or none when
   * `title` is absent), so a test can push what no honest `oras push` would (`../x`, the same title twice).
   */
  async pushArtifact(repository: string, tag: string, layers: readonly { title?: unknown; content: string | Uint8Array }[]): Promise<PushedArtifact> {
    const config = await this.pushBlob(repository, new TextEncoder().encode('{}'));
    const digests: Record<string, string> = {};
    const descriptors = [];
    for (const { title, content } of layers) {
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      const blob = await this.pushBlob(repository, bytes);
      if (typeof title === 'string') digests[title] = blob.digest;
      descriptors.push({
        mediaType: 'application/vnd.oci.image.layer.v1.tar',
        ...blob,
        ...(title !== undefined ? { annotations: { 'org.opencontainers.image.title': title } } : {}),
      });
    }
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      artifactType: 'application/vnd.unknown.artifact.v1',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', ...config, data: 'e30=' },
      layers: descriptors,
      annotations: { 'org.opencontainers.image.created': '2026-01-01T00:00:00Z' },
    });
    const bytes = new TextEncoder().encode(manifest);
    const res = await fetch(`${this.base}/v2/${repository}/manifests/${tag}`, {
      method: 'PUT',
      body: bytes,
      headers: { ...this.authHeader, 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
    });
    if (res.status !== 201) throw new Error(`manifest push: ${res.status} ${await res.text()}`);
    return { manifestDigest: sha256(bytes), layers: digests };
  }
}
