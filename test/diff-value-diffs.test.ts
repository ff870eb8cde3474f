/**
 * The review shows what changed inside a value: a ClusterClass patch template edit as the lines it changes (a
 * unified diff, in a ```diff block in the comment), a feature-gate flip as the gates it flips (`- B=false`,
 * `+ B=true`), in markdown, text and JSON. Real CAPD releases from ../shared/corpus.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { DiffReport, FieldChange } from '../src/plan/diff/index.js';
import { runCli } from './helpers/cli.js';
import { classFiles, providerFiles, writeTree, type Files } from './helpers/diff-fixtures.js';
import { sharedDir } from './helpers/shared.js';

const shared = sharedDir('corpus');
const corpus = join(shared.path, 'repository');
const env = { PATH: process.env.PATH, HOME: process.env.HOME, CAPIFORM_DIFF_SALT: 'test-salt' };

/** Runs `capiform diff BASE HEAD` over two tree folders. */
async function diff(base: Files, head: Files, ...flags: string[]): Promise<string> {
  const r = await runCli(['diff', writeTree(base), writeTree(head), ...flags], { env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fixtures edit deep YAML paths
type Obj = Record<string, any>;

/** The quick-start class of CAPD v1.13.5 with one line of its PodSecurity patch template edited. */
function classWithEditedTemplate(): { base: Files; head: Files } {
  const base = classFiles('default', undefined, 'v1.13.5', corpus);
  const head = classFiles(
    'default',
    (objs) => {
      const cc = objs.find((o) => o.kind === 'ClusterClass') as Obj;
      const patch = (cc.spec.patches as Obj[]).find((p) => p.name === 'podSecurityStandard')!;
      const op = (patch.definitions[0].jsonPatches as Obj[]).find((j) => typeof j.valueFrom?.template === 'string' && j.valueFrom.template.includes('enforce-version'))!;
      op.valueFrom.template = (op.valueFrom.template as string).replace('enforce-version: "latest"', 'enforce-version: "v1.33"');
    },
    'v1.13.5',
    corpus,
  );
  return { base, head };
}

/** CAPD v1.13.5's components with the PriorityQueue gate as given. */
function capd(priorityQueue: 'true' | 'false'): Files {
  const files = providerFiles('infrastructure-docker', 'v1.13.5', corpus, 'infrastructure-components-development.yaml');
  const path = 'providers/infrastructure-docker/components.yaml';
  const text = files[path]!;
  expect(text).toContain('PriorityQueue=true,');
  return { ...files, [path]: text.replace('PriorityQueue=true,', `PriorityQueue=${priorityQueue},`) };
}

const templateField = (report: DiffReport): FieldChange => {
  const cc = report.changes.find((c) => c.kind === 'ClusterClass');
  const f = cc?.fields.find((x) => x.path.endsWith('.valueFrom.template'));
  if (!f) throw new Error(`no template field in ${JSON.stringify(report.changes.map((c) => c.fields.map((x) => x.path)))}`);
  return f;
};

describe.skipIf(!shared.present)(`capiform diff shows what changed inside a value${shared.skipped}`, () => {
  it('a ClusterClass patch template edit: JSON carries the unified diff of its lines', async () => {
    const { base, head } = classWithEditedTemplate();
    const report = JSON.parse(await diff(base, head, '--format', 'json')) as DiffReport;
    const f = templateField(report);
    expect(f.path).toBe('.spec.patches[name=podSecurityStandard].definitions[0].jsonPatches[2].valueFrom.template');
    // The first 300 characters of both sides are the same: only the diff shows the edit.
    expect((f.old as string).slice(0, 300)).toBe((f.new as string).slice(0, 300));
    expect(f.valueDiff).toEqual({
      kind: 'lines',
      lines: [
        '@@ -8,7 +8,7 @@',
        '         kind: PodSecurityConfiguration',
        '         defaults:',
        '           enforce: "{{ .podSecurityStandard.enforce }}"',
        '-          enforce-version: "latest"',
        '+          enforce-version: "v1.33"',
        '           audit: "{{ .podSecurityStandard.audit }}"',
        '           audit-version: "latest"',
        '           warn: "{{ .podSecurityStandard.warn }}"',
      ],
    });
  });

  it('the markdown comment shows the changed line in a ```diff block, and the table points to it', async () => {
    const { base, head } = classWithEditedTemplate();
    const md = await diff(base, head, '--format', 'markdown');
    expect(md).toContain('| <code>.spec.patches[name=podSecurityStandard].definitions[0].jsonPatches[2].valueFrom.template</code> | <i>see the diff below</i> | <i>see the diff below</i> |');
    expect(md).toContain(
      [
        '<code>.spec.patches[name=podSecurityStandard].definitions[0].jsonPatches[2].valueFrom.template</code>:',
        '',
        '```diff',
        '@@ -8,7 +8,7 @@',
        '         kind: PodSecurityConfiguration',
        '         defaults:',
        '           enforce: "{{ .podSecurityStandard.enforce }}"',
        '-          enforce-version: "latest"',
        '+          enforce-version: "v1.33"',
      ].join('\n'),
    );
  });

  it('the text output prints the changed lines under the field', async () => {
    const { base, head } = classWithEditedTemplate();
    const text = await diff(base, head);
    expect(text).toContain('      .spec.patches[name=podSecurityStandard].definitions[0].jsonPatches[2].valueFrom.template: changed\n        @@ -8,7 +8,7 @@\n');
    expect(text).toContain('\n        -          enforce-version: "latest"\n        +          enforce-version: "v1.33"\n');
  });

  it('a feature-gate flip: the gates that flip, item by item, in JSON, markdown and text', async () => {
    const report = JSON.parse(await diff(capd('false'), capd('true'), '--format', 'json')) as DiffReport;
    const deployment = report.changes.find((c) => c.kind === 'Deployment');
    const gate = deployment?.fields.find((f) => f.path.includes('.args['));
    expect(gate).toMatchObject({
      action: 'changed',
      valueDiff: { kind: 'items', prefix: '--feature-gates=', removed: ['PriorityQueue=false'], added: ['PriorityQueue=true'] },
    });
    expect(report.providers[0]?.args).toEqual([
      {
        object: 'capd-controller-manager',
        container: 'manager',
        added: [],
        removed: [],
        changed: [
          {
            flag: '--feature-gates',
            from: 'MachinePool=true,ClusterTopology=false,PriorityQueue=false,ReconcilerRateLimiting=true',
            to: 'MachinePool=true,ClusterTopology=false,PriorityQueue=true,ReconcilerRateLimiting=true',
            removed: ['PriorityQueue=false'],
            added: ['PriorityQueue=true'],
          },
        ],
      },
    ]);

    const md = await diff(capd('false'), capd('true'), '--format', 'markdown');
    expect(md).toContain('- infrastructure-docker: flag <code>--feature-gates</code> of capd-controller-manager/manager <code>- PriorityQueue=false</code> <code>+ PriorityQueue=true</code>\n');
    expect(md).toContain('```diff\n# --feature-gates=\n-PriorityQueue=false\n+PriorityQueue=true\n```');
    expect(md).not.toContain('MachinePool=true,ClusterTopology=false,PriorityQueue=true');

    const text = await diff(capd('false'), capd('true'));
    expect(text).toContain('    flag capd-controller-manager/manager: --feature-gates\n      - PriorityQueue=false\n      + PriorityQueue=true\n');
    expect(text).toContain('.args[3]: changed (--feature-gates=…)\n        -PriorityQueue=false\n        +PriorityQueue=true\n');
  });

  it('a container args list that grows: the added flag alone', async () => {
    const base = capd('true');
    const path = 'providers/infrastructure-docker/components.yaml';
    const head = { ...base, [path]: base[path]!.replace('            - --feature-gates=', '            - --v=4\n            - --feature-gates=') };
    const report = JSON.parse(await diff(base, head, '--format', 'json')) as DiffReport;
    const args = report.changes.find((c) => c.kind === 'Deployment')?.fields.find((f) => f.path.endsWith('.args'));
    expect(args?.valueDiff).toEqual({ kind: 'items', removed: [], added: ['--v=4'] });
  });
});

describe('value diffs stay inside the comment limit', () => {
  it('hundreds of long multi-line changes: the markdown keeps to --max-size and says what it left out', async () => {
    const cm = (n: number, edit: string): string =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${n}\n  namespace: default\ndata:\n  script: |\n${Array.from({ length: 300 }, (_, i) => `    line ${i} ${i % 7 === 0 ? edit : 'same'} ${'x'.repeat(200)}`).join('\n')}\n`;
    const files = (edit: string): Files => {
      const out: Files = {};
      for (let n = 0; n < 200; n++) out[`clusters/default/c${n}/cm.yaml`] = `# generated by capiform — do not edit; run \`capiform render\`\n${cm(n, edit)}`;
      return out;
    };
    const md = await diff(files('old'), files('new'), '--format', 'markdown', '--max-size', '20000');
    expect(md.length).toBeLessThanOrEqual(20000);
    expect(md).toContain('```diff');
    expect(md).toMatch(/✂️ \d+ of 200 object sections are not shown/);
    const json = JSON.parse(await diff(files('old'), files('new'), '--format', 'json')) as DiffReport;
    const d = json.changes[0]!.fields[0]!.valueDiff;
    // 43 changed lines with context: capped at 40 diff lines, the rest counted.
    expect(d).toMatchObject({ kind: 'lines' });
    expect(d?.kind === 'lines' && d.lines.length).toBe(40);
    expect(d?.hidden).toBeGreaterThan(0);
    expect(d?.kind === 'lines' && d.lines.every((l) => l.length <= 241)).toBe(true);
  });
});
