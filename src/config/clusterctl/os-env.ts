/**
 * The OS environment as clusterctl reads it, and `envsubst.Eval(text, os.Getenv)`, which clusterctl applies to
 * provider URLs, the cert-manager URL and `overridesFolder` (unset variables expand to "", no missing-variable error).
 */

export type Env = Record<string, string | undefined>;

/**
 * `envsubst.Eval(text, os.Getenv)`.
 * TODO(resolve): switch to helper A's drone/envsubst port (src/render/envsubst) once it lands on main; this stand-in
 * handles `${NAME}` and the default operators (`${NAME:-x}`, `:=`, `=`, `:?`, `:+`), and `$$` → `$`.
 */
export function evalWithEnv(text: string, env: Env): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '$' && text[i + 1] === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (c === '$' && text[i + 1] === '{') {
      const end = text.indexOf('}', i + 2);
      if (end < 0) {
        out += text.slice(i);
        break;
      }
      const body = text.slice(i + 2, end);
      const m = /^([\p{L}\p{N}_]+)(?:(:=|:-|:\?|:\+|=)(.*))?$/su.exec(body);
      if (!m) {
        out += text.slice(i, end + 1);
      } else {
        const v = env[m[1] ?? ''] ?? '';
        out += v !== '' || m[2] === undefined ? v : (m[3] ?? '');
      }
      i = end + 1;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
