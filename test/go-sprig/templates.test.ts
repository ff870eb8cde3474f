/**
 * sprig through real templates, as CAPI renders `valueFrom.template` and `enabledIf`:
 * `template.New(..).Funcs(sprig.HermeticTxtFuncMap()).Parse(..)`. The first table is sprig v3.3.0's own test suite;
 * the rest is what a ClusterClass author meets: functions that do not exist, errors, and JSON-decoded variables.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goValueFromJSON, parseTemplate } from '../../src/go/template/index.js';
import { hermeticTxtFuncMap } from '../../src/go/sprig/index.js';

const funcs = hermeticTxtFuncMap();

function render(text: string, data: unknown = null): string {
  try {
    return parseTemplate('tpl', text, { funcs }).execute(goValueFromJSON(data));
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

interface UpstreamCase {
  source: string;
  template: string;
  expected: string;
}
const upstream = JSON.parse(readFileSync(join(import.meta.dirname, 'sprig-v3.3.0-cases.json'), 'utf8')) as { cases: UpstreamCase[] };

describe("sprig v3.3.0's own tests", () => {
  it('has the upstream tables', () => {
    expect(upstream.cases.length).toBeGreaterThan(300);
  });
  for (const c of upstream.cases) {
    it(`${c.source}: ${c.template}`, () => {
      expect(render(c.template)).toBe(c.expected);
    });
  }
});

describe('functions that are not in the hermetic map fail to parse, as in CAPI', () => {
  it.each([
    // Helm-only
    'toYaml',
    'fromYaml',
    'include',
    'tpl',
    'required',
    'lookup',
    // non-hermetic in sprig
    'env',
    'expandenv',
    'now',
    'date',
    'dateInZone',
    'htmlDate',
    'randAlphaNum',
    'randAlpha',
    'randAscii',
    'randNumeric',
    'randBytes',
    'uuidv4',
    'getHostByName',
  ])('%s', (name) => {
    expect(render(`{{ ${name} . }}`)).toBe(`error: template: tpl:1: function "${name}" not defined`);
  });
});

describe('what ClusterClass patches do with sprig', () => {
  const variables = {
    builtin: { cluster: { name: 'prod-eu', topology: { version: 'v1.30.2' } }, controlPlane: { replicas: 3 } },
    imageRepository: 'registry.example.com/k8s',
    podSecurityStandard: { enabled: true, enforce: 'baseline' },
    extraArgs: { 'max-pods': '110', 'node-labels': 'tier=web' },
  };
  it.each([
    ['{{ .builtin.cluster.name | upper }}', 'PROD-EU'],
    ['{{ semverCompare "< 1.25" .builtin.cluster.topology.version }}', 'false'],
    ['{{ if semverCompare ">= 1.25-0" .builtin.cluster.topology.version }}v1{{ else }}v1beta1{{ end }}', 'v1'],
    ['{{ (semver .builtin.cluster.topology.version).Minor }}', '30'],
    ['{{ .builtin.cluster.topology.version | replace "+" "_" }}', 'v1.30.2'],
    ['{{ .builtin.controlPlane.replicas }}', '3'],
    ['{{ add .builtin.controlPlane.replicas 1 }}', '4'],
    ['{{ .builtin.controlPlane.replicas | int | mul 2 }}', '6'],
    ['{{ .extraArgs | toJson }}', '{"max-pods":"110","node-labels":"tier=web"}'],
    ['{{ keys .extraArgs | sortAlpha | join "," }}', 'max-pods,node-labels'],
    ['{{ default "registry.k8s.io" .imageRepository }}', 'registry.example.com/k8s'],
    ['{{ default "registry.k8s.io" .missing }}', 'registry.k8s.io'],
    ['{{ .podSecurityStandard.enforce | quote }}', '"baseline"'],
    ['{{- range $k, $v := .extraArgs }}\n{{ $k }}: {{ $v | quote }}{{ end }}', '\nmax-pods: "110"\nnode-labels: "tier=web"'],
    ['{{ dict "enforce" .podSecurityStandard.enforce "version" "latest" | toYaml }}', 'error: template: tpl:1: function "toYaml" not defined'],
    ['{{ list "a" "b" | toPrettyJson | nindent 2 }}', '\n  [\n    "a",\n    "b"\n  ]'],
    ['{{ regexReplaceAll "^v" .builtin.cluster.topology.version "" }}', '1.30.2'],
    ['{{ .builtin.cluster.name | trunc 4 | b64enc }}', 'cHJvZA=='],
    ['{{ sha256sum .builtin.cluster.name | trunc 8 }}', '3312b695'],
  ])('%s', (text, expected) => {
    expect(render(text, variables)).toBe(expected);
  });

  it('renders the PodSecurity apiVersion switch of the CAPD quick-start class', () => {
    const tpl = 'pod-security.admission.config.k8s.io/v1{{ if semverCompare "< v1.25-0" .builtin.controlPlane.version }}beta1{{ end }}';
    const at = (version: string): string => render(tpl, { builtin: { controlPlane: { version } } });
    expect(at('v1.24.3+k3s1')).toBe('pod-security.admission.config.k8s.io/v1beta1');
    expect(at('v1.25.0-rc.1')).toBe('pod-security.admission.config.k8s.io/v1');
    expect(at('v1.25.0')).toBe('pod-security.admission.config.k8s.io/v1');
    expect(render('{{ semverCompare "< v1.25" "v1.25.0-rc.1" }}')).toBe('false');
  });

  it('rewrites the kube-vip manifest address the way the vSphere class does', () => {
    const manifest = 'env:\n- name: vip_arp\n  value: "true"\n- name: address\n  value: placeholder\n- name: port\n';
    const tpl = '{{ printf "%q" (regexReplaceAll "(name: address\\n +value:).*" .kubeVipPodManifest (printf "$1 %s" .controlPlaneIpAddr)) }}';
    expect(render(tpl, { kubeVipPodManifest: manifest, controlPlaneIpAddr: '10.0.0.5' })).toBe(
      JSON.stringify(manifest.replace('value: placeholder', 'value: 10.0.0.5')),
    );
  });

  it('reports a function error the way Go does', () => {
    expect(render('{{ fail "set .foo" }}')).toBe('error: template: tpl:1:3: executing "tpl" at <fail "set .foo">: error calling fail: set .foo');
    expect(render('{{ semver "x" }}')).toBe(
      'error: template: tpl:1:3: executing "tpl" at <semver "x">: error calling semver: invalid semantic version',
    );
    expect(render('{{ first 1 }}')).toBe('error: template: tpl:1:3: executing "tpl" at <first 1>: error calling first: Cannot find first on type int');
  });

  it('large JSON numbers print as Go prints float64', () => {
    expect(render('{{ .n }} {{ .n | int }} {{ .n | toString }} {{ .n | toJson }}', { n: 1000000 })).toBe('1e+06 1000000 1e+06 1000000');
  });
});

describe('dates: time.Time in UTC, the time zone of the CAPI controller image', () => {
  it.each([
    ['{{ toDate "2006-01-02" "2017-12-31" }}', '2017-12-31 00:00:00 +0000 UTC'],
    ['{{ toDate "2006-01-02" "2017-12-31" | unixEpoch }}', '1514678400'],
    ['{{ (toDate "2006-01-02" "2017-12-31").Format "02/01/2006" }}', '31/12/2017'],
    ['{{ toDate "2006-01-02" "not a date" }}', '0001-01-01 00:00:00 +0000 UTC'],
    ['{{ toDate "2006-01-02" "2017-12-31" | mustDateModify "1h30m" }}', '2017-12-31 01:30:00 +0000 UTC'],
    [
      '{{ $t := toDate "2006-01-02T15:04:05Z07:00" "2024-02-29T10:00:00+02:00" }}{{ $t }} {{ $t | unixEpoch }} {{ $t | toJson }}',
      '2024-02-29 10:00:00 +0200 +0200 1709193600 "2024-02-29T10:00:00+02:00"',
    ],
    ['{{ toDate "Jan 2, 2006 at 3:04pm (MST)" "Feb 3, 2013 at 7:54pm (PST)" }}', '2013-02-03 19:54:00 +0000 PST'],
    ['{{ (toDate "2006-01-02 15:04:05.000" "2013-02-03 19:54:00.123").Format "2006-01-02T15:04:05.999999999Z07:00" }}', '2013-02-03T19:54:00.123Z'],
    ['{{ (toDate "2006-01-02" "2024-03-01").YearDay }} {{ (toDate "2006-01-02" "2024-03-01").Weekday }}', '61 Friday'],
    ['{{ mustToDate "2006-01-02" "x" }}', 'error: template: tpl:1:3: executing "tpl" at <mustToDate "2006-01-02" "x">: error calling mustToDate: parsing time "x" as "2006-01-02": cannot parse "x" as "2006"'],
    ['{{ mustToDate "2006-01-02" "2024-13-01" }}', 'error: template: tpl:1:3: executing "tpl" at <mustToDate "2006-01-02" "2024-13-01">: error calling mustToDate: parsing time "2024-13-01": month out of range'],
    ['{{ mustToDate "2006-01-02" "2023-02-29" }}', 'error: template: tpl:1:3: executing "tpl" at <mustToDate "2006-01-02" "2023-02-29">: error calling mustToDate: parsing time "2023-02-29": day out of range'],
    ['{{ mustToDate "2006-01-02" "2024-01-01x" }}', 'error: template: tpl:1:3: executing "tpl" at <mustToDate "2006-01-02" "2024-01-01x">: error calling mustToDate: parsing time "2024-01-01x": extra text: "x"'],
    ['{{ mustDateModify "soon" (toDate "2006-01-02" "2024-03-01") }}', 'error: template: tpl:1:3: executing "tpl" at <mustDateModify "soon" (toDate "2006-01-02" "2024-03-01")>: error calling mustDateModify: time: invalid duration "soon"'],
  ])('%s', (text, expected) => {
    expect(render(text)).toBe(expected);
  });
});

describe('buildCustomCert: a certificate and key given as base64 PEM, checked and returned as they are', () => {
  const pem = (name: string): string => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
  const data = {
    cert: Buffer.from(pem('test-cert.pem')).toString('base64'),
    key: Buffer.from(pem('test-key.pem')).toString('base64'),
  };
  it('exposes .Cert and .Key', () => {
    expect(render('{{ $c := buildCustomCert .cert .key }}{{ $c.Cert }}{{ $c.Key }}', data)).toBe(pem('test-cert.pem') + pem('test-key.pem'));
  });
  it('rejects what Go rejects, with sprig’s messages', () => {
    expect(render('{{ buildCustomCert "!!" .key }}', data)).toMatch(/error calling buildCustomCert: unable to decode base64 certificate$/);
    expect(render('{{ buildCustomCert (b64enc "no pem here") .key }}', data)).toMatch(/error calling buildCustomCert: unable to decode certificate$/);
    expect(render('{{ buildCustomCert .cert .cert }}', data)).toMatch(
      /error calling buildCustomCert: error parsing private key: no private key data in PEM block of type CERTIFICATE$/,
    );
  });
});
