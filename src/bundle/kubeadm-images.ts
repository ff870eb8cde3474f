/**
 * The images kubeadm pulls on every control-plane node of a cluster: the four Kubernetes components at the cluster's
 * version, and etcd, CoreDNS and pause at the versions kubeadm pins for that Kubernetes minor. A workload cluster
 * in an air gap cannot start without them, and nothing in the rendered manifests names them.
 *
 * Source: kubernetes/kubernetes `cmd/kubeadm/app/constants/constants.go` (`SupportedEtcdVersion`, `CoreDNSVersion`,
 * `PauseVersion`) as released in v<minor>.0, which is what `kubeadm config images list` prints for that release.
 * A later patch release may backport a newer etcd; a cluster that pins its own (`etcd.local.imageTag`) lists it
 * through its manifests instead.
 */
import { kubernetesMinor } from '../capi/index.js';
import { InputError } from '../errors.js';

export const kubeadmRegistry = 'registry.k8s.io';

interface MinorImages {
  readonly etcd: string;
  readonly coredns: string;
  readonly pause: string;
}

/** Per Kubernetes minor, kubeadm's own pins. Add a row when a new minor is supported; never guess one. */
const byMinor: Readonly<Record<string, MinorImages>> = {
  '1.29': { etcd: '3.5.10-0', coredns: 'v1.11.1', pause: '3.9' },
  '1.30': { etcd: '3.5.12-0', coredns: 'v1.11.1', pause: '3.9' },
  '1.31': { etcd: '3.5.15-0', coredns: 'v1.11.1', pause: '3.10' },
  '1.32': { etcd: '3.5.16-0', coredns: 'v1.11.3', pause: '3.10' },
  '1.33': { etcd: '3.5.21-0', coredns: 'v1.12.0', pause: '3.10' },
  '1.34': { etcd: '3.6.4-0', coredns: 'v1.12.1', pause: '3.10.1' },
};

export const kubeadmMinors: readonly string[] = Object.keys(byMinor);

/** `name` is the container name kubeadm gives the static pod or add-on. */
export interface KubeadmImage {
  readonly name: string;
  readonly image: string;
}

/**
 * The images of Kubernetes `version` (`v1.33.1`), in kubeadm's order. An unknown minor is an input error rather
 * than a guess: a wrong etcd or CoreDNS tag in a mirror is only found when a node fails to start.
 */
export function kubeadmImages(version: string, where?: string): KubeadmImage[] {
  const minor = kubernetesMinor(version);
  if (minor === null) {
    throw new InputError(`"${version}" is not a Kubernetes version`, {
      ...(where ? { where } : {}),
      hint: 'use a full version such as v1.33.1',
    });
  }
  const pins = byMinor[minor];
  if (!pins) {
    throw new InputError(`capiform does not know which etcd, CoreDNS and pause images kubeadm uses for Kubernetes ${version}`, {
      ...(where ? { where } : {}),
      hint: `it knows the minors ${kubeadmMinors.join(', ')}; use one of those, or upgrade capiform`,
    });
  }
  const v = version.startsWith('v') ? version : `v${version}`;
  return [
    ...['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'].map((name) => ({ name, image: `${kubeadmRegistry}/${name}:${v}` })),
    { name: 'etcd', image: `${kubeadmRegistry}/etcd:${pins.etcd}` },
    { name: 'coredns', image: `${kubeadmRegistry}/coredns/coredns:${pins.coredns}` },
    { name: 'pause', image: `${kubeadmRegistry}/pause:${pins.pause}` },
  ];
}
