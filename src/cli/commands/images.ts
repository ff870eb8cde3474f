/** `capiform images [--config f] [--json] [--relocate REGISTRY] [--format lines|skopeo|crane|yaml] [--tree DIR]`. */
import type { Command } from 'commander';
import { InputError, UsageError } from '../../errors.js';
import { readTree, formatImageList, formatRelocations, imagesOfTree, relocationFormats, relocations, type ImageRecord, type RelocationFormat, type TreeFileInput } from '../../bundle/index.js';
import { lockFileName } from '../../lock/index.js';
import { readSettled } from '../../pipeline/tree/index.js';
import type { CliIO, GlobalOptions } from '../context.js';
import { downloadProgress } from './pipeline-shared.js';
import { requireFolder } from '../paths.js';

/** A rendered tree holds providers: at the top, or per management cluster in a fleet (`targets/<name>/providers/`). */
const hasProviders = (tree: readonly TreeFileInput[]): boolean => tree.some((f) => /^(targets\/[^/]+\/)?providers\//.test(f.path));

interface ImagesOptions {
  config?: string;
  tree?: string;
  relocate?: string;
  format?: string;
}

/**
 * The images of the stack: the rendered tree next to the config (or `--tree`); without one, the tree the pipeline
 * would render from the config and the lock (written nowhere). With a config, each image's upstream source comes
 * from the same tree rendered without the `images:` relocation; `--tree` alone lists the images as the tree names them.
 */
export async function stackImages(io: CliIO, opts: { config?: string; tree?: string; json?: boolean; quiet?: boolean }): Promise<ImageRecord[]> {
  if (opts.tree) {
    const dir = requireFolder(io.cwd, opts.tree, '--tree', 'pass the folder that holds providers/ and clusters/');
    const tree = await readSettled(dir, () => readTree(dir));
    if (!hasProviders(tree)) {
      throw new InputError(`no rendered tree in ${dir} (providers/ is missing)`, { hint: 'pass the directory that holds providers/ and clusters/' });
    }
    return imagesOfTree(tree);
  }
  const { loadConfig } = await import('../../config/index.js');
  const config = await loadConfig({ cwd: io.cwd, ...(opts.config ? { configFile: opts.config } : {}), env: io.env });
  // Either way it reads one completed write: never a tree (or lock) a crash or a running render left half-swapped.
  return readSettled(
    config.dir,
    async () => {
      let tree: readonly TreeFileInput[] = readTree(config.dir);
      const { checkProject, configImageOverrides, upstreamTree } = await import('../../pipeline/index.js');
      if (!hasProviders(tree)) {
        tree = (await checkProject({ config, env: io.env, onProgress: downloadProgress(io, opts) })).files;
      }
      const sources = await upstreamTree(config, { env: io.env, onProgress: downloadProgress(io, opts) });
      return imagesOfTree(tree, { ...(sources ? { sources } : {}), overrides: configImageOverrides(config) });
    },
    lockFileName,
  );
}

export function registerImages(program: Command, io: CliIO): void {
  program
    .command('images')
    .description('list every container image the rendered stack runs (after image overrides), or a mirroring plan with --relocate')
    .option('--config <file>', 'capi.config.* to use (default: discovered in the current directory)')
    .option('--tree <dir>', 'read this rendered tree instead of the one next to the config')
    .option('--relocate <registry>', 'print source → destination for mirroring every image into <registry>')
    .option('--format <format>', `relocation output: ${relocationFormats.join('|')}`, 'lines')
    .action(async (local: ImagesOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions & ImagesOptions>();
      const format = local.format ?? 'lines';
      if (!(relocationFormats as readonly string[]).includes(format)) {
        throw new UsageError(`--format ${format}: unknown format`, { where: '--format', hint: `use one of ${relocationFormats.join(', ')}` });
      }
      if (format !== 'lines' && !local.relocate) {
        throw new UsageError(`--format ${format} needs --relocate <registry>`, { where: '--format', hint: 'e.g. capiform images --relocate registry.internal/mirror --format skopeo' });
      }
      const images = await stackImages(io, g);
      // A mirror copies from upstream: the relocation plan starts from each image's source.
      const moved = local.relocate ? relocations(images.map((r) => r.source), local.relocate) : undefined;
      if (g.json) {
        const rows = images.map((r, i) => ({ image: r.image, source: r.source, ...(moved ? { destination: moved[i]!.destination } : {}), usedBy: r.usedBy }));
        io.stdout(`${JSON.stringify({ images: rows }, null, 2)}\n`);
        return;
      }
      if (moved) io.stdout(formatRelocations(moved, format as RelocationFormat));
      else io.stdout(formatImageList(images));
    });
}
