/**
 * The installed `kubernetes-models` package as the source of built-in kinds' schemas: its files are found next to
 * capiform's own modules and read on demand, one kind's definitions at a time (a ConfigMap reads eight small files,
 * a Deployment about 200), and kept for the process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { kubernetesModelsSchemas, type BuiltInSchemas } from '../../validate/index.js';

const packages = ['kubernetes-models', '@kubernetes-models/apimachinery'] as const;
/** A definition module is a few kilobytes; a kind's folder module smaller still. */
const maxModuleSize = 1 << 20;

let loaded: BuiltInSchemas | null | undefined;

/** The built-in schemas, or undefined when the package is not installed (built-in kinds then go unchecked). */
export function builtInSchemas(): BuiltInSchemas | undefined {
  if (loaded === undefined) loaded = load() ?? null;
  return loaded ?? undefined;
}

function load(): BuiltInSchemas | undefined {
  const roots = new Map<string, string>();
  try {
    const models = dirname(createRequire(import.meta.url).resolve(packages[0]));
    roots.set(packages[0], models);
    roots.set(packages[1], dirname(createRequire(join(models, 'package.json')).resolve(packages[1])));
  } catch {
    return undefined;
  }
  const version = packageVersion(roots.get(packages[0]) as string);
  return kubernetesModelsSchemas((file) => {
    const pkg = packages.find((p) => file.startsWith(`${p}/`));
    if (!pkg) return undefined;
    const path = join(roots.get(pkg) as string, file.slice(pkg.length + 1));
    if (!existsSync(path)) return undefined;
    const text = readFileSync(path, 'utf8');
    return text.length > maxModuleSize ? undefined : text;
  }, `${packages[0]}@${version}`);
}

function packageVersion(root: string): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const v = typeof pkg === 'object' && pkg !== null ? (pkg as { version?: unknown }).version : undefined;
    return typeof v === 'string' ? v : 'unknown';
  } catch {
    return 'unknown';
  }
}
