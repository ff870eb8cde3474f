/**
 * `valueFrom.template` and `enabledIf` (`inline/json_patch_generator.go`: renderValueTemplate, patchIsEnabled,
 * calculateTemplateData): Go's text/template with sprig's hermetic function map, executed over the variables decoded
 * as encoding/json decodes into `interface{}` (numbers are float64), and the output read back as YAML
 * (`sigs.k8s.io/yaml.Unmarshal`: YAML 1.1 scalars, the first document, empty text is null).
 */
import { goQuote } from '../../go/index.js';
import { GoTemplateError, goValueFromJSON, parseTemplate, type FuncMap, type GoFunc, type GoTemplate, type GoValue } from '../../go/template/index.js';
import { hermeticTxtFuncMap, nondeterministicSprigFunctions } from '../../go/sprig/index.js';
import { unmarshalYamlToJson } from '../../yaml/index.js';
import { setOwn } from './json.js';
import type { VariableMap } from './variables.js';

/** A template that failed to parse, execute or read back; the message is CAPI's wrapped error text. */
export class ValueTemplateError extends Error {}

/** Called with the name of a sprig function whose Go result is random (CAPI's output differs on every reconcile). */
export type NondeterministicCallListener = (functionName: string) => void;

let listener: NondeterministicCallListener | undefined;
let funcMap: FuncMap | undefined;

/**
 * sprig's hermetic map, with the random functions reporting their calls to the current listener. Built once: parsed
 * templates keep the functions they were parsed with, and the cache below shares them across renders.
 */
function templateFuncs(): FuncMap {
  if (funcMap) return funcMap;
  const base = hermeticTxtFuncMap();
  const random = new Set<string>(nondeterministicSprigFunctions);
  const out: Record<string, GoFunc> = {};
  for (const [name, fn] of Object.entries(base)) {
    out[name] = random.has(name) ? reporting(name, fn) : fn;
  }
  funcMap = out;
  return out;
}

function reporting(name: string, fn: GoFunc): GoFunc {
  return {
    ...fn,
    call: (args) => {
      listener?.(name);
      return fn.call(args);
    },
  };
}

/** Parsed templates by text: a class's templates are rendered once per template of every cluster. */
const parsed = new Map<string, GoTemplate | Error>();
const PARSE_CACHE_LIMIT = 2048;

function parse(text: string): GoTemplate {
  let t = parsed.get(text);
  if (t === undefined) {
    try {
      t = parseTemplate('tpl', text, { funcs: templateFuncs() });
    } catch (err) {
      // Only Go's parse errors are the template's fault; anything else is a bug and must surface as one.
      if (!(err instanceof GoTemplateError)) throw err;
      t = err;
    }
    if (parsed.size >= PARSE_CACHE_LIMIT) parsed.clear();
    parsed.set(text, t);
  }
  if (t instanceof Error) throw new ValueTemplateError(`failed to parse template: ${goQuote(text)}: ${t.message}`);
  return t;
}

/**
 * Parses a template as CAPI's webhook checks it (`template.New(name).Funcs(sprig.HermeticTxtFuncMap()).Parse`);
 * throws the Go parse error, whose text names the template.
 */
export function parseValueTemplate(name: string, text: string): GoTemplate {
  return parseTemplate(name, text, { funcs: templateFuncs() });
}

/**
 * Runs `fn` with `onRandom` told of every call of a random sprig function made meanwhile (renders are synchronous,
 * so the listener is the caller's for exactly that span).
 */
export function withNondeterministicCallListener<T>(onRandom: NondeterministicCallListener, fn: () => T): T {
  const previous = listener;
  listener = onRandom;
  try {
    return fn();
  } finally {
    listener = previous;
  }
}

/**
 * `calculateTemplateData`: the variables as one Go `map[string]interface{}`, fresh for every render (sprig's `set`
 * and `unset` change dicts in place, and CAPI decodes the variables anew each time).
 */
export function calculateTemplateData(variables: VariableMap): Map<string, GoValue> {
  const obj: Record<string, unknown> = {};
  for (const [name, value] of variables) setOwn(obj, name, value);
  return goValueFromJSON(obj) as Map<string, GoValue>;
}

/**
 * Variable maps the engine builds once and never changes (marked with {@link shareTemplateData}), and their data as
 * Go values, built once for every template of the Cluster that cannot change it. Only sprig's `set`, `unset` and
 * the `merge` family change a dict in place; a template that names one (or anything spelled like one) still gets
 * data of its own, as CAPI decodes the variables anew for every render.
 */
const sharedMaps = new WeakSet<VariableMap>();
const sharedData = new WeakMap<VariableMap, Map<string, GoValue>>();
const mayChangeData = /\b(?:un)?set\b|merge/i;

/** Marks `variables` as never changed after this call, so renders over it may share one decoded copy. */
export function shareTemplateData(variables: VariableMap): void {
  sharedMaps.add(variables);
}

function templateData(template: string, variables: VariableMap): Map<string, GoValue> {
  if (!sharedMaps.has(variables) || mayChangeData.test(template)) return calculateTemplateData(variables);
  let data = sharedData.get(variables);
  if (!data) {
    data = calculateTemplateData(variables);
    sharedData.set(variables, data);
  }
  return data;
}

/** `renderValueTemplate`: the JSON value the template's output reads as (null for empty output). */
export function renderValueTemplate(template: string, variables: VariableMap): unknown {
  const tpl = parse(template);
  const data = templateData(template, variables);
  let out: string;
  try {
    out = tpl.execute(data);
  } catch (err) {
    if (!(err instanceof GoTemplateError)) throw err;
    throw new ValueTemplateError(`failed to render template: ${goQuote(template)}: ${err.message}`);
  }
  try {
    return unmarshalYamlToJson(out);
  } catch (err) {
    const message = (err as Error).message;
    const inner = message.startsWith('error converting YAML to JSON') ? message : `error converting YAML to JSON: yaml: ${message}`;
    throw new ValueTemplateError(`failed to unmarshal rendered template: ${goQuote(out)}: ${inner}`);
  }
}

/** `patchIsEnabled`: an empty `enabledIf` is enabled; otherwise only a template that reads as exactly `true`. */
export function patchIsEnabled(enabledIf: string | undefined, variables: VariableMap): boolean {
  if (enabledIf === undefined || enabledIf === '') return true;
  let value: unknown;
  try {
    value = renderValueTemplate(enabledIf, variables);
  } catch (err) {
    if (!(err instanceof ValueTemplateError)) throw err;
    throw new ValueTemplateError(`failed to calculate value for enabledIf: ${err.message}`);
  }
  return value === true;
}
