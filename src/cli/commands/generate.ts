/**
 * `capiform generate yaml|provider|cluster`: drop-ins for clusterctl's commands of the same name. The render stack is
 * imported lazily so that `--help` and other commands stay fast.
 */
import { Option, type Command } from 'commander';
import { writeFileAtomic } from '../../cache/index.js';
import { flavorProblem } from '../../config/index.js';
import { MissingVariablesError, UsageError } from '../../errors.js';
import type { ProviderType } from '../../capi/index.js';
import type { CliIO } from '../context.js';
import { downloadProgress } from './pipeline-shared.js';
import { requireWritableFile } from '../paths.js';

/**
 * `--write-to`: replaced atomically and private (mode 0o600: the output may hold credentials). As with clusterctl, a
 * missing folder is the user's error, not created.
 */
function writeOutput(path: string, content: string): void {
  try {
    writeFileAtomic(path, content, { mode: 0o600, createFolders: false });
  } catch (err) {
    throw new UsageError(`failed to write ${path}: ${(err as Error).message}`, { where: path });
  }
}

function emit(io: CliIO, out: string, writeTo: string | undefined): void {
  if (writeTo) writeOutput(requireWritableFile(io.cwd, writeTo, '--write-to'), out);
  else io.stdout(out);
}

const offlineHelp = 'read remote repositories and template URLs from the cache only (no network)';

/** What the generate commands pass for remote sources: `--offline` and download progress (stderr). */
function remoteOptions(io: CliIO, cmd: Command): { offline: boolean; onProgress: ReturnType<typeof downloadProgress> } {
  const o = cmd.optsWithGlobals<{ offline?: boolean; json?: boolean; quiet?: boolean }>();
  return { offline: o.offline ?? false, onProgress: downloadProgress(io, o) };
}

/**
 * clusterctl's "value for variables [...] is not set" says where values come from; the hint says how, per name
 * (the environment is read under the upper-cased name, as viper does).
 */
async function withVariablesHint<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (err) {
    if (err instanceof MissingVariablesError && !err.hint) {
      const them = err.names.length === 1 ? 'it' : 'them';
      throw Object.assign(err, {
        hint: `export ${err.names.map((n) => `${n.toUpperCase().replace(/-/g, '_')}=<value>`).join(' ')}, or set ${them} in the clusterctl config file (--config); --list-variables (--describe for a provider) lists every variable`,
      });
    }
    throw err;
  }
}

const styleHelp = 'capiform (default: upstream text kept, changes spliced in) or clusterctl (its exact bytes)';

function outputStyle(value: unknown): 'capiform' | 'clusterctl' {
  if (value === undefined || value === 'capiform') return 'capiform';
  if (value === 'clusterctl') return 'clusterctl';
  throw new UsageError(`invalid output style "${String(value)}", valid values: [capiform clusterctl]`, {
    hint: 'use --output-style capiform or --output-style clusterctl',
  });
}

/** Go `strconv.ParseInt` for an int64 flag, with cobra's error text. */
function int64Flag(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ok = /^[+-]?[0-9]+$/.test(value) && BigInt(value) >= -(2n ** 63n) && BigInt(value) < 2n ** 63n;
  if (!ok) {
    const why = /^[+-]?[0-9]+$/.test(value) ? 'value out of range' : 'invalid syntax';
    throw new UsageError(`invalid argument "${value}" for "--${flag}" flag: strconv.ParseInt: parsing "${value}": ${why}`);
  }
  return value;
}

const providerFlagList: { key: string; flag: string; type: ProviderType; what: string }[] = [
  { key: 'core', flag: 'core', type: 'CoreProvider', what: 'core provider' },
  { key: 'bootstrap', flag: 'bootstrap', type: 'BootstrapProvider', what: 'bootstrap provider' },
  { key: 'controlPlane', flag: 'control-plane', type: 'ControlPlaneProvider', what: 'control plane provider' },
  { key: 'infrastructure', flag: 'infrastructure', type: 'InfrastructureProvider', what: 'infrastructure provider' },
  { key: 'ipam', flag: 'ipam', type: 'IPAMProvider', what: 'IPAM provider' },
  { key: 'runtimeExtension', flag: 'runtime-extension', type: 'RuntimeExtensionProvider', what: 'runtime extension provider' },
  { key: 'addon', flag: 'addon', type: 'AddonProvider', what: 'add-on provider' },
];

const fromConfigMapHint =
  "export the template to a file (kubectl get configmap NAME -n NAMESPACE -o jsonpath='{.data.template}' > template.yaml) and pass --from template.yaml";
const kubeconfigHint = 'pass the namespace with --target-namespace and the provider with --infrastructure name:version';
const clusterOnlyFlags: { name: string; key: string; hint: string }[] = [
  { name: 'from-config-map', key: 'fromConfigMap', hint: fromConfigMapHint },
  { name: 'from-config-map-namespace', key: 'fromConfigMapNamespace', hint: fromConfigMapHint },
  { name: 'from-config-map-key', key: 'fromConfigMapKey', hint: fromConfigMapHint },
  { name: 'kubeconfig', key: 'kubeconfig', hint: kubeconfigHint },
  { name: 'kubeconfig-context', key: 'kubeconfigContext', hint: kubeconfigHint },
];

