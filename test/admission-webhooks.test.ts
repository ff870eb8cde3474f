/**
 * CAPI's validating webhooks as capiform models them, against upstream's own test tables: every file of
 * test/fixtures/webhooks (see its README) is a webhook's cases — a base object, JSON merge patches for the old and
 * new object, and whether the API server admits the change with which messages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYamlValue } from '../src/yaml/index.js';
import { admit, webhooks } from '../src/validate/index.js';
import { checkUpdates, templateImmutability } from '../src/validate/admission/index.js';

type Obj = Record<string, unknown>;

interface WebhookCase {
  name: string;
  test: string;
  note?: string;
  old?: Obj;
  new: Obj;
  defaults?: boolean;
  clusterClass?: Obj;
  allowed: boolean;
  messages?: string[];
}

interface WebhookVectors {
  webhook: string;
  source: string;
  base: Obj;
  cases: WebhookCase[];
}

const dir = join(import.meta.dirname, 'fixtures', 'webhooks');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

describe('webhook vectors', () => {
  it('cover a file per modelled webhook kind that upstream tests', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const v = parseYamlValue(readFileSync(join(dir, f), 'utf8')) as WebhookVectors;
      expect(webhooks.map((w) => w.kind), f).toContain(v.webhook);
    }
  });

  for (const file of files) {
    const vectors = parseYamlValue(readFileSync(join(dir, file), 'utf8')) as WebhookVectors;
    describe(`${vectors.webhook} (${vectors.source})`, () => {
      for (const c of vectors.cases) {
        it(`${c.test}: ${c.name}`, () => {
          const after = mergePatch(vectors.base, c.new) as Obj;
          const before = c.old === undefined ? undefined : (mergePatch(vectors.base, c.old) as Obj);
          const errors = admit(after, before, { defaults: c.defaults ?? true, ...(c.clusterClass ? { clusterClass: c.clusterClass } : {}) }).map((e) => e.error.message);
          // A template's spec immutability is its own update rule (template-immutability.ts), reported at its field.
          if (before) {
            const at = (object: Obj) => ({ object, file, line: 1 });
            errors.push(...checkUpdates([{ before: at(before), after: at(after) }], [templateImmutability]).map((f) => `${f.field}: ${f.message}`));
          }
          if (c.allowed) expect(errors).toEqual([]);
          else expect(errors).toEqual(c.messages);
        });
      }
    });
  }
});
