/**
 * The second stage: open every provider's repository, choose the versions (lock entries that still fit are kept,
 * `--upgrade`/`--contract` move them) and resolve them through the artifact store, which verifies every byte against
 * the lock and records what the new lock will pin.
 */
import { CapiformError } from '../errors.js';
import { satisfiesConstraint } from '../config/index.js';
import { ContentCache } from '../cache/index.js';
import { ArtifactStore, isUpgrading, pinnedTemplateVersions, pinnedVersions, templatePinKey, templatePinRequests, type LockedFile } from '../lock/index.js';
import { aggregate, type Problem } from '../render/index.js';
import { certManagerLabel, providerRepository, resolveTemplatePin, resolveVersions, type RepositoryRef, type Resolution, type TemplatePinResolution } from '../resolve/index.js';
import type { PipelineContext } from './context.js';
import type { ProjectState } from './read-project.js';

export interface ResolvedProject {
  store: ArtifactStore;
  resolution: Resolution;
  /** The releases clusters pin their templates to (`clusters[].templateVersion`), by label and constraint. */
  templatePins: readonly TemplatePinResolution[];
}

export async function resolveProject(ctx: PipelineContext, project: ProjectState): Promise<ResolvedProject> {
  const { config } = ctx;
  const { existing } = project;
  const problems: Problem[] = [];
  const repositories = new Map<string, RepositoryRef>();
  for (const p of config.providers) {
    try {
      repositories.set(p.label, await providerRepository(p, config.dir, ctx.repositories));
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      problems.push({ where: p.configPath, error: err });
    }
  }
  if (problems.length > 0) throw aggregate(problems, config);
  let pinned: Map<string, string>;
  if (ctx.frozen) pinned = new Map(existing!.providers.map((p) => [p.label, p.version]));
  else if (ctx.contract !== undefined && existing) {
    if (!ctx.planContract) throw new Error('resolveProject: `contract` needs `planContract`');
    const planned = await ctx.planContract(config, existing, repositories, ctx.contract);
    for (const n of planned.notes) ctx.log(n);
    pinned = planned.pinned;
  } else pinned = pinnedVersions(config, existing, repositories, ctx.upgrade);
  const cmLocked = existing?.certManager;
  const cmUpgrading = isUpgrading({ name: certManagerLabel, label: certManagerLabel }, ctx.upgrade);
  // cert-manager keeps its locked version while it fits the config's range, unless `--upgrade` names it (or all).
  if (cmLocked && config.certManager && (ctx.frozen || (!cmUpgrading && satisfiesConstraint(cmLocked.version, config.certManager.version)))) {
    pinned.set(certManagerLabel, cmLocked.version);
  }

  // `--upgrade` re-pins the bytes of the providers it names too (a release re-published on purpose, an edited local
  // repository): their old digests must not stand in the way.
  const upgrading = (label: string): boolean => config.providers.some((p) => p.label === label && isUpgrading(p, ctx.upgrade));
  const locked = new Map<string, { version: string; files: readonly LockedFile[] }>();
  for (const p of existing?.providers ?? []) if (!upgrading(p.label)) locked.set(p.label, { version: p.version, files: p.files });
  if (cmLocked && !cmUpgrading) locked.set(certManagerLabel, { version: cmLocked.version, files: cmLocked.files });
  // Template pins keep their locked release (and its digests) like providers: frozen always, otherwise while it fits.
  const pinRequests = templatePinRequests(config);
  const keptPins = ctx.frozen
    ? new Map((existing?.templatePins ?? []).map((t) => [templatePinKey(t.label, t.constraint), t.version]))
    : pinnedTemplateVersions(config, existing, repositories, ctx.upgrade);
  const lockedReleases = (existing?.templatePins ?? []).filter((t) => !upgrading(t.label)).map((t) => ({ label: t.label, version: t.version, files: t.files }));
  const store = new ArtifactStore({
    configDir: config.dir,
    locked,
    lockedReleases,
    frozen: ctx.frozen,
    cache: ctx.cache ?? ContentCache.fromEnv(ctx.env ?? {}),
  });
  const pinnedContracts = new Map((existing?.providers ?? []).map((p) => [p.label, p.contract]));
  const resolution = await resolveVersions(config, {
    store,
    pinned,
    pinnedContracts,
    repositories,
    certManager: project.certManager,
    ...(ctx.contract !== undefined ? { contract: ctx.contract } : {}),
  });
  const templatePins: TemplatePinResolution[] = [];
  for (const req of pinRequests) {
    const ref = repositories.get(req.label);
    if (!ref) continue;
    try {
      templatePins.push(await resolveTemplatePin(req, ref, keptPins.get(templatePinKey(req.label, req.constraint))));
    } catch (err) {
      if (!(err instanceof CapiformError)) throw err;
      problems.push({ where: req.configPaths.join(', '), error: err });
    }
  }
  if (problems.length > 0) throw aggregate(problems, config);
  // Local repositories are read again on every run, so an edited file can never hide behind the content cache or
  // the render cache: the bytes on disk must still be the bytes the lock pins.
  await store.verifyLocal([
    ...resolution.providers.map((r) => ({ label: r.provider.label, repo: r.repo, version: r.version })),
    ...(resolution.certManager ? [{ label: 'cert-manager', repo: resolution.certManager.repo, version: resolution.certManager.version }] : []),
    ...templatePins.map((t) => ({ label: t.label, repo: t.ref.repo, version: t.version })),
  ]);
  for (const r of resolution.providers) {
    const before = existing?.providers.find((x) => x.label === r.provider.label);
    if (before && before.version !== r.version) ctx.log(`${r.provider.label}: ${before.version} → ${r.version}`);
  }
  if (cmLocked && resolution.certManager && cmLocked.version !== resolution.certManager.version) {
    ctx.log(`${certManagerLabel}: ${cmLocked.version} → ${resolution.certManager.version}`);
  }
  for (const t of templatePins) {
    const before = existing?.templatePins?.find((x) => x.label === t.label && x.constraint === t.constraint);
    if (before && before.version !== t.version) ctx.log(`${t.label} template pin "${t.constraint}": ${before.version} → ${t.version}`);
  }
  return { store, resolution, templatePins };
}
