/**
 * Where a stack's images come from: the tree as it would render without the config's `images:` relocation (in memory,
 * from the lock), beside the relocation clusterctl.yaml records.
 */
import type { ResolvedConfig } from '../config/index.js';
import type { TreeFileInput } from '../bundle/index.js';
import type { ImageOverrides } from '../render/index.js';
import type { ProgressListener } from '../resolve/index.js';
import { renderInMemory } from './compositions.js';

/** The config's `images:` as clusterctl.yaml writes them: the global entries and each provider's own. */
export function configImageOverrides(config: ResolvedConfig): ImageOverrides {
  const overrides: ImageOverrides = { ...config.images };
  for (const p of config.providers) if (p.images) overrides[p.label] = { ...p.images };
  return overrides;
}

/**
 * The tree as it would render without any `images:` relocation (in memory, from the lock): where every image
 * comes from. `undefined` when the config relocates nothing, so the tree already names the sources. A fleet renders
 * every management cluster without its own relocation too.
 */
export async function upstreamTree(config: ResolvedConfig, opts: { env: NodeJS.ProcessEnv; onProgress: ProgressListener | undefined }): Promise<readonly TreeFileInput[] | undefined> {
  if (![config, ...(config.targets ?? [])].some((c) => Object.keys(configImageOverrides(c)).length > 0)) return undefined;
  const unrelocated = (c: ResolvedConfig): ResolvedConfig => ({ ...c, images: {}, providers: c.providers.map((p) => ({ ...p, images: undefined })) });
  const plain: ResolvedConfig = { ...unrelocated(config), ...(config.targets ? { targets: config.targets.map(unrelocated) } : {}) };
  const res = await renderInMemory({ config: plain, env: opts.env, onProgress: opts.onProgress });
  return res.files;
}
