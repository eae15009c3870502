import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderKnobTable } from '../../src/config/knobTable.js';
import { listKnobs } from '../../src/config/knobs.js';
import { KNOBS_END, KNOBS_START, REGENERATE_HINT, extractKnobSection, replaceKnobSection } from '../support/readme-knobs.js';

describe('README knob table', () => {
  it('matches renderKnobTable()', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = extractKnobSection(readme);
    if (section === undefined) {
      throw new Error(`README.md lacks the ${KNOBS_START} … ${KNOBS_END} markers; add them, then ${REGENERATE_HINT}`);
    }
    expect(section, `README.md knob table is stale; ${REGENERATE_HINT}`).toBe(renderKnobTable());
  });

  // README: "Every knob is an environment variable (or `plugin.codebuddy.<field>` in ovcli.conf)": the table names each field (on 8e37669 it had no field column).
  it('names each knob\'s plugin.codebuddy field', () => {
    const rows = renderKnobTable().split('\n');
    expect(rows[0]).toBe('| Variable | `plugin.codebuddy.` field | Default | Bounds | Description |');
    for (const knob of listKnobs()) expect(rows.some((row) => row.startsWith(`| \`${knob.env}\` | \`${knob.key}\` |`))).toBe(true);
  });

  it('has one row per knob', () => {
    const rows = renderKnobTable().split('\n').slice(2);
    expect(rows).toHaveLength(listKnobs().length);
    for (const knob of listKnobs()) expect(rows.some((row) => row.includes(`\`${knob.env}\``))).toBe(true);
  });

  it('replaces only the marked section and appends one when missing', () => {
    const readme = `# T\n\nintro\n\n${KNOBS_START}\nold\n${KNOBS_END}\n\nafter\n`;
    expect(replaceKnobSection(readme, 'NEW')).toBe(`# T\n\nintro\n\n${KNOBS_START}\nNEW\n${KNOBS_END}\n\nafter\n`);
    const appended = replaceKnobSection('# T\n', 'NEW');
    expect(extractKnobSection(appended)).toBe('NEW');
  });
});