export function registerGenerate(program: Command, io: CliIO): void {
  const generate = program
    .command('generate')
    .description('clusterctl-compatible generation of provider components, cluster templates and YAML');

  generate
    .command('yaml')
    .description('substitute variables in a YAML file (clusterctl generate yaml)')
    .option('--from <source>', 'file, URL or - for stdin', '-')
    .option('--list-variables', 'list the variables the YAML uses instead of rendering it')
    .option('--output-style <style>', styleHelp)
    .option('--config <path>', 'clusterctl configuration file (clusterctl.yaml)')
    .option('--offline', offlineHelp)
    .action(async (opts: { from: string; listVariables?: boolean; config?: string; outputStyle?: string }, cmd: Command) => {
      const { generateYaml } = await import('../../pipeline/generate/index.js');
      const out = await withVariablesHint(generateYaml(
        { env: io.env, cwd: io.cwd, readStdin: io.readStdin, configPath: opts.config, ...remoteOptions(io, cmd) },
        { from: opts.from, listVariables: Boolean(opts.listVariables), outputStyle: outputStyle(opts.outputStyle) },
      ));
      io.stdout(out);
    });

  const provider = generate
    .command('provider')
    .description('render the components of one provider (clusterctl generate provider)');
  for (const f of providerFlagList) provider.option(`--${f.flag} <name[:version]>`, `${f.what} and version`);
  provider
    .option('-n, --target-namespace <namespace>', 'namespace the provider is installed in')
    .option('--raw', 'print the components without variable substitution')
    .option('--describe', 'print a summary of the provider instead of the YAML')
    .option('--write-to <file>', 'write the output to a file instead of stdout')
    .option('--output-style <style>', styleHelp)
    .option('--config <path>', 'clusterctl configuration file (clusterctl.yaml)')
    .option('--offline', offlineHelp)
    .action(async (opts: Record<string, string | boolean | undefined>, cmd: Command) => {
      const given = providerFlagList.filter((f) => typeof opts[f.key] === 'string');
      const all = providerFlagList.map((f) => `--${f.flag}`).join(', ');
      if (given.length === 0) throw new UsageError(`at least one of ${all} should be set`);
      if (given.length > 1) throw new UsageError(`only one of ${all} should be set`);
      const chosen = given[0] as (typeof providerFlagList)[number];
      const { generateProvider } = await import('../../pipeline/generate/index.js');
      const out = await withVariablesHint(generateProvider(
        { env: io.env, cwd: io.cwd, readStdin: io.readStdin, configPath: opts.config as string | undefined, ...remoteOptions(io, cmd) },
        {
          type: chosen.type,
          provider: opts[chosen.key] as string,
          targetNamespace: opts.targetNamespace as string | undefined,
          raw: Boolean(opts.raw),
          describe: Boolean(opts.describe),
          outputStyle: outputStyle(opts.outputStyle),
        },
      ));
      emit(io, out, opts.writeTo as string | undefined);
    });

  const cluster = generate
    .command('cluster')
    .description('render a workload cluster from a template (clusterctl generate cluster)')
    .argument('[name]', 'cluster name')
    .option('-i, --infrastructure <name[:version]>', 'infrastructure provider to read the template from')
    .option('-f, --flavor <flavor>', 'template variant (cluster-template-<flavor>.yaml)')
    .option('--kubernetes-version <version>', 'Kubernetes version (sets KUBERNETES_VERSION)')
    .option('--control-plane-machine-count <n>', 'control plane machines (sets CONTROL_PLANE_MACHINE_COUNT)')
    .option('--worker-machine-count <n>', 'worker machines (sets WORKER_MACHINE_COUNT)')
    .option('-n, --target-namespace <namespace>', 'namespace of the cluster objects (sets NAMESPACE)')
    .option('--from <source>', 'template file, URL or - for stdin instead of a provider repository')
    .option('--list-variables', 'list the variables the template needs instead of rendering it')
    .option('--write-to <file>', 'write the output to a file instead of stdout')
    .option('--output-style <style>', styleHelp)
    .option('--config <path>', 'clusterctl configuration file (clusterctl.yaml)')
    .option('--offline', offlineHelp);
  // clusterctl's cluster-reading flags: accepted only to say what to use instead (a bare "unknown option" does not).
  for (const flag of clusterOnlyFlags) cluster.addOption(new Option(`--${flag.name} <value>`).hideHelp());
  cluster
    .action(async (name: string | undefined, opts: Record<string, string | boolean | undefined>, cmd: Command) => {
      for (const flag of clusterOnlyFlags) {
        if (opts[flag.key] !== undefined) throw new UsageError(`--${flag.name} is not supported: capiform never reads a management cluster`, { hint: flag.hint });
      }
      if (!name || cmd.args.length !== 1) throw new UsageError('please specify a cluster name');
      // An empty --flavor means the default template, as in clusterctl.
      const flavorIssue = typeof opts.flavor === 'string' && opts.flavor !== '' ? flavorProblem(opts.flavor) : null;
      if (flavorIssue) throw new UsageError(`invalid --flavor: ${flavorIssue}`, { where: '--flavor', hint: 'pass the flavor part of a cluster-template-<flavor>.yaml the provider ships' });
      const { generateCluster } = await import('../../pipeline/generate/index.js');
      const out = await withVariablesHint(generateCluster(
        { env: io.env, cwd: io.cwd, readStdin: io.readStdin, configPath: opts.config as string | undefined, ...remoteOptions(io, cmd) },
        {
          clusterName: name,
          infrastructure: opts.infrastructure as string | undefined,
          flavor: opts.flavor as string | undefined,
          kubernetesVersion: opts.kubernetesVersion as string | undefined,
          controlPlaneMachineCount: int64Flag(
            'control-plane-machine-count',
            opts.controlPlaneMachineCount as string | undefined,
          ),
          workerMachineCount: int64Flag('worker-machine-count', opts.workerMachineCount as string | undefined),
          targetNamespace: opts.targetNamespace as string | undefined,
          from: opts.from as string | undefined,
          listVariables: Boolean(opts.listVariables),
          outputStyle: outputStyle(opts.outputStyle),
        },
      ));
      emit(io, out, opts.listVariables ? undefined : (opts.writeTo as string | undefined));
    });
}
