/**
 * Vectors for variable substitution: every file in vectors/envsubst/ and the clusterctl ops tied to
 * SimpleProcessor (Process, GetVariables, GetVariableMap, GetTemplateName, MergeTemplates) and the library's own
 * table (envsubst.Eval).
 */
import { Buffer } from 'node:buffer';
import { parseAllDocuments } from 'yaml';
import { expect } from 'vitest';
import { CapiformError, MissingVariablesError, TemplateSyntaxError } from '../../../src/errors.js';
import {
  envsubstEval,
  getVariableMap,
  getVariables,
  mergeTemplates,
  substitute,
  substituteBytes,
} from '../../../src/envsubst/index.js';
import { clusterClassFileName, templateFileName } from '../../../src/render/template-names.js';
import type { Vector, VectorHandler } from '../types.js';

type Env = Record<string, string>;

interface SubstExpected {
  output?: string;
  outputBase64?: string;
  error?: boolean;
  errorKind?: 'parse' | 'missing' | 'panic';
  message?: string;
  missing?: string[];
}

function run<T>(fn: () => T): { value: T; error?: undefined } | { value?: undefined; error: unknown } {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

/** Asserts an error outcome in the envsubst vector format (exact message for parse and missing errors). */
function expectError(error: unknown, expected: SubstExpected): void {
  expect(error, 'expected an error').toBeDefined();
  expect(error).toBeInstanceOf(CapiformError);
  const err = error as CapiformError;
  if (expected.errorKind === 'parse') {
    expect(err).toBeInstanceOf(TemplateSyntaxError);
    expect(err.message).toBe(expected.message);
  } else if (expected.errorKind === 'missing') {
    expect(err).toBeInstanceOf(MissingVariablesError);
    expect(err.message).toBe(expected.message);
    if (expected.missing) expect((err as MissingVariablesError).names).toEqual(expected.missing);
  }
  // panic: any error will do (Go's runtime message is not part of the contract).
}

const curated: VectorHandler = (vector) => {
  const template = vector.template as string;
  const env = vector.env as Env;
  const expected = vector.expected as SubstExpected;
  const got = run(() => substitute(template, env));
  if (expected.error) {
    expectError(got.error, expected);
    return;
  }
  if (got.error) throw got.error;
  expect(got.value).toBe(expected.output);
};

const byteLevel: VectorHandler = (vector) => {
  const template = vector.template as string;
  const env = vector.env as Env;
  const expected = vector.expected as SubstExpected;
  const got = run(() => substituteBytes(Buffer.from(template, 'utf8'), env));
  if (expected.error) {
    expectError(got.error, expected);
    return;
  }
  if (got.error) throw got.error;
  const out = Buffer.from(got.value!);
  if (expected.outputBase64 !== undefined) expect(out.toString('base64')).toBe(expected.outputBase64);
  else expect(out.toString('utf8')).toBe(expected.output);
};

const listVariablesFile: VectorHandler = (vector) => {
  const template = vector.template as string;
  const expected = vector.expected as SubstExpected & {
    variables?: string[];
    variableMap?: Record<string, string | null>;
  };
  if (expected.error) {
    expectError(
      run(() => getVariables(template)).error,
      expected,
    );
    expectError(
      run(() => getVariableMap(template)).error,
      expected,
    );
    return;
  }
  expect(getVariables(template)).toEqual(expected.variables);
  expect(getVariableMap(template)).toEqual(expected.variableMap);
};

interface ClusterctlExpected {
  output?: string;
  error?: boolean;
  errorMessage?: string;
  errorContains?: string;
  missing?: string[];
  variables?: string[];
  variableMap?: Record<string, string | null>;
  name?: string;
  clusterctlProcess?: ClusterctlExpected;
  objects?: number;
  variableMapSize?: number;
  variableMapSubset?: Record<string, string | null>;
}

function expectClusterctlOutcome(got: { value?: unknown; error?: unknown }, expected: ClusterctlExpected): void {
  if (expected.error) {
    expect(got.error, 'expected an error').toBeDefined();
    const message = (got.error as Error).message;
    if (expected.errorMessage !== undefined) expect(message).toBe(expected.errorMessage);
    if (expected.errorContains !== undefined) expect(message).toContain(expected.errorContains);
    if (expected.missing) expect((got.error as MissingVariablesError).names).toEqual(expected.missing);
    return;
  }
  if (got.error) throw got.error;
  expect(got.value).toBe(expected.output);
}

const processOp: VectorHandler = (vector: Vector) => {
  const { yaml, vars } = vector.input as { yaml: string; vars: Env };
  expectClusterctlOutcome(
    run(() => substitute(yaml, vars)),
    vector.expected as ClusterctlExpected,
  );
};

const getVariablesOp: VectorHandler = (vector) => {
  const { yaml } = vector.input as { yaml: string };
  const expected = vector.expected as ClusterctlExpected;
  if (expected.error) {
    expectClusterctlOutcome(run(() => getVariables(yaml)), expected);
    return;
  }
  expect(getVariables(yaml)).toEqual(expected.variables);
};

const getVariableMapOp: VectorHandler = (vector) => {
  const { yaml } = vector.input as { yaml: string };
  const expected = vector.expected as ClusterctlExpected;
  if (expected.error) {
    expectClusterctlOutcome(run(() => getVariableMap(yaml)), expected);
    return;
  }
  expect(getVariableMap(yaml)).toEqual(expected.variableMap);
};

const evalOp: VectorHandler = (vector) => {
  const { input, params } = vector.input as { input: string; params: Env };
  const expected = vector.expected as ClusterctlExpected;
  const mapping = (name: string): string => (Object.prototype.hasOwnProperty.call(params, name) ? params[name]! : '');
  expectClusterctlOutcome(
    run(() => envsubstEval(input, mapping)),
    expected,
  );
  if (expected.clusterctlProcess) {
    expectClusterctlOutcome(
      run(() => substitute(input, params)),
      expected.clusterctlProcess,
    );
  }
};

const getTemplateNameOp: VectorHandler = (vector) => {
  const { flavor } = vector.input as { version?: string; flavor?: string };
  expect(templateFileName(flavor)).toBe((vector.expected as ClusterctlExpected).name);
};

/** Counts the objects a rendered template yields (non-empty YAML documents). */
function countObjects(text: string): number {
  return parseAllDocuments(text).filter((d) => d.contents !== null).length;
}

const mergeTemplatesOp: VectorHandler = (vector) => {
  const { templates } = vector.input as {
    templates: { rawYaml: string; vars: Env; targetNamespace: string }[];
  };
  const expected = vector.expected as ClusterctlExpected;
  const merged = mergeTemplates(
    templates.map((t) => {
      const rendered = substitute(t.rawYaml, t.vars);
      return {
        objects: Array.from({ length: countObjects(rendered) }, (_, i) => i),
        variables: getVariables(t.rawYaml),
        variableMap: getVariableMap(t.rawYaml),
        targetNamespace: t.targetNamespace,
      };
    }),
  );
  if (expected.objects !== undefined) expect(merged.objects.length).toBe(expected.objects);
  if (expected.variableMapSize !== undefined) expect(Object.keys(merged.variableMap).length).toBe(expected.variableMapSize);
  if (expected.variableMapSubset) expect(merged.variableMap).toMatchObject(expected.variableMapSubset);
};

export const handlers: Record<string, VectorHandler> = {
  'envsubst:curated': curated,
  'envsubst:list-variables': listVariablesFile,
  'envsubst:byte-level-vectors': byteLevel,
  'clusterctl:Process': processOp,
  'clusterctl:GetVariables': getVariablesOp,
  'clusterctl:GetVariableMap': getVariableMapOp,
  'clusterctl:envsubst.Eval': evalOp,
  'clusterctl:GetTemplateName': getTemplateNameOp,
  // `GetClusterClassTemplateName(version, name)` = `clusterclass-<name>.yaml`; the version is ignored.
  'clusterctl:GetClusterClassTemplateName': (vector) => {
    const name = (vector.input.name ?? vector.input.clusterClass ?? vector.input.className) as string | undefined;
    if (typeof name !== 'string') expect.fail('GetClusterClassTemplateName: input.name (or clusterClass, className) is missing');
    const want = (vector.expected as ClusterctlExpected).name ?? vector.expected.file ?? vector.expected.fileName;
    if (typeof want !== 'string') expect.fail('GetClusterClassTemplateName: expected.name (or file, fileName) is missing');
    expect(clusterClassFileName(name)).toBe(want);
  },
  'clusterctl:MergeTemplates': mergeTemplatesOp,
};
