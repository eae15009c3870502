/**
 * Turns the knob table plus the user's values into `Settings`.
 *
 * Sources, first set wins: the knob's `OPENVIKING_*` env variable, then
 * ovcli.conf `plugin.codebuddy.<key>` (the key is the `Settings` field name,
 * e.g. `recallLimit`, mirroring `plugin.claude_code.*` of the Claude Code
 * plugin), then the default. A value that does not parse is ignored with a
 * warning; a number out of bounds is clamped with a warning; both name the
 * source. A switch understands `true`/`false`, `yes`/`no`, `on`/`off`,
 * `1`/`0` (also `y`/`n`, `enabled`/`disabled`; scalars.ts); any other word
 * warns and keeps the default, except in a privacy switch (config/knobs/
 * `failClosed`: memory, auto-recall, auto-capture, assistant turns,
 * bypass), which then reads as the value that sends less and is listed in
 * `failedClosed` for the session-start line (issue 29 item 7). A choice
 * (`choices`) takes only its values. An empty env value is unset.
 *
 * @module
 */
import type { Settings, ValueSource } from './types.js';
import { listKnobs } from './knobs/index.js';
import type { BoolKnob, Knob, NumberKnob, TextKnob } from './knobTypes.js';
import { expandHome } from './configFile.js';
import { parseSwitch, SWITCH_WORDS_TEXT } from './scalars.js';
import type { JsonRecord } from '../util/json.js';
import { nearestName } from '../util/nearest.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface SettingsInput {
  env: Env;
  homeDir: string;
  /** `plugin.codebuddy` of ovcli.conf, and how to name it in sources. */
  file?: { values: JsonRecord; shownAs: string };
}

export interface SettingsResolution {
  settings: Settings;
  sources: Record<keyof Settings, ValueSource>;
  warnings: string[];
  /** Privacy switches whose value was not understood, read as the value that sends less: what was set, where (`OPENVIKING_MEMORY_ENABLED="disabled"`). */
  failedClosed: Partial<Record<keyof Settings, string>>;
}

type Parsed = { ok: true; value: Settings[keyof Settings]; unclear?: true } | { ok: false; problem: string };

/** Resolves every knob. Never throws. */
export function resolveSettings(input: SettingsInput): SettingsResolution {
  const warnings: string[] = input.file ? unknownFields(input.file) : [];
  const settings: Record<string, unknown> = {};
  const sources: Record<string, ValueSource> = {};
  const failedClosed: SettingsResolution['failedClosed'] = {};
  for (const knob of listKnobs()) {
    const resolved = resolveKnob(knob, input, warnings);
    settings[knob.key] = resolved.value;
    sources[knob.key] = resolved.source;
    if (resolved.unclear !== undefined) failedClosed[knob.key] = resolved.unclear;
  }
  return {
    settings: settings as unknown as Settings,
    sources: sources as Record<keyof Settings, ValueSource>,
    warnings,
    failedClosed,
  };
}

/** The default of a knob as a typed value (`path` defaults expanded). */
export function defaultValue(knob: Knob, homeDir: string): Settings[keyof Settings] {
  if (knob.type === 'path') return expandHome(knob.default, homeDir);
  if (knob.type === 'csv') return [...knob.default];
  return knob.default;
}

function resolveKnob(
  knob: Knob,
  input: SettingsInput,
  warnings: string[],
): { value: Settings[keyof Settings]; source: ValueSource; unclear?: string } {
  const candidates: Array<[ValueSource, unknown, string]> = [
    [`env:${knob.env}`, input.env[knob.env], `${knob.env}=${shownValue(input.env[knob.env])}`],
  ];
  if (input.file)
    candidates.push([
      `file:${input.file.shownAs}#plugin.codebuddy.${knob.key}`,
      input.file.values[knob.key],
      `plugin.codebuddy.${knob.key}: ${shownValue(input.file.values[knob.key])} in ${input.file.shownAs}`,
    ]);
  for (const [source, raw, setting] of candidates) {
    if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim())) continue;
    const parsed = parseKnobValue(knob, raw, input.homeDir);
    if (parsed.ok && parsed.unclear === true) {
      warnings.push(
        `${source}: ${shownValue(raw)} is not a word a switch understands (${SWITCH_WORDS_TEXT}); ${knob.env} is a privacy switch, so it reads as ${String(parsed.value)} (the value that sends less) until it is one of them`,
      );
      return { value: parsed.value, source, unclear: setting };
    }
    if (parsed.ok) return { value: clamp(knob, parsed.value, source, warnings), source };
    warnings.push(`${source}: ${parsed.problem}; ignoring it`);
  }
  return { value: defaultValue(knob, input.homeDir), source: 'default' };
}

