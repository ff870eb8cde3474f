/**
 * A rule's `fieldPath` (apiextensions `ValidFieldPath`): a JSON path of `.field` and `['key']` steps that must name
 * a property or map key the schema declares; it is reported normalized as a Go field path (`a.b[key]`).
 */
import type { JSONSchemaProps } from '../schema/index.js';

export interface ValidFieldPathResult {
  readonly path?: string;
  readonly schema?: JSONSchemaProps;
  readonly error?: string;
}

function tokens(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\'') {
      let j = i + 1;
      while (j < text.length && !(text[j] === '\'' && text[j - 1] !== '\\')) j++;
      if (j < text.length) {
        out.push(text.slice(i, j + 1));
        i = j + 1;
        continue;
      }
    }
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < text.length && !'.[]'.includes(text[j]!)) j++;
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

function unescapeSingleQuote(s: string): string | undefined {
  let bad = false;
  const out = s.replace(/\\./g, (m) => {
    const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };
    const r = map[m[1]!];
    if (r === undefined) bad = true;
    return r ?? '';
  });
  return bad ? undefined : out;
}

export function validFieldPath(jsonPath: string, root: JSONSchemaProps): ValidFieldPathResult {
  let schema: JSONSchemaProps | undefined = root;
  let path = '';
  const append = (name: string, named: boolean): string | undefined => {
    if (!named) {
      path = `${path}[${name}]`;
      schema = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      return undefined;
    }
    path = path === '' ? name : `${path}.${name}`;
    const prop: JSONSchemaProps | undefined = schema?.properties?.[name];
    if (!prop) return 'does not refer to a valid field';
    schema = prop;
    return undefined;
  };
  const kindOf = (): boolean | undefined => {
    if (schema?.properties !== undefined) return true;
    if (schema?.additionalProperties !== undefined) return false;
    return undefined;
  };
  const toks = tokens(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '[') {
      const quoted = toks[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || quoted[0] !== '\'' || quoted[quoted.length - 1] !== '\'') {
        return { error: `expected single quoted string but got ${quoted}` };
      }
      const unescaped = unescapeSingleQuote(quoted.slice(1, -1));
      if (unescaped === undefined) return { error: 'invalid string literal: invalid escape char' };
      const named = kindOf();
      if (named === undefined) return { error: 'does not refer to a valid field' };
      const err = append(unescaped, named);
      if (err) return { error: err };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const named = kindOf();
      if (named === undefined) return { error: 'does not refer to a valid field' };
      const err = append(name, named);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, schema };
}
