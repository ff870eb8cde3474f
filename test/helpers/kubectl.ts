/**
 * Whether `kubectl` is on PATH. The tests that build the emitted kustomizations with `kubectl kustomize` need it;
 * without it they are skipped with `kubectlSkipped` in their name, so the report says why.
 */
import { spawnSync } from 'node:child_process';

export const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
export const kubectlSkipped = hasKubectl ? '' : ' (skipped: kubectl not on PATH)';
