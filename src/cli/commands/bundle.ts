/** `capiform bundle [--out f] [--hauler] [--zarf] [--operator]` and `capiform bundle verify FILE`. */
import { isAbsolute, relative, resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { IntegrityError, InputError } from '../../errors.js';
import type { Extra } from '../../bundle/index.js';
import { lockFileName } from '../../lock/index.js';
import type { BundleResult } from '../../pipeline/index.js';
import type { CliIO, GlobalOptions } from '../context.js';
import { requireWritableFile } from '../paths.js';
import type { ResolvedConfig } from '../../config/index.js';
import { assertNoUnfinishedWrite, readSettled } from '../../pipeline/tree/index.js';
import { asProjectWriter, downloadProgress, lockTimeoutOption } from './pipeline-shared.js';

interface BundleOptions {
  config?: string;
  out?: string;
  hauler?: boolean;
  zarf?: boolean;
  operator?: boolean;
  signKey?: string;
  ociLayout?: string;
  lockTimeout?: string;
  /** A fleet: the management cluster to bundle. */
  target?: string;
  quiet?: boolean;
}

/** Builds the bundle of the project around `--config` and writes it. */
export async function createBundle(io: CliIO, opts: BundleOptions): Promise<BundleResult> {
  if (opts.out !== undefined) requireWritableFile(io.cwd, opts.out, '--out');
  const { loadConfig } = await import('../../config/index.js');
  const config = await loadConfig({ cwd: io.cwd, ...(opts.config ? { configFile: opts.config } : {}), env: io.env });
  const dir = config.dir;
  // The default name comes from the lock, read later; its folder is known now.
  const rel = relative(dir, resolvePath(io.cwd, opts.out ?? 'dist/bundle.tar.gz'));
  const intoProject = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  // Writing into the project, it is one of the project's writers (never beside a render); either way it reads the
  // lock and tree of one completed write, and refuses a tree a crash left unfinished.
  const build = (): Promise<BundleResult> => readSettled(dir, () => bundleProject(io, opts, config), lockFileName);
  if (!intoProject) return build();
  assertNoUnfinishedWrite(dir);
  return asProjectWriter(io, dir, opts, 'bundle', build, { noRepair: true });
}

/** The bundle of `config`'s project, by the pipeline's composition; `--out` is checked again just before the write. */
async function bundleProject(io: CliIO, opts: BundleOptions, config: ResolvedConfig): Promise<BundleResult> {
  const { buildBundle } = await import('../../pipeline/index.js');
  const extras: Extra[] = [];
  if (opts.hauler) extras.push('hauler');
  if (opts.zarf) extras.push('zarf');
  if (opts.operator) extras.push('operator');
  return buildBundle({
    config,
    env: io.env,
    out: opts.out,
    extras,
    onProgress: downloadProgress(io, { quiet: true }),
    ...(opts.target !== undefined ? { managementCluster: opts.target } : {}),
    ...(opts.signKey !== undefined ? { signKey: { file: resolvePath(io.cwd, opts.signKey), shown: opts.signKey } } : {}),
    ...(opts.ociLayout !== undefined ? { ociLayout: { dir: resolvePath(io.cwd, opts.ociLayout), shown: opts.ociLayout } } : {}),
    target: (name) => requireWritableFile(io.cwd, opts.out ?? `dist/${name}.tar.gz`, '--out'),
  });
}

export function registerBundle(program: Command, io: CliIO): void {
  const bundle = program
    .command('bundle')
    .description('write one reproducible tar.gz with everything an air-gapped site needs (release files, lock, tree, images)')
    .option('--config <file>', 'capi.config.* to use (default: discovered in the current directory)')
    .option('--out <file>', 'where to write the bundle (default: dist/<name>.tar.gz)')
    .option('--target <name>', 'a fleet: bundle this management cluster only (default: every one, when they pin the same releases)')
    .option('--hauler', 'add a Hauler manifest (hauler.yaml: Images and Files)')
    .option('--zarf', 'add a Zarf package definition (zarf.yaml)')
    .option('--operator', 'add the Cluster API Operator form (operator/: provider objects and ConfigMaps per version)')
    .option('--sign-key <file>', 'sign the bundle with this PEM ECDSA P-256 private key: writes <bundle>.sig (cosign sign-blob format) and <bundle>.intoto.jsonl (signed provenance)')
    .option('--oci-layout <dir>', 'also write each provider release as an OCI artifact into OCI image layouts in this folder (<dir>/<provider>, tag = version), for skopeo copy / oras cp into a registry')
    .addOption(lockTimeoutOption())
    .action(async (local: BundleOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const res = await createBundle(io, { ...local, ...(g.quiet ? { quiet: true } : {}) });
      if (g.json) {
        io.stdout(`${JSON.stringify({ ...res, file: relative(io.cwd, res.file) || res.file, ...(res.ociLayout ? { ociLayout: { ...res.ociLayout, dir: relative(io.cwd, res.ociLayout.dir) || '.' } } : {}) })}\n`);
        return;
      }
      if (!g.quiet) {
        io.stdout(`wrote ${relative(io.cwd, res.file)} (${res.files} files, ${res.images} images, ${res.bytes} bytes)\nsha256 ${res.sha256}\n`);
        if (res.signature) io.stdout(`signed: ${relative(io.cwd, res.signature.sig)}, ${relative(io.cwd, res.signature.envelope)}\n`);
        if (res.ociLayout) {
          const dir = relative(io.cwd, res.ociLayout.dir) || '.';
          io.stdout(`wrote OCI layouts in ${dir}:\n${res.ociLayout.artifacts.map((a) => `  oci:${dir}/${a.ref} ${a.digest}\n`).join('')}`);
        }
      }
    });

  bundle
    .command('verify <file>')
    .description('check every digest of a bundle (SHA256SUMS, the lock, the provenance) and that it is safe to extract; with --key its signature too; exit 3 on any problem')
    .option('--key <file>', 'the PEM public key the bundle must be signed with (<bundle>.sig and <bundle>.intoto.jsonl beside it)')
    .action(async (file: string, local: { key?: string }, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions>();
      const path = resolvePath(io.cwd, file);
      const { archiveLimitsFromEnv, checkSignedProvenance, verifyBundleFile, verifyBundleSignature } = await import('../../bundle/index.js');
      if (!existsSync(path)) throw new InputError(`bundle ${file} does not exist`, { where: path });
      const signed = local.key !== undefined ? await verifyBundleSignature(path, resolvePath(io.cwd, local.key), file, local.key) : undefined;
      const res = await verifyBundleFile(path, { limits: archiveLimitsFromEnv(io.env), source: file });
      if (signed !== undefined && res.problems.length === 0) checkSignedProvenance(signed, res.provenance, file);
      if (g.json) io.stdout(`${JSON.stringify({ file, ok: res.problems.length === 0, files: res.files, problems: res.problems }, null, 2)}\n`);
      if (res.problems.length > 0) {
        throw new IntegrityError(
          `${file}: ${res.problems.length} problem${res.problems.length === 1 ? '' : 's'}:\n${res.problems.map((p) => `  ${p}`).join('\n')}`,
          { where: path, hint: 'do not use this bundle; build it again with `capiform bundle` on the connected side and transfer it again' },
          'E_BUNDLE_INVALID',
        );
      }
      if (!g.json && !g.quiet) io.stdout(`${file}: OK (${res.files} files verified${signed !== undefined ? `, signed by ${local.key}` : ''})\n`);
    });
}
