import { readdirSync, readFileSync } from 'node:fs';
import { CONFIGURATION_VARIABLES, NETWORK_VARIABLES, PER_REQUEST_VARIABLES } from '../../src/resident/identity.js';
import { HOST_DATA_VARIABLES } from '../../src/store/paths.js';
import { describe, expect, it } from 'vitest';
import { renderKnobTable } from '../../src/config/knobTable.js';
import { listKnobs } from '../../src/config/knobs/index.js';
import {
  KNOBS_END,
  KNOBS_START,
  REGENERATE_HINT,
  extractKnobSection,
  replaceKnobSection,
} from '../support/readme-knobs.js';

describe('the knob table of docs/settings.md (the README links it)', () => {
  it('matches renderKnobTable()', () => {
    const settings = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
    const section = extractKnobSection(settings);
    if (section === undefined) {
      throw new Error(
        `docs/settings.md lacks the ${KNOBS_START} … ${KNOBS_END} markers; add them, then ${REGENERATE_HINT}`,
      );
    }
    expect(section, `docs/settings.md knob table is stale; ${REGENERATE_HINT}`).toBe(renderKnobTable());
    expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain('(docs/settings.md)');
  });

  // README: "Every knob is an environment variable (or `plugin.codebuddy.<field>` in ovcli.conf)": the table names each field (on 8e37669 it had no field column).
  it("names each knob's plugin.codebuddy field", () => {
    const rows = renderKnobTable().split('\n');
    expect(rows[0]).toBe('| Variable | `plugin.codebuddy.` field | Default | Bounds | Description |');
    for (const knob of listKnobs())
      expect(rows.some((row) => row.startsWith(`| \`${knob.env}\` | \`${knob.key}\` |`))).toBe(true);
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

// docs/settings.md: "Besides the knobs and the credentials above, the plugin reads only these variables" — on 8e37669
// OPENVIKING_BEARER_TOKEN, OPENVIKING_BASE_URL, OPENVIKING_CONFIG_FILE, OPENVIKING_CLI_CONFIG_FILE, OPENVIKING_CREDENTIALS_SOURCE,
// CLAUDE_CONFIG_DIR, NODE_USE_ENV_PROXY, NODE_USE_SYSTEM_CA and OPENSSL_CONF were read and documented nowhere.
describe('the README and docs/settings.md name every variable the code reads', () => {
  it('every env read in src/ and every variable that keys the resident', () => {
    const readme = ['../../README.md', '../../docs/settings.md']
      .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
      .join('\n');
    const read = new Set<string>([
      ...NETWORK_VARIABLES,
      ...CONFIGURATION_VARIABLES,
      ...PER_REQUEST_VARIABLES,
      ...HOST_DATA_VARIABLES,
    ]);
    const patterns = [
      /\benv(?:\.|\[['"`])([A-Z][A-Z0-9_]+)/g,
      /fromEnv\('([A-Z][A-Z0-9_]+)'\)/g,
      /'(OPENVIKING_[A-Z0-9_]+)'/g,
    ];
    for (const file of sourceFiles('src')) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of patterns) for (const match of text.matchAll(pattern)) read.add(match[1] as string);
    }
    read.delete('OPENVIKING_'); // the resident key's prefix, not a variable
    // Test seams are compiled out of every shipped bundle (tests/faults/test-seams.test.ts); the README names proxy variables in upper case ("either case").
    const missing = [...read].filter(
      (name) => !name.startsWith('OPENVIKING_TEST_') && !new RegExp(`\\b${name.toUpperCase()}\\b`).test(readme),
    );
    expect(missing).toEqual([]);
    expect(read.has('OPENVIKING_BEARER_TOKEN') && read.has('OPENSSL_CONF') && read.has('CLAUDE_CONFIG_DIR')).toBe(true);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}
