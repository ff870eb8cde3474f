/**
 * Update admission: what CAPI's and the providers' validating webhooks decide when an object of the base tree is
 * replaced by the same object (group, kind, namespace, name) of the head tree. Each rule sees one pair and returns
 * the webhook's refusals as findings; `diff` reports every finding as a rejected change.
 */
import type { Finding, SourceObject } from '../findings.js';
import type { UpdateRule } from './update-rule.js';
import { templateImmutability } from './template-immutability.js';
import { webhookUpdateRules } from './webhook-update-rules.js';

export type { UpdateRule } from './update-rule.js';

/** Every update rule, in the order findings are reported. Add a list of rules by spreading it here. */
export const updateRules: readonly UpdateRule[] = [templateImmutability, ...webhookUpdateRules];

/** One object as stored (base) and as the change applies it (head). */
export interface UpdatePair {
  readonly before: SourceObject;
  readonly after: SourceObject;
}

/** The findings of `rules` over every pair, pair by pair in the given order. */
export function checkUpdates(pairs: Iterable<UpdatePair>, rules: readonly UpdateRule[] = updateRules): Finding[] {
  const out: Finding[] = [];
  for (const { before, after } of pairs) for (const rule of rules) out.push(...rule(before, after));
  return out;
}
