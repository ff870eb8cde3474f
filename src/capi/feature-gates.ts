/**
 * Feature gates as a CAPI manager reads them: `--feature-gates=A=true,B=false` (k8s.io/component-base featuregate's
 * `Set`), each value a Go `strconv.ParseBool`. Shared by the render layer (merging `manager.featureGates` into the
 * release's flag) and the validate layer (what the rendered managers' webhooks allow).
 */

/** `A=true,B=false` → [['A', 'true'], ['B', 'false']], in the given order; a bare `A` reads as `A=true`. */
export function parseFeatureGates(value: string): [string, string][] {
  return value
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '')
    .map((g) => {
      const i = g.indexOf('=');
      return i < 0 ? [g, 'true'] : [g.slice(0, i).trim(), g.slice(i + 1).trim()];
    });
}

/** The value of the `--feature-gates` flag among `args` (`--feature-gates=v` or `--feature-gates v`); undefined: none. */
export function featureGatesArg(args: readonly string[]): string | undefined {
  // The last occurrence wins, as pflag applies flags in order (featuregate's Set merges, so earlier ones still count).
  let out: string | undefined;
  args.forEach((a, i) => {
    if (a === '--feature-gates') out = out === undefined ? (args[i + 1] ?? '') : `${out},${args[i + 1] ?? ''}`;
    else if (a.startsWith('--feature-gates=')) out = out === undefined ? a.slice('--feature-gates='.length) : `${out},${a.slice('--feature-gates='.length)}`;
  });
  return out;
}

/** Go's `strconv.ParseBool`, which featuregate uses for each value; undefined: the manager refuses to start. */
export function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}
