import type { CapiformConfig } from './types.js';

/**
 * Returns its argument unchanged: it exists so that `capi.config.ts` gets type checking and completion.
 *
 * ```ts
 * import { defineConfig } from 'capiform';
 * export default defineConfig({ providers: { core: { name: 'cluster-api', version: '~1.13.0' } } });
 * ```
 */
export function defineConfig<const T extends CapiformConfig>(config: T): T {
  return config;
}
