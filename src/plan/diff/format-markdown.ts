/**
 * Markdown for a pull-request comment: summary first, one `<details>` section per object, bounded in size (GitHub
 * refuses comments over 65,536 characters). Layout comes from handlebars templates a team can override.
 */
import type Handlebars from 'handlebars';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { InputError } from '../../errors.js';
import type { DiffReport, FieldChange, ObjectChange } from './types.js';
import { commentTemplate, objectTemplate, topologyTemplate } from './templates.js';
import { narrowTextChange } from './field-diff.js';
import { valueDiffLines } from './value-diff.js';
import { impactOrder, worstImpact, type ClusterSummary, type ImpactKind, type ProviderSummary } from '../rollout/types.js';
import { groupImpacts, pinnedLabel } from '../rollout/summary.js';
import type { ClusterTopologyReview, TopologyFieldChange } from '../topology/types.js';

export interface MarkdownOptions {
  /** Upper bound of the comment in characters. Default 60,000. */
  maxSize?: number;
  /** A folder with `comment.hbs` and/or `object.hbs` replacing the defaults. */
  templateDir?: string;
  /** Where the full report is, for the truncation note (e.g. "Full report: the `capiform-diff` artifact (diff.json)."). */
  fullReport?: string;
  /** Field rows per object section. Default 40. */
  maxFieldsPerObject?: number;
  /** Rows of the cluster table. Default 100. */
  maxClusterRows?: number;
  /** Topology Clusters shown in the ClusterClass review. Default 20. */
  maxTopologyClusters?: number;
}

export const defaultMaxSize = 60_000;

const impactLabels: Record<ImpactKind, string> = {
  'no-op': 'no-op',
  'in-place': 'in-place',
  create: 'create',
  'template-rotation': 'template rotation',
  'provider-change': 'provider change',
  'provider-upgrade': 'provider upgrade',
  'worker-rollout': 'worker rollout',
  'control-plane-rollout': 'control-plane rollout',
  orphaned: 'orphaned (left running)',
  deletion: 'deletion',
  rejected: '⛔ rejected',
};

const symbols: Record<ObjectChange['action'], string> = { added: '➕', removed: '➖', changed: '✏️', rotated: '🔄' };

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Table-cell safe HTML: escaped, `|` as an entity, no newlines. */
function cellText(s: string): string {
  return escapeHtml(s).replace(/\|/g, '&#124;').replace(/\r?\n/g, '<br>');
}

function showValue(v: unknown): string {
  if (v === undefined) return '';
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  const cut = text.length > 300 ? `${text.slice(0, 300)}…` : text;
  return `<code>${cellText(cut)}</code>`;
}

/** A field whose inside view (`valueDiff`) is printed below its table: its cells point there. */
const shownBelow = new WeakSet<object>();

function fieldSide(f: FieldChange | TopologyFieldChange, side: 'old' | 'new'): string {
  if (shownBelow.has(f)) return '<i>see the diff below</i>';
  if ('redacted' in f && f.redacted) {
    const hash = side === 'old' ? f.redacted.oldHash : f.redacted.newHash;
    return hash ? `🔒 ${f.redacted.reason} <code>${hash}</code>` : '—';
  }
  const v = side === 'old' ? f.old : f.new;
  return v === undefined ? '—' : showValue(v);
}

/** Characters of value diffs per object section: the comment's budget is shared by every object. */
const valueDiffBudget = 6000;

interface DiffBlock {
  path: string;
  role?: string;
  fence: string;
  body: string;
}

/**
 * The fields' value diffs as ```diff blocks, while they fit `valueDiffBudget`; the fields shown this way have their
 * table cells point below, the others keep their values in the table. The fence is longer than any backtick run in
 * the body, so a value can never close it.
 */
