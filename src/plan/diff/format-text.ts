/** The terminal format: summary, providers, clusters, then every change with its impact and fields. */
import pc from 'picocolors';
import type { DiffReport, FieldChange, ObjectChange } from './types.js';
import type { ImpactKind } from '../rollout/types.js';
import { groupImpacts, pinnedLabel } from '../rollout/summary.js';
import { narrowTextChange } from './field-diff.js';
import { valueDiffLines } from './value-diff.js';
import { worstImpact } from '../rollout/types.js';
import type { ClusterTopologyReview, TopologyFieldChange } from '../topology/types.js';

export interface TextOptions {
  color?: boolean;
  /** Field lines per object. Default 30. */
  maxFieldsPerObject?: number;
}

function show(v: unknown): string {
  const text = v === undefined ? '(unset)' : typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

export function formatText(report: DiffReport, opts: TextOptions = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const maxFields = opts.maxFieldsPerObject ?? 30;
  const impactColor = (k: ImpactKind): ((s: string) => string) =>
    k === 'rejected' || k === 'deletion' || k === 'orphaned' || k === 'control-plane-rollout' || k === 'worker-rollout' ? c.red : k === 'no-op' ? c.dim : c.yellow;
  const lines: string[] = [];
  lines.push(c.bold(`capiform diff: ${report.base.label} → ${report.head.label}`));
  if (report.stale) {
    lines.push(c.yellow(`! ${report.stale.message}${report.stale.base ? ' (the base was not up to date either: it is reviewed as rendered too)' : ''}`));
    lines.push(`  fix: run \`${report.stale.fix}\` and commit the result`);
  }
  lines.push(report.summary.text);
  if (report.changed) {
    const n = report.counts;
    lines.push(c.dim(`${n.changed} changed, ${n.added} added, ${n.removed} removed, ${n.rotated} rotated, ${n.unchanged} unchanged`));
  }
  if (report.providers.length) {
    lines.push('', c.bold('Providers'));
    for (const p of report.providers) {
      const version = p.fromVersion && p.toVersion && p.fromVersion !== p.toVersion ? `${p.fromVersion} → ${p.toVersion}` : (p.toVersion ?? p.fromVersion ?? '');
      const contract = p.fromContract && p.toContract && p.fromContract !== p.toContract ? `contract ${p.fromContract} → ${p.toContract}` : p.toContract ? `contract ${p.toContract}` : '';
      lines.push(`  ${p.target ? `${p.target}: ` : ''}${p.label}  ${version}  ${contract}  ${impactColor(p.impact)(p.impact)}`.trimEnd());
      for (const i of p.images) lines.push(`    image ${i.object}/${i.container}: ${i.from ?? '(none)'} → ${i.to ?? '(none)'}`);
      for (const a of p.args) {
        for (const x of a.added) lines.push(`    flag ${a.object}/${a.container}: added ${x}`);
        for (const x of a.removed) lines.push(`    flag ${a.object}/${a.container}: removed ${x}`);
        for (const x of a.changed) {
          if (x.removed === undefined && x.added === undefined) lines.push(`    flag ${a.object}/${a.container}: ${x.flag} ${x.from} → ${x.to}`);
          else lines.push(`    flag ${a.object}/${a.container}: ${x.flag}`, ...(x.removed ?? []).map((r) => `      - ${r}`), ...(x.added ?? []).map((n) => `      + ${n}`));
        }
      }
      const crd = p.crds;
      if (crd.added.length + crd.removed.length + crd.changed.length) {
        lines.push(`    CRDs: ${crd.changed.length} changed, ${crd.added.length} added, ${crd.removed.length} removed${crd.versionsAdded.length ? `; new versions: ${crd.versionsAdded.join(', ')}` : ''}${crd.versionsDeprecated.length ? `; deprecated: ${crd.versionsDeprecated.join(', ')}` : ''}${crd.versionsRemoved.length ? `; removed: ${crd.versionsRemoved.join(', ')}` : ''}${crd.storageChanged.length ? `; storage: ${crd.storageChanged.join(', ')}` : ''}`);
      }
    }
  }
  if (report.clusters.length) {
    lines.push('', c.bold('Clusters'));
    for (const cl of report.clusters) {
      const bits: string[] = [];
      if (cl.controlPlaneRolls) bits.push('control plane rolls');
      if (cl.workersRoll.length) bits.push(`workers roll (${cl.workersRoll.join(', ')})`);
      if (cl.possibleRollout) bits.push('may roll');
      lines.push(`  ${cl.target ? `${cl.target}: ` : ''}${cl.cluster}${pinnedLabel(cl)}  ${impactColor(cl.impact)(cl.impact)}${bits.length ? `: ${bits.join(', ')}` : ''}`);
      for (const r of cl.rejected ?? []) lines.push(`    ${c.red('rejected:')} ${r.object} ${r.field}: ${r.message}`);
      if (cl.orphaned && !cl.deleted) lines.push(`    ${c.red('orphaned:')} still running, no longer in git; delete it with ${cl.orphaned.hint}`);
    }
  }
  if (report.topology) {
    lines.push('', c.bold('ClusterClass topology'));
    for (const r of report.topology.clusters) lines.push(...topologyLines(r, c, impactColor, maxFields));
    for (const w of report.topology.warnings) lines.push(`  ${c.yellow('!')} ${w}`);
  }
  if (report.changes.length) {
    lines.push('', c.bold('Changes'));
    for (const ch of report.changes) lines.push(...changeLines(ch, c, impactColor, maxFields));
  }
  if (report.warnings.length) {
    lines.push('', c.bold('Warnings'));
    for (const w of report.warnings) lines.push(`  ${c.yellow('!')} ${w}`);
  }
  return `${lines.join('\n')}\n`;
}

type Colors = ReturnType<typeof pc.createColors>;

function changeLines(ch: ObjectChange, c: Colors, impactColor: (k: ImpactKind) => (s: string) => string, maxFields: number): string[] {
  const sym = { added: c.green('+'), removed: c.red('-'), changed: c.yellow('~'), rotated: c.cyan('↻') }[ch.action];
  const name = ch.namespace ? `${ch.namespace}/${ch.name}` : ch.name;
  const head = ch.action === 'rotated' ? `${ch.kind} ${ch.namespace ? `${ch.namespace}/` : ''}${ch.previousName} → ${ch.name}` : `${ch.kind} ${name}`;
  const out = [`${sym} ${c.bold(head)}  ${c.dim(ch.file)}`];
  for (const g of groupImpacts(ch.impacts)) {
    out.push(`    ${impactColor(g.kind)(g.kind)}${g.possible ? ' (possible)' : ''}${g.clusters ? ` [${g.clusters}]` : ''}: ${g.reason}`);
    if (g.warning) out.push(`      ${c.yellow('warning:')} ${g.warning}`);
    if (g.hint) out.push(`      ${g.kind === 'orphaned' ? 'delete it with' : 'fix:'} ${g.hint}`);
  }
  for (const f of ch.fields.slice(0, maxFields)) out.push(...fieldLines(f, '      ', c));
  if (ch.fields.length > maxFields) out.push(c.dim(`      … ${ch.fields.length - maxFields} more field changes (--format json shows all)`));
  return out;
}

const roleSymbols = { created: '+', deleted: '-', changed: '~', rotated: '↻' } as const;

/** One topology Cluster: what CAPI does, then each desired object that changes (by role) with its fields. */
function topologyLines(r: ClusterTopologyReview, c: Colors, impactColor: (k: ImpactKind) => (s: string) => string, maxFields: number): string[] {
  const bits: string[] = [];
  if (r.controlPlaneRolls) bits.push('control plane rolls');
  if (r.workersRoll.length) bits.push(`workers roll (${r.workersRoll.join(', ')})`);
  if (r.inPlace.length) bits.push(`in place: ${r.inPlace.join(', ')}`);
  if (r.impacts.some((i) => i.possible)) bits.push(`may roll (external patches: ${r.externalPatches.join(', ')})`);
  const rebase = r.previousClass ? `, rebased from ${r.previousClass}` : '';
  const out = [`  ${c.bold(r.cluster)} (ClusterClass ${r.class}${rebase}) ${r.status}: ${impactColor(r.impact)(r.impact)}${bits.length ? `; ${bits.join('; ')}` : ''}`];
  if (r.upgrade) {
    const via = r.upgrade.extension
      ? ` (upgrade plan from the runtime extension "${r.upgrade.extension}", unknown offline)`
      : r.upgrade.hops.length
        ? ` via ${r.upgrade.hops.join(', ')}`
        : '';
    out.push(`    Kubernetes upgrade ${r.upgrade.from} → ${r.upgrade.to}${via}: ${r.upgrade.order.join(', then ')}`);
  }
  for (const ch of r.changes) {
    const name = ch.previousName ? `${ch.previousName} → ${ch.name}` : ch.name;
    const kinds = ch.impacts.map((i) => i.kind);
    out.push(`    ${roleSymbols[ch.action]} ${ch.role}  ${ch.kind} ${name}: ${impactColor(worstImpact(kinds))(worstImpact(kinds))}`);
    for (const f of ch.fields.slice(0, maxFields)) out.push(...fieldLines(f.valueDiff ? f : narrowTextChange(f), '        ', c));
    if (ch.fields.length > maxFields) out.push(c.dim(`        … ${ch.fields.length - maxFields} more field changes (--format json shows all)`));
  }
  for (const e of r.errors) out.push(`    ${c.red('error:')} ${e}`);
  for (const w of r.warnings) out.push(`    ${c.yellow('!')} ${w}`);
  return out;
}

/** A field's line; a value diff follows it, one line per changed line or item, `-` and `+` coloured. */
function fieldLines(f: FieldChange | TopologyFieldChange, indent: string, c: Colors): string[] {
  if (!f.valueDiff) return [`${indent}${fieldLine(f)}`];
  const d = f.valueDiff;
  const head = `${indent}${f.path}: changed${d.kind === 'items' && d.prefix ? ` (${d.prefix}…)` : ''}`;
  const paint = (l: string): string => (l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l.startsWith('@@') ? c.cyan(l) : l);
  return [head, ...valueDiffLines(d).map((l) => `${indent}  ${paint(l)}`)];
}

function fieldLine(f: FieldChange | TopologyFieldChange): string {
  if ('redacted' in f && f.redacted) {
    const { oldHash, newHash, reason } = f.redacted;
    const status = f.action === 'changed' ? 'changed' : f.action;
    return `${f.path}: ${status} (${reason}; value hidden${oldHash ? ` ${oldHash}` : ''}${oldHash && newHash ? ' →' : ''}${newHash ? ` ${newHash}` : ''})`;
  }
  if (f.action === 'added') return `${f.path}: + ${show(f.new)}`;
  if (f.action === 'removed') return `${f.path}: - ${show(f.old)}`;
  return `${f.path}: ${show(f.old)} → ${show(f.new)}`;
}
