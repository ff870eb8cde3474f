/**
 * The pipeline's compositions, called as a library: each command is the same stages composed differently, and only
 * `lock` and `render` write, `lock` the lock alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureProject } from './helpers/pipeline-fixtures.js';
import { snapshotDir } from './helpers/dir-snapshot.js';
import { loadConfig } from '../src/config/index.js';
import { memoryCache } from '../src/lock/index.js';
import { checkProject, lockProject, renderInMemory, renderProject, runPipeline } from '../src/pipeline/index.js';

describe('pipeline compositions', { timeout: 240_000 }, () => {
  it('lock writes capi.lock.yaml alone; a render in memory and a check write nothing; render writes what memory returned', async () => {
    const dir = fixtureProject({}, 'plain');
    const config = await loadConfig({ cwd: dir });
    const cache = memoryCache();
    const before = snapshotDir(dir);

    const locked = await lockProject({ config, cache });
    expect(locked).toMatchObject({ lockChanged: true, lockWritten: true, files: [], omitted: [], changes: undefined, repaired: 'none' });
    const afterLock = snapshotDir(dir);
    expect(Object.keys(afterLock).filter((p) => !(p in before))).toEqual(['capi.lock.yaml']);
    expect({ ...afterLock, 'capi.lock.yaml': undefined }).toEqual({ ...before, 'capi.lock.yaml': undefined });

    const memory = await renderInMemory({ config, cache, frozen: true });
    expect(memory).toMatchObject({ lockChanged: false, lockWritten: false, changes: undefined });
    expect(memory.files.map((f) => f.path)).toContain('clusters/team-a/dev-1/cluster.yaml');
    const checked = await checkProject({ config, cache, frozen: true });
    expect(checked.changes).toEqual({ added: memory.files.map((f) => f.path), changed: [], removed: [] });
    expect(snapshotDir(dir)).toEqual(afterLock);

    const rendered = await renderProject({ config, cache, frozen: true });
    expect(rendered).toMatchObject({ lockChanged: false, lockWritten: false, repaired: 'none' });
    expect(rendered.changes!.added).toEqual(memory.files.map((f) => f.path));
    for (const f of memory.files) expect(readFileSync(join(dir, f.path), 'utf8'), f.path).toBe(f.content);
    expect((await checkProject({ config, cache, frozen: true })).changes).toEqual({ added: [], changed: [], removed: [] });
  });

  it('runPipeline picks the composition by mode', async () => {
    const dir = fixtureProject({}, 'plain');
    const config = await loadConfig({ cwd: dir });
    const cache = memoryCache();
    await lockProject({ config, cache });
    const byMode = await runPipeline({ config, cache, mode: 'memory', frozen: true });
    expect(byMode).toEqual(await renderInMemory({ config, cache, frozen: true }));
  });
});
