/**
 * Go's text/template (Go 1.24, as Cluster API builds it): `valueFrom.template`, `enabledIf` and naming templates
 * render byte for byte as the topology controller renders them. Sprig's function map (../sprig) plugs in through
 * `funcs`.
 */
import { execute, ExecFailure, maxExecDepth as maxDepth, type MissingKey } from './exec.js';
import { builtinFuncs } from './builtins.js';
import { ParseFailure, parseTrees, type Tree } from './parse.js';
import type { GoFunc, GoValue } from './value.js';

export * from './value.js';
export { formatGoValue, sprint, sprintf, sprintln } from './fmt.js';
export { goValueFromJSON, goValueToJSON } from './json.js';
export { goTypeName, reflectKind, sortedKeys } from './types.js';
export { formatFloat } from './ftoa.js';
export { goParseFloat, goParseInt, goParseUint, type GoParsedInt } from './strconv.js';
export { maxExecDepth, maxOutputBytes } from './exec.js';

export type FuncMap = Record<string, GoFunc>;

export interface TemplateOptions {
  funcs?: FuncMap;
  /** Template.Option("missingkey=…"); `default` and `invalid` print `<no value>`. */
  missingKey?: MissingKey;
}

/** A parse or execution error; the message is Go's err.Error() exactly. */
export class GoTemplateError extends Error {
  readonly phase: 'parse' | 'exec';
  constructor(phase: 'parse' | 'exec', message: string) {
    super(message);
    this.name = 'GoTemplateError';
    this.phase = phase;
  }
}

export interface GoTemplate {
  readonly name: string;
  /** Renders the template with `data` as dot; throws GoTemplateError. */
  execute(data: GoValue): string;
}

/** template.New(name).Funcs(funcs).Option(missingkey).Parse(text); throws GoTemplateError (phase parse). */
export function parseTemplate(name: string, text: string, options: TemplateOptions = {}): GoTemplate {
  const funcs: FuncMap = { ...(options.funcs ?? {}) };
  const missingKey = options.missingKey ?? 'default';
  let trees: Map<string, Tree>;
  try {
    trees = parseTrees(name, text, {
      hasFunction: (fn) => Object.hasOwn(funcs, fn) || builtinFuncs.has(fn),
    });
  } catch (e) {
    if (e instanceof ParseFailure) throw new GoTemplateError('parse', e.message);
    // Nesting deeper than the JavaScript stack allows (thousands of {{if}}): report Go's depth error.
    if (e instanceof RangeError) throw new GoTemplateError('parse', `template: ${name}: max expression depth exceeded`);
    throw e;
  }
  const main = trees.get(name);
  return {
    name,
    execute(data: GoValue): string {
      if (main === undefined) {
        throw new GoTemplateError('exec', `template: ${name}: ${JSON.stringify(name)} is an incomplete or empty template`);
      }
      try {
        return execute({ trees, funcs, missingKey }, main, data);
      } catch (e) {
        if (e instanceof ExecFailure) throw new GoTemplateError('exec', e.message);
        if (e instanceof RangeError) {
          // The JavaScript stack ran out before the depth bound: report it as Go reports too-deep templates.
          throw new GoTemplateError('exec', `template: ${name}: exceeded maximum template depth (${maxDepth})`);
        }
        throw e;
      }
    },
  };
}
export { TemplateBoundError, withTemplateMeter, chargeScrypt } from './meter.js';
