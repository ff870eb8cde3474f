/**
 * Provider components as `clusterctl generate provider` builds them (spec §2.1): list the variables, substitute
 * (unless `--raw`/`--describe`), then the components pipeline (parse, image overrides and checks, target namespace,
 * labels, order). Synchronous and pure; a caller may hand a memo of the components pipeline (the pipeline's is on disk),
 * never used when the substituted text holds a credential.
 */
import { looksLikeCredential } from '../config/index.js';
import { CapiformError, InputError, wrapError } from '../errors.js';
import { manifestLabel, type ProviderType } from '../capi/index.js';
import { getVariables, process } from '../envsubst/index.js';
import { renderComponents, type Components, type ComponentsMemo, type ImageOverrides } from './components/index.js';

export type { ImageOverrides };

export interface RenderProviderComponentsInput {
  /** The components file as fetched (before substitution). */
  raw: string;
  name: string;
  type: ProviderType;
  version: string;
  /** `--target-namespace`; empty or absent = the Namespace object's name. */
  targetNamespace?: string;
  variables: (name: string) => string | undefined;
  images?: ImageOverrides | null;
  /** `--raw`, `--describe`, `init list-images`: no substitution (image checks still run). */
  skipTemplateProcess?: boolean;
  /** File name or location, for error messages. */
  source?: string;
  /** A memo of the components pipeline (components/memo.ts); not used when the text holds a credential. */
  memo?: ComponentsMemo | undefined;
}

export type ProviderComponents = Components & {
  /** Provider name (as `providerName`). */
  name: string;
  type: ProviderType;
  version: string;
  /** Sorted variable names of the raw file. */
  variables: string[];
};

/** Points an error at the file it came from, unless it already says where. */
export function withWhere<T extends CapiformError>(err: T, where: string | undefined): T {
  if (where !== undefined && err.where === undefined) Object.assign(err, { where });
  return err;
}

/** `NewComponents` (client/repository/components.go). */
export function renderProviderComponents(input: RenderProviderComponentsInput): ProviderComponents {
  // Step 1: a parse error here fails even --raw and is returned unwrapped.
  let variables: string[];
  try {
    variables = getVariables(input.raw);
  } catch (err) {
    throw err instanceof CapiformError ? withWhere(err, input.source) : err;
  }
  let text = input.raw;
  // The memo stores the substituted text: a credential's value would sit in the cache in plain text, so a result
  // holding one is not memoised (defaults written in the template are public and do not count).
  const holdsCredential = !input.skipTemplateProcess && variables.some((v) => looksLikeCredential(v) && (input.variables(v) ?? '') !== '');
  if (!input.skipTemplateProcess) {
    try {
      text = process(input.raw, input.variables);
    } catch (err) {
      if (err instanceof CapiformError) throw withWhere(wrapError(err, 'failed to perform variable substitution'), input.source);
      throw new InputError(`failed to perform variable substitution: ${String(err)}`, { where: input.source });
    }
  }
  const components = renderComponents({
    text,
    providerName: input.name,
    providerType: input.type,
    manifestLabel: manifestLabel(input.name, input.type),
    version: input.version,
    targetNamespace: input.targetNamespace || undefined,
    images: input.images,
    source: input.source,
    memo: holdsCredential ? undefined : input.memo,
  });
  return Object.assign(components, { name: input.name, type: input.type, version: input.version, variables });
}

/**
 * `generate provider --describe` (cmd/clusterctl/cmd/util.go `printComponentsAsText`). `url` is the provider URL as
 * configured; the printed URL is its directory without the version segment, `File` its last element.
 */
export function describeComponents(
  c: Pick<ProviderComponents, 'name' | 'type' | 'version' | 'targetNamespace' | 'variables' | 'images'>,
  url: string,
): string {
  const slash = url.lastIndexOf('/');
  const dir = url.slice(0, slash + 1);
  const file = url.slice(slash + 1);
  const trimmed = dir.endsWith('/') ? dir.slice(0, -1) : dir;
  const baseURL = trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
  let out = '';
  out += `Name:               ${c.name}\n`;
  out += `Type:               ${c.type}\n`;
  out += `URL:                ${baseURL}\n`;
  out += `Version:            ${c.version}\n`;
  out += `File:               ${file}\n`;
  out += `TargetNamespace:    ${c.targetNamespace}\n`;
  if (c.variables.length > 0) out += `Variables:\n${c.variables.map((v) => `  - ${v}\n`).join('')}`;
  if (c.images.length > 0) out += `Images:\n${c.images.map((v) => `  - ${v}\n`).join('')}`;
  return `${out}\n`;
}
