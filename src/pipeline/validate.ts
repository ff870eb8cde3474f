/**
 * What `capiform validate` reads: the manifests named on the command line (or the project's rendered tree), the
 * CRDs and OpenAPI documents of `--schemas`, and the project's rendered provider components; then the pure checks of
 * src/validate.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MAX_MANIFEST_SIZE, readTextFile } from '../yaml/index.js';
import { treeRoots } from '../render/index.js';
import { readManifest, validateManifests, type ManifestFile, type ValidationReport } from '../validate/index.js';
import { manifestFiles } from './plan-inputs/index.js';

export interface ValidateRequest {
  /** Where relative paths are read from and reported against. */
  cwd: string;
  /** Files or folders of manifests; empty: the project's rendered tree under `projectDir`. */
  paths: readonly string[];
  /** Files or folders of CRDs (provider components) and Kubernetes OpenAPI v3 documents. */
  schemas: readonly string[];
  /** The project's root (the config's folder): its rendered `providers/` declare the CRDs. */
  projectDir?: string;
}

/** The rendered folders whose objects are applied to a management cluster (Argo CD's own glue is not). */
const appliedRoots = treeRoots.filter((r) => r !== 'argocd');
/** kustomize's own file: read by kustomize, never applied. */
const isKustomization = (file: string): boolean => /(^|[/\\])kustomization\.ya?ml$/.test(file);

/** Reads the inputs of a validation and checks them. */
export function validateProject(req: ValidateRequest): ValidationReport {
  const base = req.paths.length > 0 ? req.cwd : (req.projectDir ?? req.cwd);
  const inputPaths = req.paths.length > 0 ? req.paths.map((p) => resolve(req.cwd, p)) : appliedRoots.map((r) => join(base, r)).filter((p) => existsSync(p));
  const inputs = readAll(inputPaths, base, /\.(ya?ml|json)$/);
  const schemaFiles = readAll(req.schemas.map((p) => resolve(req.cwd, p)), req.cwd, /\.(ya?ml|json)$/);
  const providers = req.paths.length > 0 && req.projectDir ? join(req.projectDir, 'providers') : undefined;
  const projectCrds = providers && existsSync(providers) ? readAll([providers], req.cwd, /\.ya?ml$/) : emptyManifest();
  return validateManifests({
    objects: inputs.objects,
    schemaObjects: [...schemaFiles.objects, ...projectCrds.objects],
    openApiDocuments: [...inputs.openApiDocuments, ...schemaFiles.openApiDocuments],
  });
}

function emptyManifest(): ManifestFile {
  return { objects: [], openApiDocuments: [] };
}

function readAll(paths: readonly string[], base: string, names: RegExp): ManifestFile {
  const out = emptyManifest();
  for (const path of paths) {
    for (const file of manifestFiles(path, names)) {
      const source = relative(base, file) || file;
      if (isKustomization(source)) continue;
      const m = readManifest(readTextFile(file, MAX_MANIFEST_SIZE, 'manifest', source), source);
      out.objects.push(...m.objects);
      out.openApiDocuments.push(...m.openApiDocuments);
    }
  }
  return out;
}

