import { ConfigError } from '../errors.js';

/** One problem in the config: where (a config path such as `providers.infrastructure[1].version`) and what. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** `providers.infrastructure[1].version` from zod's path array. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || '(root)';
}

/** Every issue at once, one line each, in one ConfigError that names the file. */
export function configIssuesError(file: string, issues: readonly ConfigIssue[]): ConfigError {
  const lines = issues.map((i) => `  ${i.path}: ${i.message}`);
  const noun = issues.length === 1 ? 'problem' : 'problems';
  return new ConfigError(`invalid config (${issues.length} ${noun}):\n${lines.join('\n')}`, {
    where: file,
    hint: 'fix the listed fields; the reference is capiform\'s docs/configuration.md and schema/capi.config.schema.json',
  });
}
