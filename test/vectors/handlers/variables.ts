/**
 * capi-plan vectors for ClusterClass variables (`variable-defaulting.json`, `variable-validation.json`, and files of
 * other names with the same shapes): CAPI's defaulting and validation of Cluster variable values and of ClusterClass
 * variable definitions, through the topology door.
 */
import { expect } from 'vitest';
import { RawJson, type FieldError } from '../../../src/apiextensions/index.js';
import {
  validateClusterClassVariables,
  validateMachineVariables,
  type ClusterClassStatusVariable,
  type ClusterClassVariable,
  type ClusterVariable,
} from '../../../src/topology/index.js';
import {
  defaultClusterVariables,
  defaultMachineVariables,
  defaultVariable,
  validateClusterClassVariable,
  validateClusterVariable,
  validateVariables,
} from '../../../src/topology/variables/index.js';
import { checkExpected, field, need, rec, type Rec } from '../fields.js';
import type { Vector, VectorHandler } from '../types.js';

/** `{"$invalidJSON": "<text>"}` in a fixture stands for raw JSON text that does not parse. */
function schemaOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(schemaOf);
  if (typeof v === 'object' && v !== null) {
    const o = v as Rec;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === '$invalidJSON' && typeof o.$invalidJSON === 'string') return new RawJson(o.$invalidJSON);
    const out: Rec = {};
    for (const [k, x] of Object.entries(o)) out[k] = schemaOf(x);
    return out;
  }
  return v;
}

function valueOf(v: unknown): ClusterVariable | undefined {
  if (v === null || v === undefined) return undefined;
  const o = rec(v);
  const raw = field(o, ['valueRawJSON', 'rawJSON', 'valueRaw']);
  const out: ClusterVariable = { name: String(o.name ?? '') };
  if (typeof raw === 'string') out.raw = raw;
  else if (o.value !== undefined) out.value = o.value;
  return out;
}

function valuesOf(v: unknown): ClusterVariable[] {
  return (Array.isArray(v) ? v : []).map((x) => valueOf(x) as ClusterVariable);
}

function classVariableOf(v: unknown): ClusterClassVariable {
  return schemaOf(v) as ClusterClassVariable;
}

function statusVariablesOf(v: unknown): ClusterClassStatusVariable[] {
  return (Array.isArray(v) ? v : []).map((x) => schemaOf(x) as ClusterClassStatusVariable);
}

/** A status variable from a plain `ClusterClassVariable` (`{name, required, schema}`) or a status one. */
function statusVariableOf(v: unknown): ClusterClassStatusVariable {
  const o = schemaOf(v) as Rec;
  if (Array.isArray(o.definitions)) return o as unknown as ClusterClassStatusVariable;
  return {
    name: String(o.name ?? ''),
    definitions: [{ from: 'inline', required: o.required as boolean | undefined, schema: o.schema as ClusterClassVariable['schema'] }],
  };
}

/** The vector's field path, with `<clusterVariable.name>`-style placeholders filled from the input. */
function pathOf(v: Vector): string {
  const p = String(need(v, ['fieldPath', 'path', 'fldPath'], 'variables') ?? '');
  return p.replace(/<([A-Za-z]+)\.name>/g, (_m, key: string) => String(rec(v.input[key]).name ?? ''));
}

function checkErrors(v: Vector, got: FieldError[]): void {
  checkExpected(v, 'variable validation', {
    errors: (want) => {
      const expected = (want as Array<{ type?: string; field?: string; messageContains?: string; message?: string }>) ?? [];
      const summary = got.map((e) => `${e.type} ${e.field}: ${e.message}`);
      expect(got.length, `errors: ${JSON.stringify(summary, null, 1)}`).toBe(expected.length);
      expected.forEach((w, i) => {
        const e = got[i] as FieldError;
        if (w.type !== undefined) expect(e.type, summary.join('\n')).toBe(w.type);
        if (w.field !== undefined) expect(e.field, summary.join('\n')).toBe(w.field);
        if (w.messageContains !== undefined) expect(e.message).toContain(w.messageContains);
        if (w.message !== undefined) expect(e.message).toBe(w.message);
      });
    },
  });
}

function compatibilityFrom(v: Vector): string | undefined {
  const call = typeof v.input.call === 'string' ? v.input.call : '';
  return /compatibility version pinned to Kubernetes (\d+\.\d+)/.exec(call)?.[1];
}

