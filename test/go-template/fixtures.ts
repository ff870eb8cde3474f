/**
 * Go's text/template test data (exec_test.go's T, tVal and function map) in the value model, so the upstream
 * tables can be transcribed with their data. Struct stands in for a Go struct pointer with fields and methods.
 */
import { type FuncMap, GoFuncError, GoNumber, GoObject, type GoFunc, type GoValue, goFunc, goValueFromJSON, parseTemplate, sprint, sprintf, sprintln, type TemplateOptions, typedMap, typedSlice } from '../../src/go/template/index.js';

export class Struct extends GoObject {
  constructor(
    readonly goType: string,
    private readonly fields: Record<string, GoValue>,
    private readonly methods: Record<string, GoFunc> = {},
    private readonly printed = '',
    private readonly interfaceFields: readonly string[] = [],
  ) {
    super();
  }
  override field(name: string): GoValue | undefined {
    return Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
  }
  override fieldType(name: string): string | undefined {
    return this.interfaceFields.includes(name) ? 'interface {}' : undefined;
  }
  override method(name: string): GoFunc | undefined {
    return this.methods[name];
  }
  format(): string {
    return this.printed;
  }
}

export const ints = (...n: number[]): GoValue[] => typedSlice(n.map(BigInt), 'int');
export const intMap = (o: Record<string, number>): Map<string, GoValue> =>
  typedMap(new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)])), 'int');
export const uint = (type: 'uint' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'uintptr', n: number): GoNumber =>
  new GoNumber(type, BigInt(n));

const u = new Struct('*template.U', { V: 'v' }, {
  TrueFalse: goFunc('TrueFalse', ['bool'], ['string'], ([b]) => (b === true ? 'true' : '')),
}, '{v}');

function makeT(): Struct {
  const methods: Record<string, GoFunc> = {
    Method0: goFunc('Method0', [], ['string'], () => 'M0'),
    Method1: goFunc('Method1', ['int'], ['int'], ([a]) => a ?? null),
    Method2: goFunc('Method2', ['uint16', 'string'], ['string'], ([a, b]) => sprintf('Method2: %d %s', a ?? null, b ?? null)),
    Method3: goFunc('Method3', ['interface {}'], ['string'], ([v]) => sprintf('Method3: %v', v ?? null)),
    Copy: goFunc('Copy', [], ['*template.T'], () => tVal),
    MAdd: goFunc('MAdd', ['int', '[]int'], ['[]int'], ([a, b]) =>
      typedSlice((b as GoValue[]).map((x) => (x as bigint) + (a as bigint)), 'int'),
    ),
    MyError: goFunc('MyError', ['bool'], ['bool', 'error'], ([e]) => {
      if (e === true) throw new GoFuncError('my error');
      return false;
    }),
    GetU: goFunc('GetU', [], ['*template.U'], () => u),
  };
  const fields: Record<string, GoValue> = {
    True: true,
    I: 17n,
    U16: uint('uint16', 16),
    X: 'x',
    S: 'xyz',
    FloatZero: 0,
    U: u,
    V0: new Struct('template.V', {}, {}, '<6666>'),
    V1: new Struct('*template.V', {}, {}, '<7777>'),
    V2: new Struct('*template.V', {}, {}, 'nilV'),
    W0: new Struct('template.W', {}, {}, '[888]'),
    W1: new Struct('*template.W', {}, {}, '[999]'),
    W2: new Struct('*template.W', {}, {}, 'nilW'),
    SI: ints(3, 4, 5),
    SIEmpty: ints(),
    SB: typedSlice([true, false], 'bool'),
    AI: ints(3, 4, 5),
    MSI: intMap({ one: 1, two: 2, three: 3 }),
    MSIone: intMap({ one: 1 }),
    MSIEmpty: intMap({}),
    MXI: intMap({ one: 1 }),
    SMSI: typedSlice([intMap({ one: 1, two: 2 }), intMap({ eleven: 11, twelve: 12 })], 'map[string]int'),
    Empty0: null,
    Empty1: 3n,
    Empty2: 'empty2',
    Empty3: ints(7, 8),
    Empty4: new Struct('*template.U', { V: 'UinEmpty' }, {}, '{UinEmpty}'),
    Str: new Struct('*bytes.Buffer', {}, {}, 'foozle'),
    Err: new Struct('*errors.errorString', {}, {}, 'erroozle'),
    BinaryFunc: goFunc('', ['string', 'string'], ['string'], ([a, b]) => sprintf('[%s=%s]', a ?? null, b ?? null)),
    VariadicFunc: goFunc('', ['string'], ['string'], (s) => sprint('<', s.join('+'), '>'), true),
    VariadicFuncInt: goFunc('', ['int', 'string'], ['string'], ([a, ...s]) => sprint(a ?? null, '=<', s.join('+'), '>'), true),
    NilOKFunc: goFunc('', ['*int'], ['bool'], ([p]) => p === null),
    ErrFunc: goFunc('', [], ['string', 'error'], () => 'bla'),
    PanicFunc: goFunc('', [], ['string'], () => {
      throw new GoFuncError('test panic');
    }),
    TooFewReturnCountFunc: goFunc('', [], [], () => null),
    TooManyReturnCountFunc: goFunc('', [], ['string', 'error', 'int'], () => ''),
    InvalidReturnTypeFunc: goFunc('', [], ['string', 'bool'], () => ''),
  };
  const interfaceFields = ['Empty0', 'Empty1', 'Empty2', 'Empty3', 'Empty4', 'Str', 'Err'];
  return new Struct('*template.T', fields, methods, '', interfaceFields);
}

