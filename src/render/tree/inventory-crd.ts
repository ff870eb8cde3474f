/**
 * clusterctl's inventory CRD (`cmd/clusterctl/config/manifest/clusterctl-api.yaml`), with the label `init` adds
 * (`clusterctl.cluster.x-k8s.io/core: inventory`, client/cluster/inventory.go). Installing it from the tree keeps
 * `clusterctl describe`, `move` and `upgrade plan` working on a stack Argo CD installed.
 */
import type { KubeObject } from './deps.js';

const str = (description: string): Record<string, unknown> => ({ description, type: 'string' });

export const inventoryCrd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: {
    labels: { 'clusterctl.cluster.x-k8s.io/core': 'inventory' },
    name: 'providers.clusterctl.cluster.x-k8s.io',
  },
  spec: {
    group: 'clusterctl.cluster.x-k8s.io',
    names: { kind: 'Provider', listKind: 'ProviderList', plural: 'providers', singular: 'provider' },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [
          { jsonPath: '.type', name: 'Type', type: 'string' },
          { jsonPath: '.providerName', name: 'Provider', type: 'string' },
          { jsonPath: '.version', name: 'Version', type: 'string' },
        ],
        name: 'v1alpha3',
        schema: {
          openAPIV3Schema: {
            description: 'Provider defines an entry in the provider inventory.',
            properties: {
              apiVersion: str(
                'APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
              ),
              kind: str(
                'Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
              ),
              metadata: { type: 'object' },
              providerName: str('providerName indicates the name of the provider.'),
              type: str('type indicates the type of the provider.\nSee ProviderType for a list of supported values'),
              version: str('version indicates the component version.'),
              watchedNamespace: str(
                'watchedNamespace indicates the namespace where the provider controller is watching.\nIf empty the provider controller is watching for objects in all namespaces.\n\nDeprecated: providers complying with the Cluster API v1alpha4 contract or above must watch all namespaces; this field will be removed in a future version of this API',
              ),
            },
            type: 'object',
          },
        },
        served: true,
        storage: true,
        subresources: {},
      },
    ],
  },
};
