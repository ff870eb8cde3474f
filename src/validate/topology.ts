/**
 * The objects CAPI's topology controller would create for each topology Cluster (the topology engine's expansion),
 * so they are checked against their CRDs like the rendered ones; they are located at their Cluster's file and line.
 * Why a Cluster cannot be expanded (class, variables, patches) becomes an error on the Cluster.
 */
import { expandTopology } from '../topology/index.js';
import { findingAt, isRecord, type Finding, type SourceObject } from './findings.js';

export interface ExpandedObjects {
  objects: SourceObject[];
  findings: Finding[];
}

/** Expands every topology Cluster among `objects`. */
export function topologyExpandedObjects(objects: readonly SourceObject[]): ExpandedObjects {
  const clusters = new Map<string, SourceObject>();
  for (const s of objects) {
    if (s.object.kind !== 'Cluster' || !isRecord(s.object.spec) || !isRecord(s.object.spec.topology)) continue;
    const meta = isRecord(s.object.metadata) ? s.object.metadata : {};
    const key = `${typeof meta.namespace === 'string' && meta.namespace ? meta.namespace : 'default'}/${String(meta.name ?? '')}`;
    if (!clusters.has(key)) clusters.set(key, s);
  }
  if (clusters.size === 0) return { objects: [], findings: [] };
  const result = expandTopology(objects.map((s) => s.object));
  const out: ExpandedObjects = { objects: [], findings: [] };
  for (const c of result.clusters) {
    const src = clusters.get(c.cluster);
    if (!src) continue;
    for (const e of c.errors) {
      out.findings.push(findingAt(src, { severity: 'error', field: e.field, message: e.message, rule: 'capi.topology', ...(typeof e.badValue === 'symbol' || e.badValue === null ? {} : { value: e.badValue }) }));
    }
    for (const w of c.warnings) out.findings.push(findingAt(src, { severity: 'note', field: '', message: `topology: ${w}`, rule: 'capi.topology' }));
    // The Cluster itself is among the inputs already; the rest is what the controller would create from it.
    for (const o of c.objects) if (o.role !== 'cluster') out.objects.push({ object: o.object, file: `${src.file} (topology ${o.role})`, line: src.line });
  }
  return out;
}
