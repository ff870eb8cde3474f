/**
 * The public capi-plan go-template vectors that need no sprig function, run straight against the engine: CAPI's
 * RenderValueTemplate (render, then YAML-parse the output), PatchIsEnabled (render, then the trimmed output must
 * be "true") and CalculateTemplateData (each variable's raw JSON decoded as encoding/json decodes into
 * interface{}, an empty raw value being null). The topology handler for these vectors belongs to the patch engine; this file only holds the
 * template engine to them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GoValue, goValueFromJSON, goValueToJSON, parseTemplate } from '../../src/go/template/index.js';
import { parseJsonValue, parseYamlValue } from '../../src/yaml/index.js';
import { sharedDir } from '../helpers/shared.js';

interface Vector {
  source: string;
  input: { template?: string; enabledIf?: string; variablesRawJSON: Record<string, string> | null };
  expected: { value?: unknown; enabled?: boolean; data?: unknown; error?: boolean };
}

const vectors = sharedDir('vectors');
const file = join(vectors.path, 'capi-plan', 'go-template.json');
const all: Vector[] = vectors.present ? (JSON.parse(readFileSync(file, 'utf8')) as { vectors: Vector[] }).vectors : [];

function templateData(raw: Record<string, string> | null): Map<string, GoValue> {
  const data = new Map<string, GoValue>();
  // apiextensionsv1.JSON marshals an empty Raw as null.
  for (const [name, json] of Object.entries(raw ?? {})) data.set(name, json === '' ? null : goValueFromJSON(parseJsonValue(json)));
  return data;
}

function outcome(v: Vector): { value?: unknown; enabled?: boolean; data?: unknown; error?: true } {
  try {
    const data = templateData(v.input.variablesRawJSON);
    if (v.input.template !== undefined) {
      const out = parseTemplate('tpl', v.input.template).execute(data);
      return { value: parseYamlValue(out) ?? null };
    }
    if (v.input.enabledIf !== undefined) {
      const out = parseTemplate('tpl', v.input.enabledIf).execute(data);
      return { enabled: out.trim() === 'true' };
    }
    return { data: goValueToJSON(data) };
  } catch {
    return { error: true };
  }
}

describe(`capi-plan go-template vectors${vectors.skipped}`, () => {
  it.skipIf(!vectors.present)('has vectors', () => {
    expect(all.length).toBeGreaterThan(0);
  });
  it.each(all.map((v) => [v.source, v] as const))('%s', (_source, v) => {
    const got = outcome(v);
    if (v.expected.error === true) expect(got).toEqual({ error: true });
    else if ('value' in v.expected) expect(got).toEqual({ value: v.expected.value });
    else if ('enabled' in v.expected) expect(got).toEqual({ enabled: v.expected.enabled });
    else if ('data' in v.expected) expect(got).toEqual({ data: v.expected.data });
    else throw new Error(`vector ${v.source} holds nothing this test checks`);
  });
});
