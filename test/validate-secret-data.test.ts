/**
 * A Secret's `data` is `map[string][]byte`: the API server decodes it with encoding/json, so an empty value is an
 * empty key, as CAPZ's own components write it when AZURE_SUBSCRIPTION_ID_B64 is not set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { substitute } from '../src/index.js';
import { builtInSchemas } from '../src/pipeline/validate/index.js';
import { formatFinding, readManifest, validateManifests } from '../src/validate/index.js';
import { sharedDir } from './helpers/shared.js';

const corpus = sharedDir('corpus');

function findings(text: string): string[] {
  return validateManifests({ objects: readManifest(text, 'components.yaml').objects, builtIn: builtInSchemas() }).findings.map(formatFinding);
}

const secret = (data: string): string => `apiVersion: v1\nkind: Secret\nmetadata: { name: s, namespace: ns }\ndata:\n${data}\n`;

describe('Secret data as the API server decodes it', () => {
  it.skipIf(!corpus.present)(`CAPZ's bootstrap credentials Secret with subscription-id: "" is valid${corpus.skipped}`, () => {
    const components = readFileSync(join(corpus.path, 'repository/infrastructure-azure/v1.26.0/infrastructure-components.yaml'), 'utf8');
    const doc = components.split(/^---\n/m).find((d) => /^kind: Secret$/m.test(d) && d.includes('subscription-id'))!;
    const rendered = substitute(doc, {});
    expect(rendered).toContain('subscription-id: ""');
    expect(findings(rendered)).toEqual([]);
  });

  it('accepts padded base64 across lines, refuses what Go cannot decode', () => {
    expect(findings(secret('  a: ""\n  b: Zm9v\n  c: |\n    Zm9v\n    YmFy\n  d: Zm8='))).toEqual([]);
    expect(findings(secret('  a: "Zm8"'))).toEqual([
      'components.yaml:1: error: Secret ns/s: data.a: Invalid value: "Zm8": data.a in body must be of type byte: "Zm8"',
    ]);
  });
});
