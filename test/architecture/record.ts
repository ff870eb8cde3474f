/**
 * Rewrites test/architecture/recorded.json from the current sources: `npx jiti test/architecture/record.ts`. Run it
 * only after removing violations (the list may only shrink); test/architecture.test.ts fails on any new one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { violations } from './imports.js';

const root = join(import.meta.dirname, '..', '..');
const byRule: Record<string, string[]> = { 'upward import': [], 'import circle': [], 'bypasses index.ts': [] };
for (const v of violations(root)) byRule[v.rule]!.push(v.key);
writeFileSync(join(import.meta.dirname, 'recorded.json'), `${JSON.stringify(byRule, null, 2)}\n`);
