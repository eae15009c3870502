/**
 * The table of knobs in docs/settings.md, generated from the knob table so the docs
 * cannot drift from the code (tests/config/readme-table.test.ts compares the
 * two; tests/support/gen-readme-table.ts rewrites that section).
 *
 * @module
 */
import { listKnobs } from './knobs/index.js';
import type { Knob } from './knobTypes.js';

/**
 * Markdown table: env name, the field name in ovcli.conf's
 * `plugin.codebuddy` section, default, bounds, description; one row per
 * knob in table order.
 */
export function renderKnobTable(): string {
  const rows = listKnobs().map(
    (knob) =>
      `| \`${knob.env}\` | \`${knob.key}\` | ${formatDefault(knob)} | ${formatBounds(knob)} | ${escapeCell(knob.description)} |`,
  );
  return [
    '| Variable | `plugin.codebuddy.` field | Default | Bounds | Description |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function formatDefault(knob: Knob): string {
  if (knob.type === 'csv') return knob.default.length ? `\`${knob.default.join(',')}\`` : '(empty)';
  return knob.default === '' ? '(empty)' : `\`${String(knob.default)}\``;
}

function formatBounds(knob: Knob): string {
  return knob.type === 'int' || knob.type === 'float' ? `${knob.min}–${knob.max}` : '—';
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