export const tVal: Struct = makeT();

const fn = (name: string, params: string[], results: string[], call: (a: GoValue[]) => GoValue, variadic = false): GoFunc =>
  goFunc(name, params, results, call, variadic);

/** exec_test.go's testExecute function map. */
export const testFuncs: FuncMap = {
  add: fn('add', ['int'], ['int'], (args) => args.reduce<bigint>((s, x) => s + (x as bigint), 0n), true),
  dddArg: fn('dddArg', ['int', 'string'], ['string'], ([a, ...b]) => sprintln(a ?? null, typedSlice(b, 'string')), true),
  die: fn('die', [], ['bool'], () => {
    throw new GoFuncError('die');
  }),
  echo: fn('echo', ['interface {}'], ['interface {}'], ([a]) => a ?? null),
  makemap: fn('makemap', ['string'], ['map[string]string'], (args) => {
    if (args.length % 2 !== 0) throw new GoFuncError('bad makemap');
    const m = new Map<string, GoValue>();
    for (let i = 0; i < args.length; i += 2) m.set(args[i] as string, args[i + 1] ?? null);
    return typedMap(m, 'string');
  }, true),
  mapOfThree: fn('mapOfThree', [], ['interface {}'], () => intMap({ three: 3 })),
  oneArg: fn('oneArg', ['string'], ['string'], ([a]) => `oneArg=${String(a)}`),
  returnInt: fn('returnInt', [], ['int'], () => 7n),
  stringer: fn('stringer', ['fmt.Stringer'], ['string'], ([s]) => (s as GoObject).format()),
  twoArgs: fn('twoArgs', ['string', 'string'], ['string'], ([a, b]) => `twoArgs=${String(a)}${String(b)}`),
  typeOf: fn('typeOf', ['interface {}'], ['string'], ([a]) => sprintf('%T', a ?? null)),
  valueString: fn('valueString', ['string'], ['string'], () => 'value is ignored'),
  zeroArgs: fn('zeroArgs', [], ['string'], () => 'zeroArgs'),
};

export type Outcome = { out: string } | { err: string };

/** Parses and executes like Go's New(name).Funcs(funcs).Parse(text).Execute(data). */
export function run(text: string, data: GoValue, options: TemplateOptions = {}, name = 't'): Outcome {
  try {
    return { out: parseTemplate(name, text, options).execute(data) };
  } catch (e) {
    return { err: (e as Error).message };
  }
}

/** The same, with data given as JSON (decoded as encoding/json decodes into interface{}). */
export function runJSON(text: string, json: unknown, options: TemplateOptions = {}): Outcome {
  return run(text, goValueFromJSON(json), options);
}
