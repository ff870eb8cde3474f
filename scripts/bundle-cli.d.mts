/** See bundle-cli.mjs. */
export function bundleCli(opts: { root: string; outRoot?: string; entries?: Record<string, string> }): Promise<void>;
