/** The parts of GitHub REST API answers capiform reads, validated before use. */
import { z } from 'zod';

export const releaseAssetSchema = z.object({
  id: z.number(),
  name: z.string(),
  size: z.number().optional(),
  /** `sha256:<hex>` since 2025; absent on older assets and older GitHub Enterprise servers. */
  digest: z.string().nullable().optional(),
  browser_download_url: z.string(),
  url: z.string().optional(),
});
export type ReleaseAsset = z.infer<typeof releaseAssetSchema>;

export const releaseSchema = z.object({
  id: z.number().optional(),
  tag_name: z.string(),
  draft: z.boolean().optional().default(false),
  prerelease: z.boolean().optional().default(false),
  assets: z.array(releaseAssetSchema).optional().default([]),
});
export type Release = z.infer<typeof releaseSchema>;

export const releaseListSchema = z.array(releaseSchema);

export const contentFileSchema = z.object({
  type: z.string().optional(),
  encoding: z.string().nullable().optional(),
  content: z.string().nullable().optional(),
  path: z.string().optional(),
});
