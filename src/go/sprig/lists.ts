/** sprig's list functions (list.go): reflection-based, so any slice works, with the library's errors and panics. */
import { reflectKind, sliceElemType, typedSlice, type GoValue } from '../template/index.js';
import { toInt64 } from './cast.js';
import { fn, goError, int, nilDereference, type FuncTable } from './func.js';
import { deepEqual, isEmpty } from './reflect.js';

/** The slice behind `list interface{}`, or Go's error for another kind (`Cannot <verb> on type map`). */
function asList(v: GoValue | undefined, describe: (kind: string) => string): GoValue[] {
  if (v === undefined || v === null) goError(nilDereference);
  if (Array.isArray(v)) return v;
  return goError(describe(reflectKind(v)));
}

/** A function and its `must` twin: the plain one panics with the error the must one returns. */
function pair(
  t: FuncTable,
  name: string,
  mustName: string,
  params: readonly string[],
  result: string,
  call: (a: GoValue[]) => GoValue,
  variadic = false,
): void {
  t[name] = fn(name, params, [result], call, variadic);
  t[mustName] = fn(mustName, params, [result, 'error'], call, variadic);
}

function inList(haystack: GoValue[], needle: GoValue): boolean {
  return haystack.some((h) => deepEqual(needle, h));
}

export function listFuncs(): FuncTable {
  const t: FuncTable = {};
  const list = fn('list', ['interface {}'], ['[]interface {}'], (a) => [...a], true);
  t.list = list;
  t.tuple = fn('tuple', ['interface {}'], ['[]interface {}'], (a) => [...a], true);
  const push = (a: GoValue[]): GoValue => [...asList(a[0], (k) => `Cannot push on type ${k}`), a[1] ?? null];
  for (const [n, m] of [
    ['append', 'mustAppend'],
    ['push', 'mustPush'],
  ] as const) {
    pair(t, n, m, ['interface {}', 'interface {}'], '[]interface {}', push);
  }
  pair(t, 'prepend', 'mustPrepend', ['interface {}', 'interface {}'], '[]interface {}', (a) => [
    a[1] ?? null,
    ...asList(a[0], (k) => `Cannot prepend on type ${k}`),
  ]);
  pair(t, 'chunk', 'mustChunk', ['int', 'interface {}'], '[][]interface {}', (a) => {
    const size = int(a[0]);
    const l = asList(a[1], (k) => `Cannot chunk type ${k}`);
    const cs = Math.floor((l.length - 1) / size) + 1;
    if (!Number.isFinite(cs) || cs < 0) goError('runtime error: makeslice: len out of range');
    const out: GoValue[] = [];
    for (let i = 0; i < cs; i++) {
      let clen = size;
      if (i === cs - 1) {
        clen = Math.floor(l.length % size);
        if (clen === 0) clen = size;
      }
      out.push(l.slice(i * size, i * size + clen));
    }
    return typedSlice(out, '[]interface {}');
  });
  pair(t, 'last', 'mustLast', ['interface {}'], 'interface {}', (a) => {
    const l = asList(a[0], (k) => `Cannot find last on type ${k}`);
    return l.length === 0 ? null : (l[l.length - 1] ?? null);
  });
  pair(t, 'first', 'mustFirst', ['interface {}'], 'interface {}', (a) => {
    const l = asList(a[0], (k) => `Cannot find first on type ${k}`);
    return l.length === 0 ? null : (l[0] ?? null);
  });
  pair(t, 'rest', 'mustRest', ['interface {}'], '[]interface {}', (a) => asList(a[0], (k) => `Cannot find rest on type ${k}`).slice(1));
  pair(t, 'initial', 'mustInitial', ['interface {}'], '[]interface {}', (a) =>
    asList(a[0], (k) => `Cannot find initial on type ${k}`).slice(0, -1),
  );
  pair(t, 'reverse', 'mustReverse', ['interface {}'], '[]interface {}', (a) =>
    [...asList(a[0], (k) => `Cannot find reverse on type ${k}`)].reverse(),
  );
  pair(t, 'compact', 'mustCompact', ['interface {}'], '[]interface {}', (a) =>
    asList(a[0], (k) => `Cannot compact on type ${k}`).filter((e) => !isEmpty(e)),
  );
  pair(t, 'uniq', 'mustUniq', ['interface {}'], '[]interface {}', (a) => {
    const dest: GoValue[] = [];
    for (const item of asList(a[0], (k) => `Cannot find uniq on type ${k}`)) if (!inList(dest, item)) dest.push(item);
    return dest;
  });
  pair(
    t,
    'without',
    'mustWithout',
    ['interface {}', 'interface {}'],
    '[]interface {}',
    (a) => {
      const omit = a.slice(1);
      return asList(a[0], (k) => `Cannot find without on type ${k}`).filter((item) => !inList(omit, item));
    },
    true,
  );
  pair(t, 'has', 'mustHas', ['interface {}', 'interface {}'], 'bool', (a) => {
    const haystack = a[1] ?? null;
    if (haystack === null) return false;
    return inList(
      asList(haystack, (k) => `Cannot find has on type ${k}`),
      a[0] ?? null,
    );
  });
  pair(
    t,
    'slice',
    'mustSlice',
    ['interface {}', 'interface {}'],
    'interface {}',
    (a) => {
      const l = asList(a[0], (k) => `list should be type of slice or array but ${k}`);
      if (l.length === 0) return null;
      const indices = a.slice(1);
      const start = indices.length > 0 ? Number(toInt64(indices[0] ?? null)) : 0;
      const end = indices.length < 2 ? l.length : Number(toInt64(indices[1] ?? null));
      if (start < 0 || end < start || end > l.length) goError('reflect.Value.Slice: slice index out of range');
      return typedSlice(l.slice(start, end), sliceElemType(l));
    },
    true,
  );
  t.concat = fn(
    'concat',
    ['interface {}'],
    ['interface {}'],
    (a) => {
      const res: GoValue[] = [];
      for (const l of a) {
        if (l === null) goError(nilDereference);
        if (!Array.isArray(l)) goError(`Cannot concat type ${reflectKind(l)} as list`);
        res.push(...l);
      }
      return res;
    },
    true,
  );
  return t;
}
