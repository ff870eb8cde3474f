/**
 * Kubernetes' escaping of property names into CEL identifiers (apiserver/pkg/cel/escaping.go): `namespace` is
 * `self.__namespace__`, `x-prop` is `self.x__dash__prop`; a name that cannot be escaped is not visible to CEL.
 */
const reserved = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

export function escapePropertyName(name: string): string | undefined {
  if (name.length === 0 || (name[0]! >= '0' && name[0]! <= '9')) return undefined;
  if (reserved.has(name)) return `__${name}__`;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '_' && name[i + 1] === '_') {
      out += '__underscores__';
      i++;
    } else if (c === '.') out += '__dot__';
    else if (c === '-') out += '__dash__';
    else if (c === '/') out += '__slash__';
    else if (/[a-zA-Z0-9_]/.test(c)) out += c;
    else return undefined;
  }
  return out;
}
