// Where the benchmarks find the shared corpus: $CAPIFORM_CORPUS_DIR (relative to the repository root, as in the
// tests) or ../shared/corpus beside the repository. The folder holds `repository/` (clusterctl's local layout).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const corpusDir = resolve(repoRoot, process.env.CAPIFORM_CORPUS_DIR || '../shared/corpus');