/** A value as a message shows it: JSON, clipped (the environment's text is the user's, yet shown to a terminal). */
function shownValue(raw: unknown): string {
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Parses one raw value (env text or a JSON value from a file) for a knob: one parser per knob type, so each stays a few lines. */
export function parseKnobValue(knob: Knob, raw: unknown, homeDir: string): Parsed {
  switch (knob.type) {
    case 'bool':
      return parseBool(knob, raw);
    case 'int':
    case 'float':
      return parseNumber(knob, raw);
    case 'string':
    case 'path':
      return parseText(knob, raw, homeDir);
    case 'csv':
      return parseCsv(raw);
  }
}

/** A switch word; a privacy switch reads a word it does not understand as the value that sends less (`unclear`). */
function parseBool(knob: BoolKnob, raw: unknown): Parsed {
  if (typeof raw === 'boolean') return { ok: true, value: raw };
  const value = parseSwitch(typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined);
  if (value !== undefined) return { ok: true, value };
  if (knob.failClosed !== undefined) return { ok: true, value: knob.failClosed, unclear: true };
  return { ok: false, problem: `expected true or false (${SWITCH_WORDS_TEXT}), got ${shownValue(raw)}` };
}

/** Trimmed text: a choice (lower-cased), a shape it must match, or a path with `~` expanded. */
function parseText(knob: TextKnob, raw: unknown, homeDir: string): Parsed {
  if (typeof raw !== 'string') return { ok: false, problem: `expected a string, got ${JSON.stringify(raw)}` };
  const text = raw.trim();
  if (knob.choices !== undefined && !knob.choices.includes(text.toLowerCase()))
    return { ok: false, problem: `expected one of ${knob.choices.join(', ')}, got ${shownValue(raw)}` };
  if (knob.choices !== undefined) return { ok: true, value: text.toLowerCase() };
  if (knob.shape !== undefined && !knob.shape.pattern.test(text))
    return { ok: false, problem: `expected ${knob.shape.expected}, got ${shownValue(raw)}` };
  return { ok: true, value: knob.type === 'path' ? expandHome(text, homeDir) : text };
}

/** A list: comma-separated text (env) or a JSON list of strings (file), items trimmed, empty ones dropped. */
function parseCsv(raw: unknown): Parsed {
  if (typeof raw === 'string') return { ok: true, value: splitList(raw) };
  if (Array.isArray(raw) && raw.every((item) => typeof item === 'string'))
    return { ok: true, value: raw.map((item) => item.trim()).filter(Boolean) };
  return {
    ok: false,
    problem: `expected a comma-separated string or a list of strings, got ${JSON.stringify(raw)}`,
  };
}

function parseNumber(knob: NumberKnob, raw: unknown): Parsed {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(value)) return { ok: false, problem: `expected a number, got ${JSON.stringify(raw)}` };
  if (knob.type === 'int' && !Number.isInteger(value))
    return { ok: false, problem: `expected a whole number, got ${JSON.stringify(raw)}` };
  return { ok: true, value };
}

function clamp(
  knob: Knob,
  value: Settings[keyof Settings],
  source: ValueSource,
  warnings: string[],
): Settings[keyof Settings] {
  if ((knob.type !== 'int' && knob.type !== 'float') || typeof value !== 'number') return value;
  if (value < knob.min) {
    warnings.push(`${source}: ${value} is below the minimum ${knob.min}; using ${knob.min}`);
    return knob.min;
  }
  if (value > knob.max) {
    warnings.push(`${source}: ${value} is above the maximum ${knob.max}; using ${knob.max}`);
    return knob.max;
  }
  return value;
}

/** A warning per field of `plugin.codebuddy` that is no knob, naming the nearest knob when one is close. */
function unknownFields(file: NonNullable<SettingsInput['file']>): string[] {
  const keys = listKnobs().map((knob) => knob.key);
  return Object.keys(file.values)
    .filter((field) => !(keys as string[]).includes(field))
    .map((field) => {
      const near = nearestKnob(field, keys);
      return `${file.shownAs}: plugin.codebuddy.${field} is not a setting${near ? `; did you mean ${near}?` : '.'} Ignoring it (the fields are listed in docs/settings.md)`;
    });
}

/** The knob a misspelt field most likely meant: the same name in another spelling (`recall_limit`, `OPENVIKING_RECALL_LIMIT`), else one within a few edits. */
export function nearestKnob(
  field: string,
  keys: readonly string[] = listKnobs().map((knob) => knob.key),
): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const wanted = plain(field);
  const byEnv = listKnobs().find(
    (knob) => plain(knob.env) === wanted || plain(knob.env.replace(/^OPENVIKING_/, '')) === wanted,
  );
  if (byEnv !== undefined) return byEnv.key;
  return nearestName(field, keys, plain);
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
