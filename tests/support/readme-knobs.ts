/**
 * The generated knob section of docs/settings.md (the README links it):
 * locate it between its markers and replace it. Shared by the drift test
 * and the regeneration script.
 *
 * @module
 */
export const KNOBS_START = '<!-- knobs:start -->';
export const KNOBS_END = '<!-- knobs:end -->';

export const REGENERATE_HINT = 'regenerate it with `npx tsx tests/support/gen-readme-table.ts`';

/** The text between the markers, trimmed; `undefined` when a marker is missing or out of order. */
export function extractKnobSection(readme: string): string | undefined {
  const start = readme.indexOf(KNOBS_START);
  const end = readme.indexOf(KNOBS_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + KNOBS_START.length, end).trim();
}

/** The README with the section between the markers set to `table`; appends a marked section when there is none. */
export function replaceKnobSection(readme: string, table: string): string {
  const block = `${KNOBS_START}\n${table}\n${KNOBS_END}`;
  const start = readme.indexOf(KNOBS_START);
  const end = readme.indexOf(KNOBS_END);
  if (start < 0 || end < start) return `${readme.trimEnd()}\n\n${block}\n`;
  return readme.slice(0, start) + block + readme.slice(end + KNOBS_END.length);
}
