/**
 * Variable substitution, as documentation: each case is one of the surprising behaviours of clusterctl's
 * substitution (spec/envsubst.md §7), all verified against the Go code. The exhaustive checks are the shared
 * vectors (test/vectors); these read like the spec.
 */
import { describe, expect, it } from 'vitest';
import {
  ExitCode,
  InputError,
  listVariables,
  MissingVariablesError,
  substitute,
  TemplateSyntaxError,
} from '../src/index.js';
import {
  getVariableMap,
  getVariables,
  mergeTemplates,
  process as processTemplate,
  substituteBytes,
} from '../src/envsubst/index.js';
import { clusterClassFileName, templateFileName } from '../src/render/template-names.js';
import { thrown } from './helpers/thrown.js';

const missingMessage = (names: string) =>
  `value for variables [${names}] is not set. Please set the value using os environment variables or the clusterctl config file`;

describe('substitute: the surprising cases of clusterctl substitution', () => {
  it('1. only ${VAR} is substituted, never $VAR', () => {
    expect(substitute('$A ${A} $', { A: 'x' })).toBe('$A x $');
  });

  it('2. ${V-x}, ${V+x} and ${V?x} are parse errors', () => {
    for (const t of ['${V-x}', '${V+x}', '${V?x}']) {
      const err = thrown(() => substitute(t, { V: 'v' }));
      expect(err).toBeInstanceOf(TemplateSyntaxError);
      expect(err.message).toBe('missing closing brace');
      expect((err as TemplateSyntaxError).exitCode).toBe(ExitCode.input);
    }
  });

  it('3. =, :=, :-, :? and :+ all mean "the value, or the default when empty"; nothing is assigned', () => {
    expect(substitute('${E=d}', { E: '' })).toBe('d');
    expect(substitute('${A:+alt}', { A: 'abc' })).toBe('abc');
    expect(substitute('${U:?oops}', {})).toBe('oops');
    expect(substitute('${U:=x} ${U}', {})).toBe('x ');
  });

  it('4. an empty default makes the variable required', () => {
    expect(thrown(() => substitute('${U:=}', {})).message).toBe(missingMessage('U'));
    expect(substitute('${U:=}', { U: '' })).toBe('');
  });

  it('5. only the first occurrence of a name counts for the missing check', () => {
    expect(thrown(() => substitute('${U} ${U:=x}', {}))).toBeInstanceOf(MissingVariablesError);
    expect(substitute('${U:=x} ${U}', {})).toBe('x ');
  });

  it('6. variables used only inside arguments are never checked', () => {
    expect(substitute('${A:=${B}}', {})).toBe('');
    expect(thrown(() => substitute('${A:=${B}} ${B}', {})).message).toBe(missingMessage('B'));
  });

  it('7. any operator with arguments counts as a default; case and length operators do not', () => {
    expect(substitute('[${U:1}][${U#x}][${U/a/b}]', {})).toBe('[][][]');
    expect(thrown(() => substitute('${U^} ${V,,} ${#W}', {})).message).toBe(missingMessage('U, V, W'));
    expect(listVariables('${G:1:2}')).toEqual([{ name: 'G', default: '12' }]);
  });

  it('8. $$ escapes at the top level and in replace arguments only', () => {
    expect(substitute('$$ $$$ $${A}', { A: 'x' })).toBe('$ $$ ${A}');
    expect(substitute('${U:=$$}', {})).toBe('$$');
    expect(substitute('${A/b/$$}', { A: 'abc' })).toBe('a$c');
    expect(substitute('${U:=$${W}}', { W: 'w' })).toBe('$w');
  });

  it('9. ${ A } works through the legacy rewrite (ASCII names, Go \\s only), even in escaped text', () => {
    expect(substitute('${ A } ${A } ${\tA\n}', { A: 'x' })).toBe('x x x');
    expect(substitute('$${ A }', { A: 'x' })).toBe('${A}');
    for (const t of ['${ A:=x }', '${ Ä }', '${\vA}', '${\u00a0A}']) {
      expect(thrown(() => substitute(t, { A: 'x', Ä: 'x' })).message).toBe('unable to parse variable name');
    }
  });

  it('10. ${A: -2} returns the whole value, ${A:-2} is a default, a negative length throws', () => {
    expect(substitute('${A: -2}|${A:-2}', { A: 'abcdef' })).toBe('abcdef|abcdef');
    const err = thrown(() => substitute('${A:1:-1}', { A: 'abcdef' }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toContain('slice bounds out of range [1:0]');
  });

  it('11. ${A#*} removes one character: the shortest non-empty match', () => {
    expect(substitute('${A#*}|${A##*}|${A%*}', { A: 'abcabc' })).toBe('bcabc||abcab');
  });

  it('12. % and %% reverse the pattern, so classes and escapes break', () => {
    expect(substitute('${X%[ab]}|${X%]ba[}', { X: 'xa' })).toBe('xa|x');
  });

  it('13. /# and /% with an empty replacement do nothing, / deletes', () => {
    expect(substitute('${A/#a/}|${A/%c/}|${A/a/}', { A: 'abc' })).toBe('abc|abc|bc');
  });

  it('14. replace patterns are literal; [!a] in a trim is the class {!, a}', () => {
    expect(substitute('${A/b*/X}|${A/b/X}', { A: 'abc' })).toBe('abc|aXc');
    expect(substitute('${A#[!a]}', { A: 'abc' })).toBe('bc');
  });

  it('15. only default operators may mix text and ${X} in an argument', () => {
    expect(substitute('${U:=a${W}b}', { W: 'w' })).toBe('awb');
    expect(thrown(() => substitute('${V#x${W}}', { V: 'v', W: 'w' })).message).toBe('bad substitution');
  });

  it('16. lengths, offsets and trims count bytes', () => {
    expect(substitute('${#M} ${M:1:2}', { M: 'héllo' })).toBe('6 é');
    const bytes = substituteBytes(new TextEncoder().encode('${M:0:2}'), { M: 'héllo' });
    expect([...bytes]).toEqual([0x68, 0xc3]);
  });

  it('17. the missing list is sorted by UTF-8 bytes', () => {
    const err = thrown(() => substitute('${Z} ${a} ${Ａ} ${𝐀}', {})) as MissingVariablesError;
    expect(err.names).toEqual(['Z', 'a', 'Ａ', '𝐀']);
  });

  it('18. a default ends at the first }', () => {
    expect(substitute('${A:=x}y}', { A: 'v' })).toBe('vy}');
  });

  it('19. ${V^,} returns the value unchanged, ${V^^^} is an error', () => {
    expect(substitute('${V^,}', { V: 'aB' })).toBe('aB');
    expect(thrown(() => substitute('${V^^^}', { V: 'aB' })).message).toBe('bad substitution');
  });

  it('20. names may be digits or Unicode letters; lookups are exact', () => {
    expect(substitute('${1} ${日本} ${a}', { 1: 'one', 日本: 'jp', a: 'lower', A: 'upper' })).toBe('one jp lower');
  });

  it('21. values are inserted verbatim, and prototype names are ordinary unset names', () => {
    expect(substitute('${V}', { V: '${W} $& $1' })).toBe('${W} $& $1');
    expect(thrown(() => substitute('${constructor} ${__proto__} ${toString}', {})).message).toBe(
      missingMessage('__proto__, constructor, toString'),
    );
    const own = JSON.parse('{"__proto__": "p"}') as Record<string, string>;
    expect(substitute('${__proto__}', own)).toBe('p');
  });

  it('Go simple case mapping, not JavaScript full case mapping', () => {
    expect(substitute('${A^^} ${B,,} ${C,,} ${D^}', { A: 'straße', B: 'İ', C: 'ΣΑΣ', D: 'ǆemal' })).toBe(
      'STRAßE i σασ Ǆemal',
    );
  });
});

describe('substitute: inputs and API', () => {
  it('accepts a Map; a key with value "" is set-empty', () => {
    expect(substitute('${A}-${B:=d}', new Map([['A', 'a'], ['B', '']]))).toBe('a-d');
  });

  it('process takes a lookup function (undefined = unset)', () => {
    expect(processTemplate('${X}', (name) => (name === 'X' ? 'x' : undefined))).toBe('x');
    expect(thrown(() => processTemplate('${Y}', () => undefined))).toBeInstanceOf(MissingVariablesError);
  });

  it('a missing-variables error lists every name and exits 2', () => {
    const err = thrown(() => substitute('${B} ${A} ${B} ${C:=c}', {})) as MissingVariablesError;
    expect(err.message).toBe(missingMessage('A, B'));
    expect(err.names).toEqual(['A', 'B']);
    expect(err.exitCode).toBe(ExitCode.input);
  });

  it('a parse error anywhere fails the whole text with the library message', () => {
    for (const [t, message] of [
      ['${', 'unable to parse variable name'],
      ['${}', 'unable to parse variable name'],
      ['${A', 'missing closing brace'],
      ['ok ${A:=x', 'unable to parse substitution within function'],
      ['${A/a}', 'bad substitution'],
      ['${A:}', 'unable to parse substitution within function'],
    ] as const) {
      const err = thrown(() => substitute(t, { A: 'a' }));
      expect(err).toBeInstanceOf(TemplateSyntaxError);
      expect(err.message).toBe(message);
      expect((err as TemplateSyntaxError).exitCode).toBe(ExitCode.input);
    }
  });

  it('keeps a leading byte order mark and text without variables untouched', () => {
    expect(substitute('\ufeffa: ${A}', { A: '1' })).toBe('\ufeffa: 1');
    expect(substitute('no variables here', {})).toBe('no variables here');
  });

  it('stops at a NUL, as Go does (rune 0 is its end-of-input marker)', () => {
    expect(substitute('a${A}\0b${B}', { A: 'x' })).toBe('ax');
  });

  it('rejoins a character split across two substitutions, as Go bytes do', () => {
    expect(substitute('${V:0:1}${V:1}', { V: 'é' })).toBe('é');
  });
});

describe('listing variables (generate --list-variables)', () => {
  it('lists top-level names once, sorted, with first-occurrence defaults', () => {
    const t = 'a: ${C:=default}\nb: ${B}\nc: ${A=foobar}\nd: ${E="q"}\ne: ${D:=${A}}\nf: ${B:=late}';
    expect(getVariables(t)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(listVariables(t)).toEqual([
      { name: 'A', default: 'foobar' },
      { name: 'B', default: null },
      { name: 'C', default: 'default' },
      { name: 'D', default: '${A}' },
      { name: 'E', default: '"q"' },
    ]);
    const protoMap = getVariableMap('${__proto__:=p}');
    expect(Object.keys(protoMap)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(protoMap, '__proto__')?.value).toBe('p');
  });

  it('fails on a parse error', () => {
    expect(() => listVariables('yaml with ${BA$R}')).toThrow('missing closing brace');
  });
});

describe('template names and merging', () => {
  it('names template files like clusterctl', () => {
    expect(templateFileName()).toBe('cluster-template.yaml');
    expect(templateFileName('dev')).toBe('cluster-template-dev.yaml');
    expect(clusterClassFileName('quick-start')).toBe('clusterclass-quick-start.yaml');
  });

  it('merges templates: union of variables, first non-null default wins', () => {
    const merged = mergeTemplates([
      { objects: ['class'], variables: ['A', 'S'], variableMap: { A: null, S: 'val-1' }, targetNamespace: 'ns' },
      { objects: ['cluster'], variables: ['A', 'B', 'S'], variableMap: { A: 'a', B: null, S: 'val-2' }, targetNamespace: 'ns' },
    ]);
    expect(merged).toEqual({
      objects: ['class', 'cluster'],
      variables: ['A', 'B', 'S'],
      variableMap: { A: 'a', B: null, S: 'val-1' },
      targetNamespace: 'ns',
    });
  });
});

describe('error locations', () => {
  it('a parse error says on which line the failing substitution starts', () => {
    const err = thrown(() => substitute('a: 1\nb: ${A}\nc: ${B-x}\n', { A: 'a', B: 'b' })) as TemplateSyntaxError;
    expect(err.message).toBe('missing closing brace');
    expect(err.where).toBe('line 3');
  });
});
