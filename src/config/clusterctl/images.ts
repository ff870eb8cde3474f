/**
 * clusterctl's `images:` configuration (`client/config/imagemeta_client.go`): keys `all`, `<ManifestLabel>` or
 * `<ManifestLabel>/<imageName>` (lower-cased, as viper stores them), each with optional repository, name and tag.
 */

export interface ImageMeta {
  repository?: string;
  name?: string;
  tag?: string;
}

/** `imageMeta.Union`: fields set in `other` win. */
function union(into: ImageMeta, other: ImageMeta | undefined): void {
  if (!other) return;
  if (other.repository) into.repository = other.repository;
  if (other.name) into.name = other.name;
  if (other.tag) into.tag = other.tag;
}

/**
 * The override that applies to `imageName` of `component` (a ManifestLabel such as `cluster-api` or
 * `cert-manager`): `all`, then the component, then `component/imageName`, field by field. Null when nothing applies.
 */
export function imageMetaFor(images: Record<string, ImageMeta>, component: string, imageName: string): ImageMeta | null {
  const keys = Object.keys(images);
  if (keys.length === 0) return null;
  const get = (k: string): ImageMeta | undefined => (Object.hasOwn(images, k) ? images[k] : undefined);
  const m: ImageMeta = {};
  union(m, get('all'));
  union(m, get(component));
  union(m, get(`${component}/${imageName}`));
  return m;
}