const validation: VectorHandler = (v) => {
  const i = v.input;
  const path = pathOf(v);
  const call = typeof i.call === 'string' ? i.call : '';
  if (i.clusterClassVariables !== undefined) {
    const compat = compatibilityFrom(v);
    const got = validateClusterClassVariables(
      i.oldClusterClassVariables === undefined ? undefined : (i.oldClusterClassVariables as unknown[]).map(classVariableOf),
      (i.clusterClassVariables as unknown[]).map(classVariableOf),
      path,
      compat ? { compatibilityVersion: compat } : {},
    );
    return checkErrors(v, got);
  }
  if (i.clusterClassVariable !== undefined && i.clusterVariable === undefined && i.value === undefined) {
    const compat = compatibilityFrom(v);
    const old = i.oldClusterClassVariable === undefined ? undefined : classVariableOf(i.oldClusterClassVariable);
    return checkErrors(v, validateClusterClassVariable(old, classVariableOf(i.clusterClassVariable), path, compat ? { compatibilityVersion: compat } : {}));
  }
  if (i.definitions !== undefined || i.values !== undefined) {
    const definitions = statusVariablesOf(i.definitions);
    const values = valuesOf(i.values);
    const oldValues = valuesOf(i.oldValues);
    if (i.validateRequired === undefined && /Machine|ControlPlane/i.test(call)) {
      return checkErrors(v, validateMachineVariables(values, oldValues, definitions, path));
    }
    return checkErrors(v, validateVariables(values, oldValues, definitions, i.validateRequired !== false, path));
  }
  const definition = field(i, ['definition', 'clusterClassVariable']);
  const value = field(i, ['value', 'clusterVariable']);
  if (definition === undefined || value === undefined) {
    expect.fail('variable validation: the input has none of clusterClassVariables, clusterClassVariable, definitions/values, definition/value');
  }
  const def = statusVariableOf(definition);
  const old = valueOf(field(i, ['oldClusterVariable', 'oldValue']));
  const got = validateClusterVariable(
    valueOf(value) as ClusterVariable,
    old,
    { name: def.name, required: def.definitions[0]?.required, schema: def.definitions[0]?.schema ?? { openAPIV3Schema: {} } },
    path,
  );
  checkErrors(v, got);
};

function expectVariable(got: ClusterVariable | undefined, want: unknown): void {
  if (want === null) {
    expect(got).toBeUndefined();
    return;
  }
  const w = rec(want);
  expect(got, 'a defaulted variable').toBeDefined();
  expect(got?.name).toBe(w.name);
  const raw = field(w, ['valueRawJSON', 'rawJSON']);
  const wantValue = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : w.value;
  expect(JSON.parse(got?.raw ?? 'null')).toEqual(wantValue);
}

const defaulting: VectorHandler = (v) => {
  const i = v.input;
  const path = pathOf(v);
  if (i.definitions !== undefined || i.values !== undefined) {
    const create = field(i, ['createVariables', 'createVariable']) !== false;
    const got = (create ? defaultClusterVariables : defaultMachineVariables)(valuesOf(i.values), statusVariablesOf(i.definitions), path);
    checkExpected(v, 'variable defaulting', {
      variables: (want) => {
        // Go returns nil variables with its errors.
        if (want === null) {
          expect(got.variables).toEqual([]);
          return;
        }
        expect(got.errors.map((e) => e.message)).toEqual([]);
        const list = want as unknown[];
        expect(got.variables.map((x) => x.name)).toEqual(list.map((x) => rec(x).name));
        list.forEach((w, k) => expectVariable(got.variables[k], w));
      },
      errors: () => checkErrors(v, got.errors),
    });
    return;
  }
  const definition = need(v, ['definition', 'clusterClassVariable'], 'variable defaulting');
  const create = field(i, ['createVariable', 'createVariables']) !== false;
  const def = statusVariableOf(definition);
  const got = defaultVariable(valueOf(field(i, ['value', 'clusterVariable'])), def, path, create);
  checkExpected(v, 'variable defaulting', {
    variable: (want) => {
      if (want !== null) expect(got.errors.map((e) => e.message)).toEqual([]);
      expectVariable(got.variable, want);
    },
    errors: () => checkErrors(v, got.errors),
  });
};

export const handlers: Record<string, VectorHandler> = {
  'capi-plan:variable-defaulting:*': defaulting,
  'capi-plan:variable-validation:*': validation,
};
