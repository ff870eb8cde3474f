/**
 * `capiform diff --render`: render both sides from their config and lock instead of reading committed trees, so a
 * PR that only changes capi.config.ts still gets an object diff. This is the single seam to the render pipeline;
 * it is wired once `src/render/pipeline.ts` lands.
 */
import { UsageError } from '../../errors.js';
import type { RenderedTree } from './tree.js';

export interface RenderAtContext {
  /** Repository directory holding capi.config.* and capi.lock.yaml. */
  root: string;
  configPath?: string;
}

/** Renders the tree for `ref` (undefined = the working tree) in memory. */
export async function renderTreeAt(ref: string | undefined, _ctx: RenderAtContext): Promise<RenderedTree> {
  throw new UsageError(`capiform diff --render is not available yet: the render pipeline is not part of this build (side: ${ref ?? 'working tree'})`, {
    hint: 'run `capiform render` and commit the tree, then compare trees: capiform diff --base <ref>',
  }, 'E_NOT_AVAILABLE');
}
