/**
 * sprig's HermeticTxtFuncMap (Masterminds/sprig v3.3.0, as CAPI calls it for `valueFrom.template` and `enabledIf`):
 * every function of sprig's generic map except the non-hermetic ones (env, expandenv, now, date*, rand*, uuidv4,
 * getHostByName, htmlDate*), with Go's parameter and result types and Go's results and error messages.
 */
import type { FuncMap } from '../template/index.js';
import { cryptoFuncs } from './crypto.js';
import { dateFuncs } from './dates.js';
import { defaultFuncs } from './defaults.js';
import { dictFuncs } from './dicts.js';
import { encodingFuncs } from './encoding.js';
import { listFuncs } from './lists.js';
import { numericFuncs } from './numeric.js';
import { stringFuncs } from './strings.js';
import { urlFuncs } from './urls.js';


/**
 * Functions CAPI evaluates differently on every reconcile (random, clock, map order) or that capiform cannot run:
 * capiform gives a stable result or a clear error, and the topology engine warns when a template uses one.
 */
export const nondeterministicSprigFunctions: readonly string[] = [
  // Random in Go; a stable stand-in here.
  'shuffle',
  'randInt',
  'encryptAES',
  // Random in Go; capiform fails with an error.
  'bcrypt',
  'htpasswd',
  'genPrivateKey',
  'genCA',
  'genCAWithKey',
  'genSelfSignedCert',
  'genSelfSignedCertWithKey',
  'genSignedCert',
  'genSignedCertWithKey',
  // Go ranges over maps in random order; capiform returns key order.
  'keys',
  'values',
  // Reads the clock; capiform fails with an error.
  'ago',
];

let shared: FuncMap | null = null;

/** sprig.HermeticTxtFuncMap(): a frozen map, shared by every template. */
export function hermeticTxtFuncMap(): FuncMap {
  shared ??= Object.freeze({
    ...stringFuncs(),
    ...listFuncs(),
    ...dictFuncs(),
    ...defaultFuncs(),
    ...numericFuncs(),
    ...encodingFuncs(),
    ...cryptoFuncs(),
    ...urlFuncs(),
    ...dateFuncs(),
  });
  return shared;
}
export { GoRegexp, RegexpError } from './regexp.js';
