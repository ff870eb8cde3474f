import { sha256Hex } from '../../cache/index.js';

/** Argo CD tracks resources with the Application name as a label value, so names stay ≤ 63 characters. */
export const maxAppNameLength = 63;

/**
 * A stable Application name from its parts: lower-cased, anything outside `[a-z0-9-]` replaced by `-`, and, when
 * longer than 63 characters, cut to 54 plus `-` and 8 hex digits of the sha256 of the full joined name.
 */
export function argoAppName(parts: readonly string[]): string {
  const joined = parts.join('-');
  const name = joined
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  if (name.length <= maxAppNameLength) return name;
  const hash = sha256Hex(joined).slice(0, 8);
  return `${name.slice(0, maxAppNameLength - 9).replace(/-+$/, '')}-${hash}`;
}
