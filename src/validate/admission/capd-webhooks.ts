/**
 * The Docker infrastructure provider's (CAPD) validating webhooks: kubernetes-sigs/cluster-api
 * test/infrastructure/docker/internal/webhooks at the releases the corpus ships (v1.10.10, v1.11.11, v1.12.11,
 * v1.13.5; the files are `*_webhook.go` up to v1.11 and `*.go` from v1.12).
 *
 * Left to other rules: the `spec.template.spec` immutability of DockerMachineTemplate and DockerClusterTemplate is
 * the template-immutability rule (src/capi/immutable-templates.ts), and DockerClusterTemplate's ClusterTopology gate
 * is the feature gates' rule. DockerMachinePool and DockerMachinePoolTemplate have no validation: v1.12 registers an
 * empty webhook for DockerMachinePool (dockermachinepool.go), v1.13 none.
 */
import { at, objectMetaErrors, rec, refuse, str, type Webhook, type WebhookError } from './webhook-fields.js';

type Obj = Record<string, unknown>;

const infra = 'infrastructure.cluster.x-k8s.io';
const dir = 'kubernetes-sigs/cluster-api test/infrastructure/docker/internal/webhooks';

const none = (): WebhookError[] => [];
const same = (o: Obj): Obj => o;

/**
 * `validateDockerClusterSpec` (dockercluster.go, v1.11+): the v1beta2 list of failure domains is sorted by name.
 * v1beta1 writes them as a map, which has no order to check; v1.10 checks nothing.
 */
function failureDomainsSorted(kind: string, spec: unknown, path: string): WebhookError[] {
  const domains = rec(spec).failureDomains;
  if (!Array.isArray(domains)) return [];
  const names = domains.map((d) => str(rec(d).name) ?? '');
  // sort.Strings compares bytes, as `<` on strings of ASCII names does.
  const sortedNames = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (names.every((n, i) => n === sortedNames[i])) return [];
  return [refuse(`webhook/${kind}.failure-domains-sorted`, 'FieldValueInvalid', `${path}.failureDomains`, domains, 'failure domains must be sorted by name', `list ${path}.failureDomains by name: ${sortedNames.join(', ')}`)];
}

function dockerClusterCreate(o: Obj): WebhookError[] {
  return failureDomainsSorted('DockerCluster', o.spec, 'spec');
}

function dockerClusterTemplateCreate(o: Obj): WebhookError[] {
  return [
    ...failureDomainsSorted('DockerClusterTemplate', at(o, 'spec.template.spec'), 'spec.template.spec'),
    ...objectMetaErrors('webhook/DockerClusterTemplate.metadata', at(o, 'spec.template.metadata'), 'spec.template.metadata'),
  ];
}

function dockerMachineTemplateCreate(o: Obj): WebhookError[] {
  return objectMetaErrors('webhook/DockerMachineTemplate.metadata', at(o, 'spec.template.metadata'), 'spec.template.metadata');
}

/** dockermachine.go: the container image of a machine cannot change (the container is not recreated). */
function dockerMachineUpdate(before: Obj, after: Obj): WebhookError[] {
  if ((str(at(before, 'spec.customImage')) ?? '') === (str(at(after, 'spec.customImage')) ?? '')) return [];
  return [refuse('webhook/DockerMachine.custom-image-immutable', 'FieldValueForbidden', 'spec.customImage', '', 'cannot be modified', 'a DockerMachine keeps its image: change the DockerMachineTemplate (under a new name) so new machines roll out with the new image')];
}

export const capdWebhooks: readonly Webhook[] = [
  { group: infra, kind: 'DockerCluster', source: `${dir}/dockercluster.go (v1.11–v1.13; dockercluster_webhook.go in v1.10–v1.11)`, defaults: same, create: dockerClusterCreate, update: none },
  { group: infra, kind: 'DockerClusterTemplate', source: `${dir}/dockerclustertemplate.go (v1.10–v1.13)`, defaults: same, create: dockerClusterTemplateCreate, update: none },
  { group: infra, kind: 'DockerMachine', source: `${dir}/dockermachine.go (v1.12–v1.13; v1.10–v1.11 ship no DockerMachine webhook)`, defaults: same, create: none, update: dockerMachineUpdate },
  { group: infra, kind: 'DockerMachineTemplate', source: `${dir}/dockermachinetemplate.go (v1.10–v1.13)`, defaults: same, create: dockerMachineTemplateCreate, update: none },
];
