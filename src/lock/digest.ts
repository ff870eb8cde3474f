import { sha256Hex } from '../cache/index.js';
import type { ResolvedConfig } from '../config/index.js';
import { templatePinRequests } from './template-pins.js';

/**
 * Digest of the config inputs that affect resolution. Variables, clusters and render settings are left out on
 * purpose (changing them re-renders but never changes a pinned version), except the clusters' template pins.
 */
export function resolutionDigest(config: ResolvedConfig): string {
  const pins = templatePinRequests(config);
  const inputs = {
    contract: config.contract ?? null,
    providers: config.providers
      .map((p) => ({ label: p.label, name: p.name, type: p.type, constraint: p.constraint, url: p.url ?? null, kind: p.repositoryType ?? null }))
      .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)),
    certManager: config.certManager
      ? { version: config.certManager.version, url: config.certManager.url ?? null, kind: config.certManager.repositoryType ?? null }
      : null,
    // Present only with pins, so the digest of a config without any is the one it always had.
    ...(pins.length > 0 ? { templatePins: pins.map((p) => ({ label: p.label, constraint: p.constraint })) } : {}),
  };
  return `sha256:${sha256Hex(JSON.stringify(inputs))}`;
}