function diffBlocks(fields: readonly (FieldChange | (TopologyFieldChange & { role?: string }))[]): { blocks: DiffBlock[]; hidden: number } {
  const blocks: DiffBlock[] = [];
  let budget = valueDiffBudget;
  let hidden = 0;
  for (const f of fields) {
    if (!f.valueDiff) continue;
    const prefix = f.valueDiff.kind === 'items' && f.valueDiff.prefix ? [`# ${f.valueDiff.prefix}`] : [];
    const all = [...prefix, ...valueDiffLines(f.valueDiff)];
    // A diff longer than what is left keeps its first lines (the first hunk names the change).
    const kept: string[] = [];
    let size = f.path.length + 40;
    for (const line of all) {
      if (size + line.length + 1 > budget) break;
      kept.push(line);
      size += line.length + 1;
    }
    if (kept.length <= prefix.length) {
      hidden++;
      continue;
    }
    if (kept.length < all.length) kept.push(`… ${all.length - kept.length} more lines (see the JSON report)`);
    const body = kept.join('\n');
    budget -= size;
    const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
    shownBelow.add(f);
    blocks.push({ path: f.path, ...('role' in f && f.role ? { role: f.role } : {}), fence: '`'.repeat(Math.max(3, longest + 1)), body });
  }
  return { blocks, hidden };
}

/** A changed flag's values: its changed list items (`- B=false`, `+ B=true`), or old → new. */
function flagValues(x: ProviderSummary['args'][number]['changed'][number]): string {
  if (x.removed === undefined && x.added === undefined) return `<code>${cellText(x.from)}</code> → <code>${cellText(x.to)}</code>`;
  return [...(x.removed ?? []).map((r) => `<code>- ${cellText(r)}</code>`), ...(x.added ?? []).map((a) => `<code>+ ${cellText(a)}</code>`)].join(' ');
}

function crdSummary(c: ProviderSummary['crds']): string {
  const parts: string[] = [];
  if (c.added.length) parts.push(`${c.added.length} added`);
  if (c.removed.length) parts.push(`${c.removed.length} removed`);
  if (c.changed.length) parts.push(`${c.changed.length} changed`);
  if (c.versionsAdded.length) parts.push(`+versions: ${c.versionsAdded.length}`);
  if (c.versionsRemoved.length) parts.push(`−versions: ${c.versionsRemoved.length}`);
  if (c.versionsDeprecated.length) parts.push(`deprecated versions: ${c.versionsDeprecated.length}`);
  if (c.storageChanged.length) parts.push(`storage changed: ${c.storageChanged.length}`);
  return parts.join(', ') || '—';
}

function compile(templateDir: string | undefined, file: string, fallback: string, hb: typeof Handlebars): Handlebars.TemplateDelegate {
  let source = fallback;
  if (templateDir) {
    if (!existsSync(templateDir)) {
      throw new InputError(`template folder ${templateDir} does not exist`, { where: templateDir, hint: 'pass a folder with comment.hbs and/or object.hbs' });
    }
    const p = join(templateDir, file);
    if (existsSync(p)) source = readFileSync(p, 'utf8');
  }
  try {
    const t = hb.compile(source, { noEscape: false, strict: false });
    return t;
  } catch (err) {
    throw new InputError(`cannot compile markdown template ${file}: ${err instanceof Error ? err.message : String(err)}`, { where: templateDir ? join(templateDir, file) : file });
  }
}

// Loaded on first use: `diff --format json|text` should not pay for handlebars at startup.
let handlebars: typeof Handlebars | undefined;

