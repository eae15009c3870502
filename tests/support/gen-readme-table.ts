/**
 * Rewrites the knob table in docs/settings.md from src/config/knobs/.
 * Run: `npx tsx tests/support/gen-readme-table.ts` (from the repository root).
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderKnobTable } from '../../src/config/knobTable.js';
import { replaceKnobSection } from './readme-knobs.js';

const README = new URL('../../docs/settings.md', import.meta.url);
const before = readFileSync(README, 'utf8');
const after = replaceKnobSection(before, renderKnobTable());
if (after === before) {
  console.log('docs/settings.md knob table is up to date');
} else {
  writeFileSync(README, after);
  console.log('docs/settings.md knob table rewritten');
}
