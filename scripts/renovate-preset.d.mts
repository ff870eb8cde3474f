/** Types of scripts/renovate-preset.mjs, for the test that checks the committed preset against it. */
export interface RenovatePreset {
  customManagers: Record<string, unknown>[];
  packageRules: Record<string, unknown>[];
  [key: string]: unknown;
}
export function renovatePreset(catalog: readonly { name: string; url: string }[]): RenovatePreset;
