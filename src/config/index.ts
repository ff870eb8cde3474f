/** capi.config.*: types, defineConfig, the schema and the loader. (clusterctl.yaml lives in ./clusterctl.) */
export { defineConfig } from './define-config.js';
export { configFileNames, findConfigFile, loadConfig, readConfigFile, validateConfig, type LoadConfigOptions } from './load.js';
export { contractPattern, isVersionConstraint, providerKinds } from './kinds.js';
export { configJsonSchemaId, configJsonSchemaPath } from './json-schema-id.js';
export type * from './types.js';
export { isSecretVariable, looksLikeCredential, markersIn, redact, secretMarker, secretValues } from './secrets.js';
export { flavorGrammar, flavorPattern, flavorProblem, repoUrlProblem } from './names.js';
export { isSemanticVersion, npmSemver, orderCandidates, satisfiesConstraint } from './constraints.js';
export { configIssuesError, formatConfigPath, type ConfigIssue } from './issues.js';
export {
  ClusterctlConfig,
  evalWithEnv,
  evalWithEnvOrThrow,
  findDefaultConfigFile,
  homeDir,
  loadClusterctlConfig,
  parseClusterctlConfig,
  xdgConfigHome,
  type Env,
  type ImageMeta,
} from './clusterctl/index.js';
export {
  ciWorkflowPath,
  ciWorkflowSource,
  clusterOwnVariables,
  configSource,
  gitignoreSource,
  patchRange,
  relockWorkflowPath,
  relockWorkflowSource,
  workflowPaths,
  type Scaffold,
  type WorkflowSettings,
  type ScaffoldCluster,
  type ScaffoldProvider,
} from './scaffold.js';
