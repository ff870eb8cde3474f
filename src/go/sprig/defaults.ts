/** sprig's defaults.go (default, empty, coalesce, all, any, ternary, JSON) and reflect.go (typeOf, kindOf, …). */
import { goTypeName, reflectKind } from '../template/index.js';
import { fn, goError, str, type FuncTable } from './func.js';
import { GoJsonError, marshal, marshalIndent, marshalRaw, unmarshal, unmarshalLenient } from '../json/index.js';
import { deepEqual, isEmpty } from './reflect.js';

function jsonOrError(f: () => string): string {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoJsonError) goError(e.message);
    throw e;
  }
}
/** json.Marshal failing in the non-must functions: sprig ignores the error and returns "". */
function jsonOrEmpty(f: () => string): string {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoJsonError) return '';
    throw e;
  }
}

export function defaultFuncs(): FuncTable {
  const any1 = ['interface {}'];
  return {
    default: fn(
      'default',
      ['interface {}', 'interface {}'],
      ['interface {}'],
      (a) => {
        const given = a.slice(1);
        return given.length === 0 || isEmpty(given[0]) ? (a[0] ?? null) : (given[0] ?? null);
      },
      true,
    ),
    empty: fn('empty', any1, ['bool'], (a) => isEmpty(a[0])),
    coalesce: fn('coalesce', any1, ['interface {}'], (a) => a.find((v) => !isEmpty(v)) ?? null, true),
    all: fn('all', any1, ['bool'], (a) => a.every((v) => !isEmpty(v)), true),
    any: fn('any', any1, ['bool'], (a) => a.some((v) => !isEmpty(v)), true),
    ternary: fn('ternary', ['interface {}', 'interface {}', 'bool'], ['interface {}'], (a) => (a[2] === true ? (a[0] ?? null) : (a[1] ?? null))),
    fromJson: fn('fromJson', ['string'], ['interface {}'], (a) => unmarshalLenient(str(a[0]))),
    mustFromJson: fn('mustFromJson', ['string'], ['interface {}', 'error'], (a) => {
      try {
        return unmarshal(str(a[0]));
      } catch (e) {
        if (e instanceof GoJsonError) goError(e.message);
        throw e;
      }
    }),
    toJson: fn('toJson', any1, ['string'], (a) => jsonOrEmpty(() => marshal(a[0] ?? null))),
    mustToJson: fn('mustToJson', any1, ['string', 'error'], (a) => jsonOrError(() => marshal(a[0] ?? null))),
    toPrettyJson: fn('toPrettyJson', any1, ['string'], (a) => jsonOrEmpty(() => marshalIndent(a[0] ?? null))),
    mustToPrettyJson: fn('mustToPrettyJson', any1, ['string', 'error'], (a) => jsonOrError(() => marshalIndent(a[0] ?? null))),
    // toRawJson panics where the others swallow the error.
    toRawJson: fn('toRawJson', any1, ['string'], (a) => jsonOrError(() => marshalRaw(a[0] ?? null))),
    mustToRawJson: fn('mustToRawJson', any1, ['string', 'error'], (a) => jsonOrError(() => marshalRaw(a[0] ?? null))),
    typeOf: fn('typeOf', any1, ['string'], (a) => goTypeName(a[0] ?? null)),
    typeIs: fn('typeIs', ['string', 'interface {}'], ['bool'], (a) => str(a[0]) === goTypeName(a[1] ?? null)),
    typeIsLike: fn('typeIsLike', ['string', 'interface {}'], ['bool'], (a) => {
      const t = goTypeName(a[1] ?? null);
      return str(a[0]) === t || `*${str(a[0])}` === t;
    }),
    kindOf: fn('kindOf', any1, ['string'], (a) => reflectKind(a[0] ?? null)),
    kindIs: fn('kindIs', ['string', 'interface {}'], ['bool'], (a) => str(a[0]) === reflectKind(a[1] ?? null)),
    deepEqual: fn('deepEqual', ['interface {}', 'interface {}'], ['bool'], (a) => deepEqual(a[0] ?? null, a[1] ?? null)),
    fail: fn('fail', ['string'], ['string', 'error'], (a) => goError(str(a[0]))),
  };
}
