/**
 * A run's problems: every failure of a provider or cluster collected, then reported at once (redacted), and credentials
 * that would land in the tree in plain text.
 */
import { CapiformError, InputError, MissingVariablesError } from '../errors.js';
import { redact, secretValues, type ResolvedConfig } from '../config/index.js';

/** One problem among many: what failed and where in the config. */
export interface Problem {
  where: string;
  error: CapiformError;
}

/** A variable that would reach the tree in plain text, and the object and file it would land in. */
export interface Leak {
  variable: string;
  object: string;
  file: string;
  where: string;
}

/**
 * Every credential that would land in the tree in plain text, by variable, as one error. Under policy "omit" the
 * leaks are the objects that are not Secrets: leaving one out would break what it belongs to, so the fix is to move
 * the value into a Secret (or to say it is no credential).
 */
export function secretsError(leaks: Leak[], policy: 'fail' | 'omit' = 'fail'): InputError {
  const byVar = new Map<string, string[]>();
  for (const l of leaks) {
    const list = byVar.get(l.variable) ?? [];
    const entry = `${l.object} in ${l.file} (${l.where})`;
    if (!list.includes(entry)) list.push(entry);
    byVar.set(l.variable, list);
  }
  const lines = [...byVar].sort(([a], [b]) => (a < b ? -1 : 1)).map(([v, objs]) => `  ${v}:\n${objs.map((o) => `    - ${o}`).join('\n')}`);
  if (policy === 'omit') {
    return new InputError(
      `credentials would be written in plain text into objects that are not Secrets (secrets.policy "omit" leaves out only Secrets):\n${lines.join('\n')}`,
      {
        hint:
          'keep a credential in a Secret the object references (a KubeadmConfig files[].contentFrom.secret, an identity\'s secretRef, ' +
          'a ClusterResourceSet resource of kind Secret) and provision that Secret with external-secrets or SOPS; ' +
          'or list the variable under secrets.allowPlaintext if it is not a credential',
      },
      'E_SECRET_IN_OBJECT',
    );
  }
  return new InputError(`credentials would be written to the tree in plain text:\n${lines.join('\n')}`, {
    hint:
      'set secrets.policy to "omit" to leave these objects out (and provision them with external-secrets or SOPS), ' +
      'or list a variable under secrets.allowPlaintext if it is not a credential',
  }, 'E_SECRET_IN_TREE');
}

/** render reads no environment, so a missing variable is set in the config: say where. */
export function withVariablesHint(err: CapiformError, entryVariables: string): CapiformError {
  if (!(err instanceof MissingVariablesError) || err.hint) return err;
  const names = err.names.map((n) => `${n}: '…'`).join(', ');
  return Object.assign(err, {
    hint: `set ${names} in ${entryVariables} or in the global variables of the config ({ env: 'NAME' } reads one from the environment)`,
  });
}

/** Every problem of a run in one error (the first one's class and exit code), redacted. */
export function aggregate(problems: Problem[], config: ResolvedConfig): CapiformError {
  const values = secretValues(config);
  if (problems.length === 1) {
    const p = problems[0]!;
    const e = p.error;
    const where = !e.where ? p.where : e.where.startsWith(p.where) ? e.where : `${p.where}: ${e.where}`;
    return Object.assign(e, { message: redact(e.message, values), where });
  }
  // Each problem keeps its own place and fix (the template file, the config key to set), not just the first one's.
  const lines = problems.map((p) => {
    const e = p.error;
    const more = [
      ...(e.where && !p.where.startsWith(e.where) ? [`at: ${redact(e.where, values)}`] : []),
      ...(e.hint ? [`fix: ${redact(e.hint, values)}`] : []),
    ];
    return `  ${p.where}: ${[redact(e.message, values), ...more].join('\n').split('\n').join('\n    ')}`;
  });
  const first = problems[0]!.error;
  const err = new InputError(`${problems.length} problems:\n${lines.join('\n')}`, {}, 'E_MANY');
  return Object.assign(err, { exitCode: first.exitCode });
}
