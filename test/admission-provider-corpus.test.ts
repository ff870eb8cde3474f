/**
 * The CAPA and CAPZ webhooks against the providers' own releases in the corpus: every machine template the releases
 * ship is admitted as written (CAPZ's after clusterctl's variable substitution), and the same template with one
 * upstream-refused change is refused with the webhook's message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { substitute } from '../src/index.js';
import { admit } from '../src/validate/index.js';
import { parseYamlValue } from '../src/yaml/index.js';
import { sharedDir } from './helpers/shared.js';

type Obj = Record<string, unknown>;

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');

/**
 * The values a user gives `clusterctl generate cluster` for CAPZ's templates; any other variable without a default
 * gets `example-<name>` (as test/topology-corpus.test.ts does). `AZURE_SSH_PUBLIC_KEY_B64` keeps its empty default: the
 * defaulting webhook generates a key.
 */
const azureSettings: Record<string, string> = {
  CLUSTER_NAME: 'demo',
  NAMESPACE: 'default',
  KUBERNETES_VERSION: 'v1.33.1',
  AZURE_LOCATION: 'westeurope',
  AZURE_SUBSCRIPTION_ID: '00000000-0000-0000-0000-000000000001',
  AZURE_CONTROL_PLANE_MACHINE_TYPE: 'Standard_D2s_v3',
  AZURE_NODE_MACHINE_TYPE: 'Standard_D2s_v3',
};

function substituted(text: string): string {
  const values: Record<string, string> = {};
  for (const m of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    const name = m[1] as string;
    values[name] = azureSettings[name] ?? (/COUNT$/.test(name) ? '1' : /^EXP_/.test(name) ? 'false' : `example-${name.toLowerCase().replace(/_/g, '-')}`);
  }
  return substitute(text, values);
}

/** The objects of `kinds` in every cluster template of a provider's release. */
function templateObjects(provider: string, version: string, kinds: readonly string[], substitute = false): { file: string; object: Obj }[] {
  if (!shared.present) return [];
  const dir = join(corpus, provider, version);
  const out: { file: string; object: Obj }[] = [];
  for (const file of readdirSync(dir).filter((f) => f.startsWith('cluster-template') && f.endsWith('.yaml')).sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const doc of (substitute ? substituted(text) : text).split(/^---\s*$/m)) {
      if (!kinds.some((k) => doc.includes(`kind: ${k}\n`))) continue;
      const object = parseYamlValue(doc) as Obj;
      if (kinds.includes(String(object.kind))) out.push({ file, object });
    }
  }
  return out;
}

const messages = (o: Obj, before?: Obj): string[] => admit(o, before).map((e) => e.error.message);

describe.skipIf(!shared.present)(`CAPA machine templates of the corpus${shared.skipped}`, () => {
  for (const version of ['v2.10.3', 'v2.11.1']) {
    const objects = templateObjects('infrastructure-aws', version, ['AWSMachineTemplate', 'AWSMachine']);
    it(`${version}: every AWSMachineTemplate is admitted as written`, () => {
      expect(objects.length).toBeGreaterThan(5);
      for (const { file, object } of objects) expect(messages(object), file).toEqual([]);
    });
  }

  it('an io1 root volume without iops is refused with the webhook message', () => {
    const [first] = templateObjects('infrastructure-aws', 'v2.11.1', ['AWSMachineTemplate']);
    const o = structuredClone(first?.object) as Obj;
    const spec = ((o.spec as Obj).template as Obj).spec as Obj;
    spec.rootVolume = { size: 50, type: 'io1' };
    expect(messages(o)).toEqual(["spec.template.spec.rootVolume.iops: Required value: iops required if type is 'io1' or 'io2'"]);
  });
});

describe.skipIf(!shared.present)(`CAPZ machines and machine templates of the corpus${shared.skipped}`, () => {
  const kinds = ['AzureMachineTemplate', 'AzureMachine'];
  for (const version of ['v1.25.1', 'v1.26.0']) {
    const objects = templateObjects('infrastructure-azure', version, kinds, true);
    it(`${version}: every AzureMachineTemplate of every flavor is admitted`, () => {
      expect(objects.length).toBeGreaterThan(20);
      for (const { file, object } of objects) expect(messages(object), `${file} ${String((object.metadata as Obj).name)}`).toEqual([]);
    });
  }

  const first = (): Obj => {
    const [t] = templateObjects('infrastructure-azure', 'v1.26.0', ['AzureMachineTemplate'], true);
    return structuredClone(t?.object) as Obj;
  };
  const specOf = (o: Obj): Obj => ((o.spec as Obj).template as Obj).spec as Obj;

  it('a public key that is not base64 of an authorized key is refused with the webhook message', () => {
    const o = first();
    specOf(o).sshPublicKey = 'ssh-ed25519 AAAA';
    expect(messages(o)).toEqual(['sshPublicKey: Invalid value: "ssh-ed25519 AAAA": the SSH public key is not properly base64 encoded']);
    specOf(o).sshPublicKey = Buffer.from('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAEC\n').toString('base64');
    expect(messages(o)).toEqual([`sshPublicKey: Invalid value: "${String(specOf(o).sshPublicKey)}": the SSH public key is not valid`]);
  });

  it('a second data disk on the same LUN is refused', () => {
    const o = first();
    const spec = specOf(o);
    spec.dataDisks = [...(spec.dataDisks as Obj[]), { diskSizeGB: 64, nameSuffix: 'data', lun: 0 }];
    expect(messages(o)).toEqual(['dataDisks: Duplicate value: 0']);
  });
});
