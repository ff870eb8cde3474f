/**
 * The update half of CAPI's validating webhooks (webhooks.ts), as rules over an object in the base tree and the
 * same object in the head tree: what `kubectl apply` of the change would be refused with (immutable fields, a
 * clusterName moved, a Kubernetes downgrade or a skipped minor, a topology removed). Each finding carries the
 * webhook's field path and message and a `webhook/<Kind>.<what>` rule id.
 */
import { isRecord, type SourceObject } from '../findings.js';
import type { UpdateRule } from './update-rule.js';
import { findingOf } from './webhook-fields.js';
import { clusterVersionCeiling, webhookOf } from './webhooks.js';

/** The webhook's update checks of one kind's object (the create checks of the head object are `validate`'s). */
const webhookUpdate: UpdateRule = (before, after) => {
  const w = webhookOf(after.object);
  if (!w || w !== webhookOf(before.object) || !isRecord(after.object.spec)) return [];
  return w.update(w.defaults(before.object), w.defaults(after.object)).map((e) => findingOf(after, e));
};

export const webhookUpdateRules: readonly UpdateRule[] = [webhookUpdate];

/**
 * The Cluster webhook's "at most one minor at a time" on `spec.topology.version`, which depends on the Cluster's
 * ClusterClass (`classOf` finds it in the head tree; without it the rule stays silent, as the webhook cannot decide).
 */
export function clusterVersionCeilingRule(classOf: (cluster: SourceObject) => Record<string, unknown> | undefined): UpdateRule {
  return (before, after) => {
    const w = webhookOf(after.object);
    if (after.object.kind !== 'Cluster' || !w || w !== webhookOf(before.object)) return [];
    return clusterVersionCeiling(w.defaults(before.object), w.defaults(after.object), classOf(after)).map((e) => findingOf(after, e));
  };
}