function environment(): typeof Handlebars {
  handlebars ??= createRequire(import.meta.url)('handlebars') as typeof Handlebars;
  const hb = handlebars.create();
  hb.registerHelper('cell', (v: unknown) => new hb.SafeString(cellText(v === undefined || v === null ? '' : String(v))));
  hb.registerHelper('join', (v: unknown) => (Array.isArray(v) ? v.join(', ') : ''));
  hb.registerHelper('pinned', (c: ClusterSummary) => new hb.SafeString(cellText(pinnedLabel(c))));
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('impactLabel', (k: ImpactKind) => impactLabels[k] ?? k);
  hb.registerHelper('symbol', (a: ObjectChange['action']) => symbols[a] ?? a);
  hb.registerHelper('crdSummary', (c: ProviderSummary['crds']) => new hb.SafeString(cellText(crdSummary(c))));
  hb.registerHelper('objectName', (c: ObjectChange) => (c.namespace ? `${c.namespace}/${c.name}` : c.name));
  hb.registerHelper('fieldOld', (f: FieldChange | TopologyFieldChange) => new hb.SafeString(fieldSide(f, 'old')));
  hb.registerHelper('fieldNew', (f: FieldChange | TopologyFieldChange) => new hb.SafeString(fieldSide(f, 'new')));
  hb.registerHelper('flagValues', (x: ProviderSummary['args'][number]['changed'][number]) => new hb.SafeString(flagValues(x)));
  return hb;
}

/**
 * Section order (and so what gets cut last): most severe first; a provider's CRDs, RBAC and webhooks come after every
 * cluster change — the provider's version, controllers and flags are already in the summary.
 */
function severity(c: ObjectChange): number {
  const s = impactOrder.indexOf(worstImpact(c.impacts.filter((i) => !i.possible).map((i) => i.kind)));
  if (c.owner.type === 'provider' && c.kind !== 'Provider' && c.kind !== 'Deployment' && s > 0) return 0.5;
  return s;
}

/** Within one severity, what a reviewer reads first: the provider's version, its controllers, its CRDs, the rest. */
const kindRank: Record<string, number> = { Cluster: 0, Provider: 0, KubeadmControlPlane: 1, MachineDeployment: 1, Deployment: 1, ClusterClass: 1, CustomResourceDefinition: 2 };

/**
 * Handlebars escapes `=` (for unquoted attributes, which our templates do not use) as `&#x3D;`; that only bloats
 * the comment and makes it unreadable as text. Everything else it escapes stays escaped.
 */
function unbloat(text: string): string {
  return text.replace(/&#x3D;/g, '=');
}

/** What `topology.hbs` sees: the Cluster's review, its changed objects as rows, and their fields (capped). */
function topologyData(review: ClusterTopologyReview, maxFields: number): Record<string, unknown> {
  const fields = review.changes.flatMap((c) => c.fields.map((f) => (f.valueDiff ? { role: c.role, ...f } : { role: c.role, ...narrowTextChange(f) })));
  const { blocks, hidden } = diffBlocks(fields.slice(0, maxFields));
  return {
    diffs: blocks,
    hiddenDiffs: hidden,
    review,
    mayRoll: review.impacts.some((i) => i.possible),
    rows: review.changes.map((c) => ({ ...c, impacts: groupImpacts(c.impacts) })),
    fields: fields.slice(0, maxFields),
    hiddenFields: Math.max(0, fields.length - maxFields),
  };
}

/** One row per refusal: the object, the webhook's field path and message, and the fix. */
function rejectedRows(report: DiffReport): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const c of report.changes) {
    const seen = new Set<string>();
    for (const i of c.impacts) {
      if (i.kind !== 'rejected' || seen.has(`${i.field}\0${i.message}`)) continue;
      seen.add(`${i.field}\0${i.message}`);
      rows.push({ ...(c.target !== undefined ? { target: c.target } : {}), kind: c.kind, namespace: c.namespace, name: c.name, field: i.field ?? '', message: i.message ?? i.reason, hint: i.hint ?? '' });
    }
  }
  return rows;
}

