import { describe, expect, it } from 'vitest';
import { isKubernetesSemanticVersion } from '../../src/capi/index.js';
import {
  formatClusterVariables,
  formatYamlVariables,
  goQuote,
  mergeTemplates,
  newTemplate,
  renderClusterTemplate,
  variablesTableText as tabwrite,
} from '../../src/render/cluster-template.js';
import { describeComponents } from '../../src/render/provider-components.js';

const none = (): undefined => undefined;

describe('generate cluster --list-variables', () => {
  const template = [
    'name: ${CLUSTER_NAME}',
    'ns: ${NAMESPACE}',
    'cp: ${CONTROL_PLANE_MACHINE_COUNT}',
    'w: ${WORKER_MACHINE_COUNT:=3}',
    'k: ${KUBERNETES_VERSION}',
    'r: ${REGION}',
    'q: ${QUOTED:="already"}',
    'd: ${PLAIN:=a b}',
    'x: ${SSH_KEY}',
  ].join('\n');

  it('prints required then optional variables, aligned like Go tabwriter, with well-known values replaced', () => {
    const map = newTemplate({ raw: template, targetNamespace: 'ns', variables: none, skipTemplateProcess: true }).variableMap;
    const out = formatClusterVariables(map, { clusterName: 'c1', targetNamespace: 'team-a', env: {} });
    expect(out).toBe(
      [
        'Required Variables:',
        '  - KUBERNETES_VERSION',
        '  - REGION',
        '  - SSH_KEY',
        '',
        'Optional Variables:',
        '  - CLUSTER_NAME                 (defaults to c1)',
        '  - CONTROL_PLANE_MACHINE_COUNT  (defaults to 1)',
        '  - NAMESPACE                    (defaults to team-a)',
        '  - PLAIN                        (defaults to "a b")',
        '  - QUOTED                       (defaults to "already")',
        '  - WORKER_MACHINE_COUNT         (defaults to 0)',
        '',
        '',
      ].join('\n'),
    );
  });

  it('machine counts and Kubernetes version come from flags, else the OS environment only', () => {
    const map = { CONTROL_PLANE_MACHINE_COUNT: null, WORKER_MACHINE_COUNT: null, KUBERNETES_VERSION: null };
    const fromEnv = formatClusterVariables(map, {
      clusterName: 'c',
      env: { WORKER_MACHINE_COUNT: '5', KUBERNETES_VERSION: 'v1.30.0' },
    });
    expect(fromEnv).toContain('  - WORKER_MACHINE_COUNT         (defaults to 5)\n');
    expect(fromEnv).toContain('  - KUBERNETES_VERSION           (defaults to v1.30.0)\n');
    const fromFlags = formatClusterVariables(map, {
      clusterName: 'c',
      controlPlaneMachineCount: '3',
      kubernetesVersion: 'v1.31.0',
      env: { CONTROL_PLANE_MACHINE_COUNT: '9' },
    });
    expect(fromFlags).toContain('CONTROL_PLANE_MACHINE_COUNT  (defaults to 3)');
    expect(fromFlags).toContain('KUBERNETES_VERSION           (defaults to v1.31.0)');
  });

  it('with no variables prints one empty line', () => {
    expect(formatClusterVariables({}, { clusterName: 'c', env: {} })).toBe('\n');
    expect(formatYamlVariables([])).toBe('\n');
    expect(formatYamlVariables(['A', 'B'])).toBe('Variables:\n  - A\n  - B\n');
  });
});

describe('Go formatting helpers', () => {
  it('goQuote matches strconv.Quote', () => {
    expect(goQuote('default')).toBe('"default"');
    expect(goQuote('${A}')).toBe('"${A}"');
    expect(goQuote('["10.0.0.0/8"]')).toBe('"[\\"10.0.0.0/8\\"]"');
    expect(goQuote('a\tb\\c\n')).toBe('"a\\tb\\\\c\\n"');
    expect(goQuote('é日本')).toBe('"é日本"');
    expect(goQuote('\x00\x7f')).toBe('"\\x00\\x7f"');
    expect(goQuote('\u200b')).toBe('"\\u200b"');
  });

  it('tabwriter pads the first column to the widest cell plus two, per block of tabbed lines', () => {
    expect(tabwrite('  - A\tx\n  - LONGER\ty\n')).toBe('  - A       x\n  - LONGER  y\n');
    expect(tabwrite('  - ÄÖ\tx\n  - B\ty\n')).toBe('  - ÄÖ  x\n  - B   y\n');
  });

  it('ParseSemantic accepts exactly major.minor.patch with optional v, pre-release and build', () => {
    for (const ok of ['v1.2.3', '1.2.3', 'v1.30.0-rc.1', 'v1.2.3+build.5', ' v1.2.3 ']) {
      expect(isKubernetesSemanticVersion(ok), ok).toBe(true);
    }
    for (const bad of ['1.2', 'v1.02.3', 'v1.2.3.4', 'latest', 'v1.2.3-01', '', 'V1.2.3']) {
      expect(isKubernetesSemanticVersion(bad), bad).toBe(false);
    }
  });
});

