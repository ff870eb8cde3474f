// The build's second step: the CLI as one ES module (dist/cli-bundle/cli.js) plus a chunk for each part it imports lazily
// (`await import()` stays lazy: each boundary is a chunk loaded on first use). Node loads it in a fraction of the time
// it spends resolving and compiling the ~150 to ~250 separate modules a command needs; bin/capiform.js runs it when
// present, and tsc's dist/ stays the library API. Packages stay external (resolved from node_modules as usual).
// Source maps point at src/: run with NODE_OPTIONS=--enable-source-maps to see src/ lines in a stack trace.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Bundles src/ of `root` into `<outRoot>/dist/cli-bundle/`. A copy without tsc's output (the tests' compiled CLI) adds
 * `entries` beside it, e.g. `{ index: 'src/index.ts' }` for the library API at `<outRoot>/dist/index.js`.
 */
export async function bundleCli({ root, outRoot = root, entries = {} }) {
  const bundleDir = join(outRoot, 'dist', 'cli-bundle');
  // Chunks are named after their content: without this, the chunks of earlier builds would pile up.
  rmSync(bundleDir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    // The GitHub Action's entry shares the CLI's chunks (action/main.js loads it).
    entryPoints: { 'cli-bundle/cli': 'src/cli/main.ts', 'cli-bundle/action': 'src/action/main.ts', ...entries },
    outdir: join(outRoot, 'dist'),
    // Flat: every chunk sits in dist/cli-bundle/, the folder src/version.ts digests and finds ../../package.json from,
    // and from where src/config/load-isolated.ts finds the library at ../index.js.
    chunkNames: 'cli-bundle/chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  await bundleCli({ root: join(dirname(fileURLToPath(import.meta.url)), '..') });
}
