import { describe, expect, it } from 'vitest';
import {
  compareKubernetesVersions,
  formatKubernetesVersion,
  isKubernetesSemanticVersion,
  kubernetesMinor,
  parseKubernetesVersion,
  versionTag,
  type KubernetesVersion,
} from '../src/capi/index.js';

const parsed = (s: string): KubernetesVersion => {
  const v = parseKubernetesVersion(s);
  if (!v) expect.fail(`${s} should parse`);
  return v;
};

describe('Kubernetes versions (src/capi)', () => {
  it('reads versions strictly, as k8s version.ParseSemantic does', () => {
    expect(parseKubernetesVersion('v1.33.1-rc.0+build.5')).toEqual({ major: 1, minor: 33, patch: 1, preRelease: 'rc.0', buildMetadata: 'build.5' });
    for (const bad of ['v1.33', '1.33.01', 'v1.33.1.2', 'latest', '']) {
      expect(parseKubernetesVersion(bad), bad).toBeNull();
      expect(isKubernetesSemanticVersion(bad), bad).toBe(false);
    }
    expect(isKubernetesSemanticVersion(' v1.33.1 ')).toBe(true);
  });

  it('orders pre-releases first and ignores build metadata, and prints clusterctl tags', () => {
    expect(compareKubernetesVersions(parsed('v1.33.0-rc.1'), parsed('v1.33.0'))).toBe(-1);
    expect(compareKubernetesVersions(parsed('v1.33.0+a'), parsed('1.33.0+b'))).toBe(0);
    expect(compareKubernetesVersions(parsed('v1.34.0'), parsed('v1.33.9'))).toBe(1);
    expect(formatKubernetesVersion(parsed('v1.33.0-rc.1+b'))).toBe('1.33.0-rc.1+b');
    expect(versionTag(parsed('1.33.0'))).toBe('v1.33.0');
  });

  it('reads the minor kubeadm keys its image pins by, loosely', () => {
    expect(kubernetesMinor('v1.33.1')).toBe('1.33');
    expect(kubernetesMinor('1.34.0-rc.0')).toBe('1.34');
    expect(kubernetesMinor('v1.33.01')).toBe('1.33');
    for (const bad of ['v1.33', 'one.two.three', ' v1.33.1', 'v1.33.1 ']) expect(kubernetesMinor(bad), bad).toBeNull();
  });
});