/** Renders the report as a PR comment of at most `maxSize` characters. */
export function formatMarkdown(report: DiffReport, opts: MarkdownOptions = {}): string {
  const maxSize = opts.maxSize ?? defaultMaxSize;
  const maxFields = opts.maxFieldsPerObject ?? 40;
  const maxRows = opts.maxClusterRows ?? 100;
  // CRD schemas change by the hundred; their first rows say enough.
  const fieldCap = (c: ObjectChange): number => (c.kind === 'CustomResourceDefinition' ? Math.min(maxFields, 12) : maxFields);
  const hb = environment();
  const comment = compile(opts.templateDir, 'comment.hbs', commentTemplate, hb);
  const object = compile(opts.templateDir, 'object.hbs', objectTemplate, hb);
  const topologyCluster = compile(opts.templateDir, 'topology.hbs', topologyTemplate, hb);
  const maxTopology = opts.maxTopologyClusters ?? 20;
  const topologyClusters = report.topology?.clusters ?? [];
  const topology = topologyClusters.slice(0, maxTopology).map((r) => unbloat(topologyCluster(topologyData(r, maxFields))));
  // Most severe first, so what gets cut is what matters least.
  const ordered = report.changes
    .map((c, i) => ({ c, i, s: severity(c) }))
    .sort((a, b) => b.s - a.s || (kindRank[a.c.kind] ?? 3) - (kindRank[b.c.kind] ?? 3) || a.i - b.i)
    .map(({ c }) => c);
  const sections = ordered.map((change) => {
    const fields = change.fields.slice(0, fieldCap(change));
    const { blocks, hidden } = diffBlocks(fields);
    return unbloat(object({
      change,
      // A refused update is never folded away: the reviewer must see it without a click.
      open: change.impacts.some((i) => i.kind === 'rejected'),
      impacts: groupImpacts(change.impacts),
      impact: worstImpact(change.impacts.map((i) => i.kind)),
      fields,
      hiddenFields: Math.max(0, change.fields.length - fieldCap(change)),
      diffs: blocks,
      hiddenDiffs: hidden,
    }));
  });
  const rejected = rejectedRows(report);
  const removedClusters = report.clusters
    .filter((c) => (c.deleted && c.pruned) || (!c.deleted && c.orphaned !== undefined))
    .map((c) => ({
      ...(c.target !== undefined ? { target: c.target } : {}),
      cluster: c.cluster,
      deleted: c.deleted,
      reason: c.reasons.find((r) => r.startsWith('cluster ')) ?? c.reasons[0] ?? '',
      hint: c.orphaned?.hint ?? '',
    }));
  const where = opts.fullReport ?? 'Run `capiform diff --format json` for the full report.';
  const cutKinds = (from: number): string => {
    const counts = new Map<string, number>();
    for (const c of ordered.slice(from)) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
    return [...counts.entries()].map(([k, n]) => `${n} ${k}`).join(', ');
  };
  const render = (included: string[], omitted: number): string =>
    unbloat(comment({
      report,
      rejected,
      removedClusters,
      clusters: report.clusters.slice(0, maxRows),
      clustersHidden: Math.max(0, report.clusters.length - maxRows),
      sections: included,
      topology,
      topologyHidden: Math.max(0, topologyClusters.length - maxTopology),
      omitted: omitted > 0 ? { count: omitted, total: sections.length, limit: maxSize, where, kinds: cutKinds(sections.length - omitted) } : null,
    }));
  const full = render(sections, 0);
  if (full.length <= maxSize) return full;
  // Keep as many sections as fit next to the summary and the truncation note.
  const skeleton = render([], sections.length).length;
  let budget = maxSize - skeleton;
  const kept: string[] = [];
  for (const s of sections) {
    if (s.length + 1 > budget) break;
    kept.push(s);
    budget -= s.length + 1;
  }
  let out = render(kept, sections.length - kept.length);
  if (out.length > maxSize) {
    // Even the summary is too long (thousands of clusters): cut it at a line boundary.
    const note = `\n\n> ✂️ The summary was cut at ${maxSize} characters. ${where}\n`;
    const cut = out.slice(0, Math.max(0, maxSize - note.length));
    out = cut.slice(0, cut.lastIndexOf('\n') + 1) + note;
  }
  return out;
}
