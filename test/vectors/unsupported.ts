/**
 * The only vector ops the runner does not execute, each with the reason. Everything else must have a handler in
 * `handlers/`, or its vectors fail. Keep this list short and honest.
 *
 * Keys use the runner's op key: `clusterctl:<input.op>` or `capi-plan:<file>:<operation>`
 * (`<operation>` is `*` for files whose vectors carry no `input.operation`).
 */
export const unsupported: Record<string, string> = {
  'clusterctl:cli:init list-images':
    'clusterctl init needs a management cluster; capiform has no init command (InitImages vectors run the same image listing)',
  'clusterctl:utilresource.SortForCreate':
    'the order clusterctl init creates objects in a cluster; capiform never applies objects (Argo CD does)',
  'clusterctl:CheckCAPIContract': 'reads the CRDs of a management cluster; capiform never reads a cluster',
  'clusterctl:EnsureCustomResourceDefinitions': 'installs the inventory CRD into a management cluster',
  'capi-plan:*:CheckCAPIContract': 'reads the CRDs of a management cluster; capiform never reads a cluster',
  'capi-plan:*:EnsureCustomResourceDefinitions': 'installs the inventory CRD into a management cluster',
  'capi-plan:*:move': 'creates and deletes objects in two clusters; capiform plans the move (graph and order) only',
  'capi-plan:*:cli:move': 'clusterctl move flags act on clusters (--to-kubeconfig, --to-directory); capiform plans the move only',
};
