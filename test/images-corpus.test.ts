import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imagesOfTree, relocateImage } from '../src/bundle/images.js';
import { renderComponents } from '../src/render/components/index.js';
import { sharedDir } from './helpers/shared.js';

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');

/** Every `image:` value written in the file, found by text (independent of the YAML reader). */
function imageLines(text: string, explicitOnly = false): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/^\s*(?:- )?image:\s*["']?([^"'\s]+)["']?\s*$/gm)) {
    if (explicitOnly && m[1]!.includes('${')) continue;
    out.add(m[1]!);
  }
  return [...out].sort();
}

const components = [
  ['cluster-api', 'v1.13.5', 'core-components.yaml'],
  ['infrastructure-aws', 'v2.11.1', 'infrastructure-components.yaml'],
  ['infrastructure-vsphere', 'v1.16.1', 'infrastructure-components.yaml'],
  ['infrastructure-vsphere', 'v1.15.3', 'infrastructure-components-supervisor.yaml'],
  ['cert-manager', 'v1.19.4', 'cert-manager.yaml'],
] as const;

describe.skipIf(!shared.present)(`images of the corpus releases${shared.skipped}`, () => {
  it('match the images of their Deployments, and the explicit images of a cluster template', () => {
    for (const [label, version, file] of components) {
      const text = readFileSync(join(corpus, label, version, file), 'utf8');
      const images = imagesOfTree([{ path: `providers/${label}/components.yaml`, content: text }]).map((r) => r.image);
      expect(images, `${label} ${version}`).toEqual(imageLines(text));
      expect(images.length).toBeGreaterThan(0);
      if (label === 'cert-manager') continue;
      // `images: { all: { repository } }` at render names exactly what `--relocate` copies to.
      const relocated = renderComponents({
        text,
        providerName: label.replace(/^[a-z]+-/, ''),
        providerType: label === 'cluster-api' ? 'CoreProvider' : 'InfrastructureProvider',
        manifestLabel: label,
        version,
        images: { all: { repository: 'registry.internal/capi' } },
      });
      expect([...new Set(relocated.images)].sort(), `${label} ${version} relocated`).toEqual(images.map((i) => relocateImage(i, 'registry.internal/capi')));
    }
    // vSphere's template: kube-vip as a static Pod in the KubeadmControlPlane's files, the CSI driver in a
    // ClusterResourceSet ConfigMap; the CPI image names ${CPI_IMAGE_K8S_VERSION} and is not listed.
    const tpl = readFileSync(join(corpus, 'infrastructure-vsphere', 'v1.16.1', 'cluster-template.yaml'), 'utf8');
    const images = imagesOfTree([{ path: 'clusters/ns/c/cluster.yaml', content: tpl }]);
    expect(images.map((r) => r.image)).toEqual(imageLines(tpl, true));
    expect(images.find((r) => r.image.startsWith('ghcr.io/kube-vip/'))!.usedBy[0]!.object).toMatch(/^KubeadmControlPlane .* » Pod kube-system\/kube-vip$/);
  });
});
