import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { fixtureProject } from './helpers/pipeline-fixtures.js';

describe('capiform render', () => {
  it('renders the tree and writes the lock', async () => {
    const dir = fixtureProject();
    const r = await runCli(['render'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    console.log(r.stdout);
    console.log(readFileSync(join(dir, 'capi.lock.yaml'), 'utf8'));
    expect(existsSync(join(dir, 'providers/cluster-api/components.yaml'))).toBe(true);
  });
});