describe('cluster templates', () => {
  it('MergeTemplates: union of variables, first non-null default wins, namespace blank when they differ', () => {
    const a = newTemplate({ raw: 'a: ${A}\nb: ${S:-one}', targetNamespace: 'ns1', variables: () => 'v' });
    const b = newTemplate({ raw: 'b: ${B}\nc: ${S:-two}', targetNamespace: 'ns2', variables: () => 'v' });
    const m = mergeTemplates(a, b);
    expect(m?.variables).toEqual(['A', 'B', 'S']);
    expect(m?.variableMap.S).toBe('one');
    expect(m?.targetNamespace).toBe('');
    expect(m?.objects).toHaveLength(2);
  });

  it('renderClusterTemplate puts ClusterClass objects first and keeps duplicates (no de-duplication)', () => {
    const cluster = (name: string): string =>
      `apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: ${name}\nspec:\n  topology:\n    class: qs\n`;
    const requested: string[] = [];
    const r = renderClusterTemplate({
      raw: `${cluster('a')}---\n${cluster('b')}`,
      targetNamespace: 'ns',
      variables: none,
      clusterClass: (name, ns) => {
        requested.push(`${ns}/${name}`);
        return { raw: `apiVersion: cluster.x-k8s.io/v1beta1\nkind: ClusterClass\nmetadata:\n  name: ${name}`, source: 'cc' };
      },
    });
    expect(requested).toEqual(['ns/qs', 'ns/qs']);
    expect(r.objects.map((o) => o.kind)).toEqual(['ClusterClass', 'ClusterClass', 'Cluster', 'Cluster']);
    expect(r.objects.every((o) => (o.metadata as { namespace: string }).namespace === 'ns')).toBe(true);
  });

  it('a v1beta2 topology with classRef.namespace renders the class into that namespace', () => {
    const r = renderClusterTemplate({
      raw: 'apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: a\nspec:\n  topology:\n    classRef:\n      name: qs\n      namespace: shared\n',
      targetNamespace: 'ns',
      variables: none,
      clusterClass: (name) => ({ raw: `apiVersion: cluster.x-k8s.io/v1beta2\nkind: ClusterClass\nmetadata:\n  name: ${name}`, source: 'cc' }),
    });
    expect(r.objects.map((o) => (o.metadata as { namespace: string }).namespace)).toEqual(['shared', 'ns']);
    expect(r.targetNamespace).toBe('');
  });

  it('--list-variables mode returns no objects and never looks for ClusterClasses', () => {
    const r = renderClusterTemplate({
      raw: 'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: ${CLUSTER_NAME}\nspec:\n  topology:\n    class: qs\n',
      targetNamespace: 'ns',
      variables: none,
      listVariablesOnly: true,
      clusterClass: () => {
        throw new Error('not called');
      },
    });
    expect(r.objects).toEqual([]);
    expect(r.yaml()).toBe('');
    expect(r.variables).toEqual(['CLUSTER_NAME']);
  });
});

describe('generate provider --describe', () => {
  it('prints clusterctl\'s summary with the URL minus the version segment', () => {
    const text = describeComponents(
      {
        name: 'aws',
        type: 'InfrastructureProvider',
        version: 'v2.11.1',
        variables: ['AWS_B64ENCODED_CREDENTIALS'],
        images: ['registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.11.1'],
        targetNamespace: 'capa-system',
      },
      'https://github.com/kubernetes-sigs/cluster-api-provider-aws/releases/latest/infrastructure-components.yaml',
    );
    expect(text).toBe(
      [
        'Name:               aws',
        'Type:               InfrastructureProvider',
        'URL:                https://github.com/kubernetes-sigs/cluster-api-provider-aws/releases/',
        'Version:            v2.11.1',
        'File:               infrastructure-components.yaml',
        'TargetNamespace:    capa-system',
        'Variables:',
        '  - AWS_B64ENCODED_CREDENTIALS',
        'Images:',
        '  - registry.k8s.io/cluster-api-aws/cluster-api-aws-controller:v2.11.1',
        '',
        '',
      ].join('\n'),
    );
  });
});
