/**
 * The CAPA and CAPZ webhooks against the providers' own releases in the corpus: every machine template the releases
 * ship is admitted as written, and the same template with one upstream-refused change is refused with the webhook's
 * message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { admit } from '../src/validate/index.js';
import { parseYamlValue } from '../src/yaml/index.js';
import { sharedDir } from './helpers/shared.js';

type Obj = Record<string, unknown>;

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');

/** The objects of `kinds` in every cluster template of a provider's release. */
function templateObjects(provider: string, version: string, kinds: readonly string[]): { file: string; object: Obj }[] {
  if (!shared.present) return [];
  const dir = join(corpus, provider, version);
  const out: { file: string; object: Obj }[] = [];
  for (const file of readdirSync(dir).filter((f) => f.startsWith('cluster-template') && f.endsWith('.yaml')).sort()) {
    for (const doc of readFileSync(join(dir, file), 'utf8').split(/^---\s*$/m)) {
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
