/** `lock --upgrade [names…]`: which entries a run re-resolves. */

/** Whether `lock --upgrade [names…]` re-resolves this provider: all, or named by name or label. */
export function isUpgrading(p: { name: string; label: string }, upgrade: 'all' | readonly string[] | undefined): boolean {
  return upgrade === 'all' || (upgrade !== undefined && (upgrade.includes(p.name) || upgrade.includes(p.label)));
}
