/** `capiform images [--config f] [--json] [--relocate REGISTRY] [--format lines|skopeo|crane|yaml] [--tree DIR]`. */
import { dirname, resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import { InputError, UsageError } from '../../errors.js';
import { formatRelocations, imagesOfTree, relocationFormats, relocations, type ImageRecord, type RelocationFormat } from '../../bundle/images.js';
import { findConfigFile, readTree } from '../../bundle/project.js';
import type { CliIO, GlobalOptions } from '../context.js';

interface ImagesOptions {
  config?: string;
  tree?: string;
  relocate?: string;
  format?: string;
}

/** The images of the stack: the rendered tree next to the config (or `--tree`). */
export function stackImages(io: CliIO, opts: { config?: string; tree?: string }): { images: ImageRecord[]; treeDir: string } {
  const treeDir = opts.tree ? resolvePath(io.cwd, opts.tree) : dirname(findConfigFile(io.cwd, opts.config));
  const tree = readTree(treeDir);
  if (!tree.some((f) => f.path.startsWith('providers/'))) {
    throw new InputError(`no rendered tree in ${treeDir} (providers/ is missing)`, { hint: 'run `capiform render` first, or pass --tree <dir>' });
  }
  return { images: imagesOfTree(tree), treeDir };
}

export function registerImages(program: Command, io: CliIO): void {
  program
    .command('images')
    .description('list every container image the rendered stack runs (after image overrides), or a mirroring plan with --relocate')
    .option('--config <file>', 'capi.config.* to use (default: discovered in the current directory)')
    .option('--tree <dir>', 'read this rendered tree instead of the one next to the config')
    .option('--relocate <registry>', 'print source → destination for mirroring every image into <registry>')
    .option('--format <format>', `relocation output: ${relocationFormats.join('|')}`, 'lines')
    .action((local: ImagesOptions, cmd: Command) => {
      const g = cmd.optsWithGlobals<GlobalOptions & ImagesOptions>();
      const format = local.format ?? 'lines';
      if (!(relocationFormats as readonly string[]).includes(format)) {
        throw new UsageError(`--format ${format}: unknown format`, { where: '--format', hint: `use one of ${relocationFormats.join(', ')}` });
      }
      if (format !== 'lines' && !local.relocate) {
        throw new UsageError(`--format ${format} needs --relocate <registry>`, { where: '--format', hint: 'e.g. capiform images --relocate registry.internal/mirror --format skopeo' });
      }
      const { images } = stackImages(io, g);
      const moved = local.relocate ? relocations(images.map((r) => r.image), local.relocate) : undefined;
      if (g.json) {
        const rows = images.map((r, i) => ({ image: r.image, ...(moved ? { destination: moved[i]!.destination } : {}), usedBy: r.usedBy }));
        io.stdout(`${JSON.stringify({ images: rows }, null, 2)}\n`);
        return;
      }
      if (moved) io.stdout(formatRelocations(moved, format as RelocationFormat));
      else io.stdout(images.map((r) => `${r.image}\n`).join(''));
    });
}
